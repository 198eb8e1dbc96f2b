# Chapter 2, claims D1-D3: the weight from each source token into each
# receiving unit, for the three generators, on one colour scale.
# caption: Weights made from the source token alone are the same for every receiving unit (identical rows); adding the receiver's own input makes them all distinct; keeping only the unit's own input breaks the symmetry but forgets the other tokens.
# claims: D1 D2 D3
set multiplot title "Dynamic weights w_{ji}: what unit j takes from token i" font titlefont
@palette_diverging
set cbrange [-wmax:wmax]
set cblabel "weight w_{ji}"
set xrange [0.5:tokens + 0.5]
set yrange [tokens + 0.5:0.5]
# every token labelled up to 8, then about 8 labels per axis
step = tokens <= 8 ? 1 : tokens <= 16 ? 2 : tokens <= 40 ? 5 : 10
set xtics step scale 0
set ytics step scale 0
if (step > 1) {
    set xtics 0, step scale 0
    set ytics 0, step scale 0
}
unset grid
set border 0
set xlabel "source token i"
panel_title(k) = k == 0 ? "source only\nD1: rows all equal" : \
                 k == 1 ? "source + receiver\nD2: all differ" : \
                          "self-weight only\nD3: stateless"
cell_labels = tokens <= 8
# `with image pixels` below: one rectangle per cell, so SVG viewers cannot blur them
# numbers in the cells: one decimal, so that they fit a cell at the axis text's size
cell_font = ",27"
cell_text(w) = w == 0 ? "" : sprintf("%.1f", w)
do for [k = 0:2] {
    set lmargin at screen 0.07 + k * 0.28
    set rmargin at screen 0.07 + k * 0.28 + 0.23
    set tmargin at screen 0.78
    set bmargin at screen 0.14
    set title panel_title(k)
    if (k == 0) { set ylabel "receiving unit j" } else { unset ylabel }
    if (k == 2) {
        set colorbox user origin screen 0.885, screen 0.14 size screen 0.018, screen 0.64
    } else {
        unset colorbox
    }
    if (cell_labels) {
        plot data index k using ($1 + 1):($2 + 1):3 with image pixels notitle, \
             ''   index k using ($1 + 1):($2 + 1):(cell_text($3)) with labels font cell_font notitle
    } else {
        plot data index k using ($1 + 1):($2 + 1):3 with image pixels notitle
    }
}
unset multiplot
