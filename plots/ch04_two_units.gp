# Chapter 4, claim I4: two units share the token x1 and one score function;
# A wants a large output only for x1 > 0, B only for x1 < 0. Each point is a
# pair of the units' own inputs; the colour says who is satisfied there.
# Panels: the sum, the product, and four tanh units with biases.
# caption: Two units share one token and need opposite signs of it: with the product both can be satisfied on part of the plane, with the sum neither can; tanh units with biases can, at the price of more units.
# claims: I4
set multiplot title "One score, two units with opposite needs: where are both satisfied?" font titlefont
set palette maxcolors 4
set palette defined (0 "#eeeeee", 1 "#9ecae1", 2 "#fdae6b", 3 "#1b7837")
set cbrange [-0.5:3.5]
set cbtics ("neither" 0, "only A" 1, "only B" 2, "both" 3) scale 0
coord(k) = -half + 2.0 * half * k / (n - 1)
step = 2.0 * half / (n - 1)
set xrange [-half - step / 2:half + step / 2]
set yrange [-half - step / 2:half + step / 2]
set xtics 2 out
set ytics 1 out
set border 15 lw 1.5
unset grid
unset key
set xlabel "x_3 of unit A"
panel_title(k) = k == 0 ? sprintf("sum x_1 + x_3\nboth: %.1f%%", 100 * both_sum) : \
                 k == 1 ? sprintf("product x_1 · x_3\nboth: %.1f%%", 100 * both_product) : \
                          sprintf("4 biased tanh units\nboth: %.1f%%", 100 * both_biased)
height = 0.44
width = height * 9.0 / 16.0
set label 1 sprintf("A wants x_1 > 0, B wants x_1 < 0; satisfied: the output is large (≥ %g × largest)\nfor some x_1, and only for x_1 of the sign the unit wants; both: share of the grid", large) \
    at screen 0.5, screen 0.07 center tc rgb accent
do for [k = 0:2] {
    set lmargin at screen 0.085 + k * 0.265
    set rmargin at screen 0.085 + k * 0.265 + width
    set tmargin at screen 0.76
    set bmargin at screen 0.76 - height
    set title panel_title(k)
    if (k == 0) {
        set ylabel "x_3 of unit B (wants x_1 < 0)"
        set format y "%g"
        unset colorbox
    } else {
        unset label 2
        unset arrow 2
        unset ylabel
        set format y ""
    }
    if (k == 2) {
        set colorbox user origin screen 0.885, screen 0.76 - height size screen 0.016, screen height
    }
    plot data index k using (coord($1)):(coord($2)):3 with image
}
unset multiplot
