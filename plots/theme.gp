# The shared look of every figure: 16:9, large type, one palette.
# Colours: the Okabe-Ito set, readable by colour-blind viewers and in print.
set encoding utf8
set border 3 lw 1.5 lc rgb "#333333"
set tics nomirror out scale 0.6
set grid back lw 0.6 lc rgb "#dddddd"
set key top left noopaque samplen 2.5 spacing 1.2
set title font titlefont
set style fill solid 0.85 noborder
set linetype 1 lc rgb "#0072B2" lw 3 pt 7 ps 1.3
set linetype 2 lc rgb "#D55E00" lw 3 pt 5 ps 1.3
set linetype 3 lc rgb "#009E73" lw 3 pt 9 ps 1.5
set linetype 4 lc rgb "#CC79A7" lw 3 pt 11 ps 1.5
set linetype 5 lc rgb "#E69F00" lw 3 pt 13 ps 1.5
set linetype 6 lc rgb "#56B4E9" lw 3 pt 15 ps 1.5
set linetype 7 lc rgb "#000000" lw 2 pt 1 ps 1.3
set linetype cycle 7
# A soft annotation colour for reference lines and labels.
accent = "#666666"
# Palettes for heatmaps: `@palette_sequential` or `@palette_diverging`.
palette_sequential = "set palette defined (0 '#440154', 1 '#3b528b', 2 '#21918c', 3 '#5ec962', 4 '#fde725')"
palette_diverging = "set palette defined (-1 '#2166ac', -0.5 '#92c5de', 0 '#f7f7f7', 0.5 '#f4a582', 1 '#b2182b')"
