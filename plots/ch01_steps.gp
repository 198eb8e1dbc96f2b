# Chapter 1, claim R2: sequential steps against sequence length.
# caption: A recurrent stack of L layers must run N + L − 1 steps one after another; a stack without recurrence needs only L, whatever the length.
# claims: R2
set title "Steps that must run one after another"
set xlabel "sequence length N (tokens)"
set ylabel "sequential steps"
set key top left
set autoscale xfix
plot data index 0 using 1:2 with lines lt 2 title sprintf("recurrent, L = %d layers", layers), \
     ''   index 1 using 1:2 with lines lt 2 dt 2 title sprintf("recurrent, L = %d layers", layers_deep), \
     ''   index 0 using 1:3 with lines lt 1 title sprintf("no recurrence, L = %d", layers), \
     ''   index 1 using 1:3 with lines lt 1 dt 2 title sprintf("no recurrence, L = %d", layers_deep)
