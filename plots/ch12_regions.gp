# Chapter 12, claims L3 and I5: what three scores learned, as P("same sign")
# over the plane of (x_i, x_L); the target is positive in the 1st and 3rd quadrants.
set multiplot title "Learned decision regions: P(x_i and x_L have the same sign)" font titlefont
@palette_diverging
set cbrange [0:1]
# undecided (0.5) is a light grey, so that it reads as a value and not as a gap in the image
set palette defined (0 '#2166ac', 0.25 '#92c5de', 0.5 '#d9d9d9', 0.75 '#f4a582', 1 '#b2182b')
set cblabel "P(same sign); grey: undecided"
coord(i) = -3.0 + 6.0 * i / (grid - 1)
set xrange [-3:3]
set yrange [-3:3]
set size ratio -1
set xtics 1
set ytics 1
unset grid
set xlabel "x_i"
set ylabel "x_L" offset 1,0
set style textbox opaque fillcolor rgb "white" noborder margins 1,1
panel_title(k) = k == 0 ? sprintf("product, 1 unit\nmean accuracy %.2f", acc0) : \
                 k == 1 ? sprintf("tanh, no bias, 1 unit\nmean accuracy %.2f", acc1) \
                        : sprintf("tanh with bias, %d units\nmean accuracy %.2f", hidden, acc2)
set arrow 1 from -3, 0 to 3, 0 nohead lw 1.5 lc rgb "#333333" front
set arrow 2 from 0, -3 to 0, 3 nohead lw 1.5 lc rgb "#333333" front
# the target, written in the corner of each quadrant
set label 1 "same" at 2.8, 2.55 right front boxed tc rgb "#333333"
set label 2 "same" at -2.8, -2.55 left front boxed tc rgb "#333333"
set label 3 "differ" at -2.8, 2.55 left front boxed tc rgb "#333333"
set label 4 "differ" at 2.8, -2.55 right front boxed tc rgb "#333333"
do for [k = 0:2] {
    set lmargin at screen 0.05 + k * 0.285
    set rmargin at screen 0.05 + k * 0.285 + 0.26
    set tmargin at screen 0.84
    set bmargin at screen 0.16
    set title panel_title(k)
    if (k > 0) {
        unset ylabel
        set format y ""
    }
    if (k == 2) {
        set colorbox user origin screen 0.905, screen 0.15 size screen 0.018, screen 0.62
    } else {
        unset colorbox
    }
    plot data index k using (coord($1)):(coord($2)):3 with image notitle
}
unset multiplot
