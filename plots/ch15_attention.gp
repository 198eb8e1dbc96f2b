# Chapter 15, K2: the attention of every head of the trained model on one line (`what`),
# a block of data a head, a row a query (gnuplot's matrix layout); ch15_induction.gp
# draws K4's heads with this script. Rows of panels are the blocks, columns the heads;
# the ticks are the line's characters (· a space, ¶ a new line), thinned so that a panel
# never carries more than fit.
# caption: Attention weights of every head of the model trained on the text, on one line of held-out text (rows: queries, columns: keys; grey: the masked future): a previous-token head puts its weight on the diagonal just below the main one.
# claims: K2
L = 0.08; R = 0.87; B = 0.12; TOP = 0.85
gapx = 0.06; gapy = 0.11
ph = ((TOP - B) - (layers - 1) * gapy) / layers
pw = ph * 9.0 / 16.0
wide = ((R - L) - (heads - 1) * gapx) / heads
pw = wide < 1.3 * pw ? wide : 1.3 * pw
x0 = L + ((R - L) - (heads * pw + (heads - 1) * gapx)) / 2
cbx = x0 + heads * pw + (heads - 1) * gapx + 0.02
step = 1
while ((tokens / step) * 0.04 > pw) { step = step + 1 }
tickfont = ",27"
set multiplot title sprintf("What each trained head attends to, on %s (%d characters)", what, int(tokens)) font titlefont
@palette_sequential
set cbrange [0:1]
set xrange [-0.5:tokens - 0.5]
set yrange [tokens - 0.5:-0.5]
set tics out scale 0.3
set border 15 lw 1
set xtics () font tickfont
set ytics () font tickfont
# a tick label is a format: "%" is written "%%"
tick(c) = c eq "%" ? "%%" : c
do for [i = 0:tokens - 1:step] {
    set xtics add (tick(substr(line, i + 1, i + 1)) i)
    set ytics add (tick(substr(line, i + 1, i + 1)) i)
}
set cbtics 0.25 font ",27"
set cblabel "weight" font ",27"
cbox = sprintf("set colorbox user origin screen %g, screen %g size screen 0.015, screen %g", cbx, B, TOP - B)
set grid noxtics noytics
set object 1 rectangle from -0.5, -0.5 to tokens - 0.5, tokens - 0.5 behind fc rgb "#d9d9d9" fs solid 1.0 noborder
set label 1 "key (earlier character; · a space, ¶ a new line)" at screen x0 + (heads * pw + (heads - 1) * gapx) / 2, screen B - 0.075 center font ",27"
set label 2 "query" at screen x0 - 0.045, screen (TOP + B) / 2 center rotate by 90 font ",27"
unset key
do for [k = 0:layers * heads - 1] {
    l = int(k / heads); j = k % int(heads)
    set lmargin at screen x0 + j * (pw + gapx)
    set rmargin at screen x0 + j * (pw + gapx) + pw
    set tmargin at screen TOP - l * (ph + gapy)
    set bmargin at screen TOP - l * (ph + gapy) - ph
    set title sprintf("block %d, head %d", l + 1, j + 1) offset 0,-0.6 font ",27"
    if (k == layers * heads - 1) { @cbox } else { unset colorbox }
    plot data index k matrix using 1:2:($1 > $2 ? NaN : $3) with image pixels
    unset label 1; unset label 2
}
unset multiplot
