# Chapter 7, claims S3 and S4: the causal attention matrix.
set title sprintf("Causal attention weights for %d tokens: row t reads only columns 0..t", T)
set xlabel "key position i (read from)"
set ylabel "query position t (reading)"
set size ratio -1
set xrange [-0.5:T - 0.5]
set yrange [T - 0.5:-0.5]
set xtics 0,1,T-1 out
set ytics 0,1,T-1 out
set grid noxtics noytics
set cbrange [0:1]
set cblabel "weight"
@palette_sequential
unset key
set style fill solid 1.0 noborder
plot data index 0 using 1:2:(0.5):(0.5) with boxxyerror lc rgb "#d9d9d9" notitle, \
     ''   index 0 using 1:2:($1 > $2 ? NaN : $3) with image, \
     ''   index 0 using 1:2:($1 > $2 ? "masked" : $3 < 0.5 ? "" : sprintf("%.2f", $3)) with labels font ",13" tc rgb "#222222", \
     ''   index 0 using 1:2:($1 > $2 || $3 >= 0.5 ? "" : sprintf("%.2f", $3)) with labels font ",13" tc rgb "white"
