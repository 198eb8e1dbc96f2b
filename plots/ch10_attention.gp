# Chapter 10: the attention pattern of every head of the block, one heatmap each.
# The grid (rows x cols) is the one that gives the largest squares on the 16:9 page;
# ticks are thinned so that a panel never carries more labels than fit.
# caption: The attention pattern of every head of the assembled block on one input: causal, each row summing to one.
# claims: T1
L = 0.075; R = 0.865; B = 0.10; TOP = 0.86  # the area of the panels (screen fractions)
gapx = 0.06; gapy = 0.16                    # room for y tick labels / for x ticks and titles
best = 0; rows = 1
do for [r = 1:heads] {
    c = int(ceil(heads / real(r)))
    sw = ((R - L) - (c - 1) * gapx) / c * 16
    sh = ((TOP - B) - (r - 1) * gapy) / r * 9
    side = sw < sh ? sw : sh
    if (side > best) { best = side; rows = r }
}
cols = int(ceil(heads / real(rows)))
# `pixels`: one rectangle per cell, so SVG viewers cannot blur small maps
pix = tokens * tokens * heads <= 8192 ? "pixels" : ""
# one panel: square on the 16:9 page, then widened by up to 1.4 where the page has room
ph = best / 9.0; pw = best / 16.0
wide = ((R - L) - (cols - 1) * gapx) / cols
pw = wide < 1.4 * pw ? wide : 1.4 * pw
x0 = L + ((R - L) - (cols * pw + (cols - 1) * gapx)) / 2 + 0.01
cbx = x0 + cols * pw + (cols - 1) * gapx + 0.025  # the colour bar, just right of the grid
y0 = TOP - ((TOP - B) - (rows * ph + (rows - 1) * gapy)) / 2
# at most one tick label per 0.045 of page width, and at most 8 per axis
step = 1
while (tokens / step > 8 || (tokens / step) * 0.045 > pw) { step = step * 2 }
tickfont = ",27"
headfont = ",27"
set multiplot title sprintf("Attention weights of %d causal head%s, T = %d (grey: masked future, as in chapter 7)", \
    heads, heads == 1 ? "" : "s", tokens) font titlefont
@palette_sequential
set cbrange [0:1]
set xrange [-0.5:tokens - 0.5]
set yrange [tokens - 0.5:-0.5]
set tics out scale 0.4
set border 15 lw 1
set xtics 0, step, tokens - 1 font tickfont
set ytics 0, step, tokens - 1 font tickfont
set cbtics 0.25 font ",27"
set cblabel "weight" font ",27"
cbox = sprintf("set colorbox user origin screen %g, screen %g size screen 0.015, screen %g", cbx, B, TOP - B)
set grid noxtics noytics
# the masked cells are left undrawn over a grey ground, as chapter 7 shows them
set object 1 rectangle from -0.5, -0.5 to tokens - 0.5, tokens - 0.5 behind fc rgb "#d9d9d9" fs solid 1.0 noborder
# one pair of axis labels for the whole grid, centred on it
gridw = cols * pw + (cols - 1) * gapx; gridh = rows * ph + (rows - 1) * gapy
set label 1 "key position i" at screen x0 + gridw / 2, screen y0 - gridh - 0.075 center font ",27"
set label 2 "query position t" at screen x0 - 0.05, screen y0 - gridh / 2 center rotate by 90 font ",27"
unset key
do for [j = 0:heads - 1] {
    r = j / cols; c = j % cols
    set lmargin at screen x0 + c * (pw + gapx)
    set rmargin at screen x0 + c * (pw + gapx) + pw
    set tmargin at screen y0 - r * (ph + gapy)
    set bmargin at screen y0 - r * (ph + gapy) - ph
    set title sprintf("head %d", j + 1) offset 0,-0.6 font headfont
    if (j == heads - 1) { @cbox } else { unset colorbox }
    plot data index j using 1:2:($1 > $2 ? NaN : $3) with image @pix
    unset label 1; unset label 2  # drawn once, with the first panel
}
unset multiplot
