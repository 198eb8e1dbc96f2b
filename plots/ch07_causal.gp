# Chapter 7, claims S3 and S4: the causal attention matrix. The masked cells
# are left grey; up to 8 tokens every visible cell shows its weight, beyond
# that the cells are too small for text on a slide, and the ticks are thinned
# to about 16 per axis.
# caption: Causal attention weights: row t spreads a total weight of one over columns 0..t only; the masked upper triangle (grey) is computed and thrown away by the matrix form as written.
# claims: S3 S4
set title sprintf("Causal attention weights for %d tokens: row t reads only columns 0..t", T)
set xlabel "key position i (read from)"
set ylabel "query position t (reading)"
# a square plot in the middle of the 16:9 slide, the colour bar to its right
set lmargin at screen 0.285
set rmargin at screen 0.705
set bmargin at screen 0.13
set tmargin at screen 0.88
set colorbox user origin screen 0.725, screen 0.13 size screen 0.02, screen 0.75
set xrange [-0.5:T - 0.5]
set yrange [T - 0.5:-0.5]
step = T <= 16 ? 1 : T <= 32 ? 2 : T <= 80 ? 5 : T <= 160 ? 10 : T <= 320 ? 20 : 50
set xtics 0, step, T - 1 out
set ytics 0, step, T - 1 out
set grid noxtics noytics
set cbrange [0:1]
set cblabel "weight"
@palette_sequential
unset key
set object 1 rectangle from -0.5, -0.5 to T - 0.5, T - 0.5 behind fc rgb "#d9d9d9" fs solid 1.0 noborder
# cell text at the figure's own size (18 pt); it fits the cells up to 8 tokens
cellfont = "Sans Bold,27"
# viridis is dark below about 0.45 and light above: white text, then black
dark(v) = v < 0.45
# `pixels`: one rectangle per cell, so SVG viewers cannot blur the cells
# together (at most 64 x 64 of them; beyond that the smoothing is invisible)
pix = T <= 64 ? "pixels" : ""
set label 2 "grey: masked, i > t" at screen 0.725, screen 0.06 left tc rgb "#555555"
if (T <= 8) {
    plot data index 0 using 1:2:($1 > $2 ? NaN : $3) with image @pix, \
         ''   index 0 using 1:2:($1 > $2 || dark($3) ? "" : sprintf("%.2f", $3)) \
              with labels font cellfont tc rgb "#000000", \
         ''   index 0 using 1:2:($1 > $2 || !dark($3) ? "" : sprintf("%.2f", $3)) \
              with labels font cellfont tc rgb "#ffffff"
} else {
    plot data index 0 using 1:2:($1 > $2 ? NaN : $3) with image @pix
}
