# Chapter 11, the ledger's caches at decode time (Q1 and C1 of chapters 5 and 6): one layer's
# three caches, each step's bytes, roofline bound and measured time against keys and values of
# d per head. Nothing here is a claim of this chapter: the bytes are computed from the shapes
# and the times measured, so the claims line below says none.
# caption: Decoding one token through one layer of the ledger's model, against keys and values of d = 1,000 per head: times fewer bytes read (from the shapes), times faster by the roofline bound (same-run bandwidth or peak multiply-add rate) and as measured (noisy). The shared raw tokens read as many times fewer bytes as their first bar says, for as many multiply-adds. The bound assumes every byte comes from memory at the bandwidth measured in the same run; a cache small enough to stay in the processor's caches is read faster than that, so its measured bar can stand above its bound.
# claims: none
set title sprintf("Decode, one layer of %d tokens, %d heads: against d per head", T, heads)
set ylabel "times fewer bytes / times faster"
set logscale y 10
set yrange [0.5:100]
set xrange [-0.6:2.6]
set bmargin 5
set xtics ("keys+values,\nd = 1000 per head" 0, "keys+values,\nr = 200 per head" 1, "raw tokens, d = 1000,\nshared by the heads" 2)
set grid noxtics ytics
set boxwidth 0.25
set key top left box lc rgb "#cccccc" opaque
plot data index 0 using ($1 - 0.27):2 with boxes lt 3 title "times fewer bytes read (from the shapes)", \
     ''   index 0 using ($1):3 with boxes lt 1 title "times faster, roofline bound (same run)", \
     ''   index 0 using ($1 + 0.27):4 with boxes lt 2 title "times faster, measured", \
     ''   index 0 using ($1 - 0.27):2:(sprintf("%.1f", $2)) with labels offset 0,0.8 notitle, \
     ''   index 0 using ($1):3:(sprintf("%.1f", $3)) with labels offset 0,0.8 notitle, \
     ''   index 0 using ($1 + 0.27):4:(sprintf("%.1f", $4)) with labels offset 0,0.8 notitle
