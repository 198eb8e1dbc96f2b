# Chapter 14, K3: the last block's most active MLP units read as keys and values.
# One panel a unit: bars of the characters its value promotes most; the title lists
# the first three of the contexts (last characters; · a space, ¶ a new line) that fire its key most.
# caption: The MLP as a key-value memory (Geva et al., 2021): for the most active units of the last block, the validation contexts that fire each unit most (titles: their last characters) and the characters its value vector promotes through the final norm's gain and W_out (bars: the change of each character's logit, before the final norm's 1/std, per unit of the unit's activation); the characters that follow a unit's contexts rank high among them.
# claims: K3
tick(c) = c eq "%" ? "%%" : c  # a tick label is a format
cols = 3; rows = int(ceil(units / real(cols)))
L = 0.1; R = 0.98; B = 0.13; TOP = 0.8; gapx = 0.05; gapy = 0.2
pw = ((R - L) - (cols - 1) * gapx) / cols
ph = ((TOP - B) - (rows - 1) * gapy) / rows
set multiplot title sprintf("Block %d's MLP as a memory: what fires a unit, and what it then predicts", block) font titlefont
set style fill solid 0.8 noborder
set boxwidth 0.7
unset key
set grid ytics
set yrange [0:*]
set xrange [-0.6:7.6]
set tics font ",27"
set label 1 "logit change per unit of activation" at screen 0.02, screen (TOP + B) / 2 center rotate by 90
set label 2 "bars: the characters the unit's value promotes most\ntitles: the contexts that fire it most (· a space, ¶ a new line)" at screen 0.5, screen 0.045 center tc rgb accent
do for [k = 0:units - 1] {
    r = k / cols; c = k % cols
    set lmargin at screen L + c * (pw + gapx)
    set rmargin at screen L + c * (pw + gapx) + pw
    set tmargin at screen TOP - r * (ph + gapy)
    set bmargin at screen TOP - r * (ph + gapy) - ph
    chars = value(sprintf("chars%d", k))
    fires = value(sprintf("fires%d", k))
    shortlist = word(fires, 1) . "  " . word(fires, 2) . "  " . word(fires, 3)
    set title sprintf("unit %d fires after\n%s", value(sprintf("unit%d", k)), shortlist) font ",27" noenhanced
    set xtics () font ",27"
    do for [i = 0:7] { set xtics add (tick(word(chars, i + 1)) i) }
    plot data index k using 1:2 with boxes lt (k % 6) + 1
    unset label 1; unset label 2
}
unset multiplot
