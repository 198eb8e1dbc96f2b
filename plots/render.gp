# Renders one figure: the PDF for slides with gnuplot, then the SVG for the
# web and the PNG for quick looks converted from that PDF (pdftocairo), so
# that the three have the same layout and the same type, at the same share
# of the figure's height. The plot module sets on the command line:
#   script  - the figure's own script (plots/chNN_name.gp)
#   theme   - plots/theme.gp, loaded before the script
#   data    - the data file the chapter wrote
#   outbase - output path without extension (renamed into place afterwards)
# plus any variables the chapter set for this figure.
# Type: 3.1% of the figure's height (12.6 pt of 405; pdfcairo sets text at
# 2/3 of the size asked for), 4% for titles: the share the PNG had, which the
# figures' layouts were drawn for. A deck shows the figure at its own size
# on a 13.07 x 7.35 in slide, where 18 pt on a standard slide needs 4.4%:
# the layouts (titles, legends, panels) are not yet redrawn for that.
set terminal pdfcairo enhanced color size 10in,5.625in font "Sans,19" linewidth 1.6
titlefont = "Sans,24"
set output outbase.".pdf"
load theme
load script
unset multiplot
set output
pdf = "'".outbase.".pdf'"
system("pdftocairo -svg ".pdf." '".outbase.".svg' && pdftocairo -png -singlefile -scale-to-x 1600 -scale-to-y 900 ".pdf." '".outbase."'")
if (GPVAL_SYSTEM_ERRNO != 0) {
    print "render.gp: pdftocairo could not convert ".outbase.".pdf (poppler-utils)"
    exit status 1
}
