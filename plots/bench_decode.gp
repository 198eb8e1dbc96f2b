# make bench: decoding one token against a cache of T tokens, the rate at
# which it reads the cache beside the memory read bandwidth of the same rounds.
set title sprintf("Decoding a token (%d heads of %d, float32): the cache read at memory speed", heads, dh)
set xlabel "tokens in the cache T"
set ylabel "bytes read per second (GB/s)"
set logscale x 2
set offsets graph 0.04, graph 0.04, 0, 0
set format x "2^{%L}"
set yrange [0:*]
set key center right box lc rgb "#cccccc" opaque
plot data index 0 using 1:3 with linespoints lt 7 dt 2 title "memory read bandwidth (same rounds)", \
     ''   index 0 using 1:2 with linespoints lt 1 title "decode step: cache bytes / time"
