# Chapter 11, claims Q1 and C1 at decode time: the ledger's three caches of
# one layer, each step's speed-up over keys and values of d per head beside
# what its bytes and its roofline bound promise.
# caption: Decoding one token through one layer of the ledger's model (20 heads): how many times faster than keys and values of d = 1,000 per head, as the bytes read promise (a claim, counted), as the roofline bound says (same-run bandwidth or peak multiply-add rate), and as measured on this machine (noisy). In our runs r = 200 stayed memory-bound and got about what its bytes promise; the shared raw tokens read 40 times less but do the same arithmetic (claimed, counted) and fell far short.
# claims: Q1 C1
set title sprintf("Decode, one layer of %d tokens, %d heads: speed-up over d per head", T, heads)
set ylabel "times faster than d = 1,000 per head"
set logscale y 10
set yrange [0.5:100]
set xrange [-0.6:2.6]
set bmargin 5
set xtics ("keys+values,\nd = 1000 per head" 0, "keys+values,\nr = 200 per head" 1, "raw tokens, d = 1000,\nshared by the heads" 2)
set grid noxtics ytics
set boxwidth 0.25
set key top left box lc rgb "#cccccc" opaque
plot data index 0 using ($1 - 0.27):2 with boxes lt 3 title "bytes read (claimed)", \
     ''   index 0 using ($1):3 with boxes lt 1 title "roofline bound (same run)", \
     ''   index 0 using ($1 + 0.27):4 with boxes lt 2 title "measured time", \
     ''   index 0 using ($1 - 0.27):2:(sprintf("%.1f", $2)) with labels offset 0,0.8 notitle, \
     ''   index 0 using ($1):3:(sprintf("%.1f", $3)) with labels offset 0,0.8 notitle, \
     ''   index 0 using ($1 + 0.27):4:(sprintf("%.1f", $4)) with labels offset 0,0.8 notitle
