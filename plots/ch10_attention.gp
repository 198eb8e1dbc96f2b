# Chapter 10: the attention pattern of every head of the block, one heatmap each.
rows = heads <= 4 ? 1 : (heads <= 8 ? 2 : 4)
cols = int(ceil(heads / real(rows)))
set multiplot layout rows, cols margins 0.06, 0.9, (rows == 1 ? 0.3 : 0.1), (rows == 1 ? 0.78 : 0.86) spacing 0.04, 0.12 \
    title sprintf("Attention weights of the %d causal heads of the block (blank: masked future)", heads) font titlefont
@palette_sequential
set cbrange [0:1]
set xrange [-0.5:tokens - 0.5]
set yrange [tokens - 0.5:-0.5]
set size ratio -1
set tics out scale 0.4
set border 15 lw 1
set xtics 0, (tokens > 8 ? 4 : 1) font ",15"
set ytics 0, (tokens > 8 ? 4 : 1) font ",15"
set cbtics 0.25 font ",15"
set colorbox user origin screen 0.925, screen 0.25 size screen 0.015, screen 0.5
set xlabel "key position i" font ",17" offset 0,0.5
set ylabel "query position t" font ",17" offset 1,0
set grid noxtics noytics
unset key
do for [j = 0:heads - 1] {
    set title sprintf("head %d", j + 1) offset 0,-0.5
    if (j == heads - 1) { set colorbox } else { unset colorbox }
    if (j % cols == 0) { set ylabel "query position t" } else { unset ylabel }
    plot data index j using 1:2:($1 > $2 ? NaN : $3) with image
}
unset multiplot
