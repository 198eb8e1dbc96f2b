# Renders one figure three times: PDF for slides, SVG for the web, PNG for
# quick looks. The plot module sets on the command line:
#   script  - the figure's own script (plots/chNN_name.gp)
#   theme   - plots/theme.gp, loaded before the script
#   data    - the data file the chapter wrote
#   outbase - output path without extension (renamed into place afterwards)
# plus any variables the chapter set for this figure.
do for [fmt in "pdf svg png"] {
    reset
    if (fmt eq "pdf") {
        set terminal pdfcairo enhanced color size 10in,5.625in font "Sans,13" linewidth 1.2
        titlefont = "Sans,17"
    }
    if (fmt eq "svg") {
        set terminal svg enhanced size 1280,720 font "Sans,17" linewidth 1.3 background rgb "white"
        titlefont = "Sans,22"
    }
    if (fmt eq "png") {
        set terminal pngcairo enhanced size 1600,900 font "Sans,21" linewidth 1.6
        titlefont = "Sans,27"
    }
    set output outbase.".".fmt
    load theme
    load script
    unset multiplot
    set output
}
