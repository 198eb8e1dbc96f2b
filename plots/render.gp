# Renders one figure: the PDF for slides with gnuplot, then the SVG for the
# web and the PNG for quick looks converted from that PDF (pdftocairo), so
# that the three have the same layout and the same type, at the same share
# of the figure's height. The plot module sets on the command line:
#   script  - the figure's own script (plots/chNN_name.gp)
#   theme   - plots/theme.gp, loaded before the script
#   data    - the data file the chapter wrote
#   outbase - output path without extension (renamed into place afterwards)
# plus any variables the chapter set for this figure.
# Size and type: a figure is drawn for a slide it fills, 13.07 x 7.35 in
# (16:9), its text at 18 pt (3.4% of the height, the share of 18 pt on a
# standard 7.5 in slide), titles at 22 pt; pdfcairo sets text at 2/3 of the
# size asked for, hence 27 and 33.
set terminal pdfcairo enhanced color size 13.0667in,7.35in font "Sans,27" linewidth 2
titlefont = "Sans,33"
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
