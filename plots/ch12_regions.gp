# Chapter 12, claim L3: what the two scores learned, as P("same sign") over
# the plane of (x_i, x_L); the target is positive in the 1st and 3rd quadrants.
# caption: What the scores learned for sign agreement: the product unit finds both quadrants; one bias-free tanh unit, an odd function, cannot.
# claims: L3
set multiplot title sprintf("Learned decision regions, h = %d: P(x_i and x_L have the same sign)", hidden) font titlefont
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
panel_title(k) = k == 0 ? sprintf("product (W_q x_L)·(W_k x_i)\nmean accuracy %.2f", product_acc) \
                        : sprintf("additive v·tanh(W_1 x_i + W_2 x_L)\nmean accuracy %.2f", additive_acc)
set arrow 1 from -3, 0 to 3, 0 nohead lw 1.5 lc rgb "#333333" front
set arrow 2 from 0, -3 to 0, 3 nohead lw 1.5 lc rgb "#333333" front
# the target, written in the corner of each quadrant
set label 1 "target: same" at 2.75, 2.6 right front boxed tc rgb "#333333"
set label 2 "target: same" at -2.75, -2.6 left front boxed tc rgb "#333333"
set label 3 "target: differ" at -2.75, 2.6 left front boxed tc rgb "#333333"
set label 4 "target: differ" at 2.75, -2.6 right front boxed tc rgb "#333333"
do for [k = 0:1] {
    set lmargin at screen 0.08 + k * 0.43
    set rmargin at screen 0.08 + k * 0.43 + 0.36
    set tmargin at screen 0.80
    set bmargin at screen 0.12
    set title panel_title(k)
    if (k == 1) {
        set colorbox user origin screen 0.9, screen 0.12 size screen 0.018, screen 0.68
    } else {
        unset colorbox
    }
    plot data index k using (coord($1)):(coord($2)):3 with image notitle
}
unset multiplot
