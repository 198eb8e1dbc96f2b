# Chapter 4, claims I2 and I3: three interaction functions on [-3, 3]^2,
# each divided by its largest value, on one colour scale with the same
# contour levels. The thick line is the "large output" level of I3.
# caption: Additive (tanh of the sum), plain sum and product on one colour scale: tanh(x1 + x3) has the same level lines as the sum, while the product has two separate regions of large output.
# claims: I2 I3
set multiplot title "Additive, sum or product: which one lets a unit choose?\nsame contour levels and colour scale, each divided by its largest value on [−3, 3]^2" font titlefont
@palette_diverging
set cbrange [-1:1]
set cbtics 0.5
set cblabel "output ÷ largest output"
coord(k) = -half + 2.0 * half * k / (n - 1)
set xrange [-half:half]
set yrange [-half:half]
set xtics 1 out
set ytics 1 out
set border 15 lw 1.5
unset grid
unset key
set xlabel "x_1 (token)"
panel_title(k) = k == 0 ? sprintf("additive: tanh(x_1 + x_3)\n%d large region", regions_tanh) : \
                 k == 1 ? sprintf("sum: x_1 + x_3\n%d large region", regions_sum) : \
                          sprintf("product: x_1 · x_3\n%d large regions", regions_product)
# contour lines of every panel, computed into datablocks once for all three
# output formats (render.gp's reset keeps datablocks and variables)
if (!exists("contours_done")) {
    set contour base
    unset surface
    set view map
    do for [k = 0:2] {
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
set label 1 sprintf("thick line: output = %g × largest (the “large” level of I3);  thin lines: −0.8 to 0.8 in steps of 0.2", large) \
    at screen 0.5, screen 0.035 center tc rgb accent
do for [k = 0:2] {
    set lmargin at screen 0.065 + k * 0.285
    set rmargin at screen 0.065 + k * 0.285 + 0.24
    set tmargin at screen 0.665
    set bmargin at screen 0.238
    set size ratio -1
    set title panel_title(k)
    if (k == 0) {
        set ylabel "x_3 (receiving unit's own input)"
        set format y "%g"
    } else {
        unset ylabel
        set format y ""
    }
    if (k == 2) {
        set colorbox user origin screen 0.905, screen 0.238 size screen 0.016, screen 0.427
    } else {
        unset colorbox
    }
    levels = sprintf("$levels%d", k); largeline = sprintf("$large%d", k)
    plot data index k using (coord($1)):(coord($2)):3 with image, \
         levels using 1:2 with lines lc rgb "#555555" lw 1, \
         largeline using 1:2 with lines lc rgb "#000000" lw 4
}
unset multiplot
