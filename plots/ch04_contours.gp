# Chapter 4, claims I2 and I3: four interaction functions on [-3, 3]^2 (one
# bias-free tanh unit, the sum, the product, four tanh units with biases),
# each divided by its largest value, on one colour scale with the same
# contour levels. The thick line is the "large output" level of I3.
# caption: One bias-free tanh unit, the plain sum, the product and four tanh units with biases, on one colour scale: tanh(x1 + x3) has the same level lines as the sum, while the product has two separate regions of large output in one unit (the biased tanh units need several).
# claims: I2 I3
set multiplot title "One tanh unit, sum, product, biased tanh units: which lets a unit choose?\nsame contour levels and colour scale, each divided by its largest value on [−3, 3]^2" font titlefont
@palette_diverging
set cbrange [-1:1]
set cbtics 0.5
set cblabel "output ÷ largest output"
coord(k) = -half + 2.0 * half * k / (n - 1)
set xrange [-half:half]
set yrange [-half:half]
set xtics 2 out
set ytics 1 out
set border 15 lw 1.5
unset grid
unset key
set xlabel "x_1 (token)"
plural(r) = r == 1 ? "" : "s"
panel_title(k) = k == 0 ? sprintf("tanh(x_1 + x_3)\n%d region%s", regions_tanh, plural(regions_tanh)) : \
                 k == 1 ? sprintf("x_1 + x_3\n%d region%s", regions_sum, plural(regions_sum)) : \
                 k == 2 ? sprintf("x_1 · x_3\n%d region%s", regions_product, plural(regions_product)) : \
                          sprintf("4 tanh units, biased\n%d region%s", regions_biased, plural(regions_biased))
# contour lines of every panel, computed into datablocks once for all three
# output formats (render.gp's reset keeps datablocks and variables)
if (!exists("contours_done")) {
    set contour base
    unset surface
    set view map
    do for [k = 0:3] {
        set cntrparam levels incremental -0.8, 0.2, 0.8
        eval sprintf("set table $levels%d", k)
        splot data index k using (coord($1)):(coord($2)):3 with lines
        unset table
        set cntrparam levels discrete large
        eval sprintf("set table $large%d", k)
        splot data index k using (coord($1)):(coord($2)):3 with lines
        unset table
    }
    contours_done = 1
}
unset contour
set label 1 sprintf("thick line: output = %g × largest (the “large” level of I3);  thin lines: −0.8 to 0.8 in steps of 0.2\nfour biased units: bump(x_1 − x_3) − bump(x_1 + x_3), bump(z) = tanh(2z + 2) − tanh(2z − 2)", large) \
    at screen 0.5, screen 0.12 center tc rgb accent
do for [k = 0:3] {
    set lmargin at screen 0.075 + k * 0.21
    set rmargin at screen 0.075 + k * 0.21 + 0.2
    set tmargin at screen 0.7
    set bmargin at screen 0.7 - 0.2 * 16.0 / 9.0
    set size ratio -1
    set title panel_title(k)
    if (k == 0) {
        set ylabel "x_3 (unit's own input)"
        set format y "%g"
    } else {
        unset ylabel
        set format y ""
    }
    if (k == 3) {
        set colorbox user origin screen 0.925, screen 0.7 - 0.2 * 16.0 / 9.0 size screen 0.012, screen 0.2 * 16.0 / 9.0
    } else {
        unset colorbox
    }
    levels = sprintf("$levels%d", k); largeline = sprintf("$large%d", k)
    plot data index k using (coord($1)):(coord($2)):3 with image, \
         levels using 1:2 with lines lc rgb "#555555" lw 1, \
         largeline using 1:2 with lines lc rgb "#000000" lw 4
}
unset multiplot
