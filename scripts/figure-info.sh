# Shared by slides.sh, gallery.sh and kit-check.sh (sourced): what a chapter
# and a figure say about themselves. A figure's caption and the claims it
# supports live at the top of the script that draws it (plots/chNN_name.gp):
#   # caption: One or two sentences: what the figure shows.
#   # claims: R1 R3          (or "# claims: none" for a figure that supports none)

# chapters/chNN_topic.c -> "Chapter N: ...", the first sentence of its comment
# (which may go on to a second line)
chapter_title() {
    awk 'NR == 1 { sub(/^\/\* */, "") } NR > 1 { if ($0 ~ /^ \*\/? *$/) exit; sub(/^ \* ?/, "") }
         { t = t (NR > 1 ? " " : "") $0 } /\.$/ || NR == 3 { exit } END { sub(/\.$/, "", t); print t }' "$1"
}

# chapters/chNN_topic.c -> the whole sentences of the first paragraph of
# its opening comment that fit in about three lines of a slide (210 chars)
chapter_statement() {
    awk 'NR == 1 { next } /^ \*\/|^ \*$/ { if (n) exit; next } { sub(/^ \* ?/, ""); printf "%s%s", n++ ? " " : "", $0 } END { print "" }' "$1" |
        awk '{ out = ""; rest = $0
               while (match(rest, /^Chapter [0-9]+ [^.]*[.] /) && length(rest) > 120)
                   rest = substr(rest, RLENGTH + 1)  # a recap of the last chapter
               while (match(rest, /[.!?] /)) {
                   s = substr(rest, 1, RSTART); rest = substr(rest, RSTART + 2)
                   if (out != "" && length(out) + length(s) > 210) break
                   out = out (out == "" ? "" : " ") s
               }
               if (out == "") out = rest
               print out }'
}

# plots/chNN_name.gp -> its caption (the `# caption:` line), or a placeholder
figure_caption() {
    c=$(sed -n 's/^# caption: *//p' "$1" | head -n 1)
    echo "${c:-(this figure has no caption line yet)}"
}

# plots/chNN_name.gp -> the claim ids of its `# claims:` line ("none": no ids)
figure_claims() {
    sed -n 's/^# claims: *//p' "$1" | head -n 1 | sed 's/^none *$//'
}

# PROGRAM ID CLAIMS_TSV -> one tab-separated line: the id's verdict (FAIL if
# any of its checks in PROGRAM failed), the claim its first control follows,
# and that control's verdict (FAILS, HOLDS, or NONE), change and measurement.
# Rows of the claims file are in the order the chapter checked them, and a
# control comes right after the claim it controls.
claim_summary() {
    awk -F'\t' -v p="$1" -v id="$2" '
        $3 != p || $1 != id { next }
        $6 != "control" { last = $4; if (first == "") first = $4; if ($2 == "FAIL") v = "FAIL"; else if (v == "") v = "PASS"; next }
        c == "" || ($2 == "HOLDS" && c != "HOLDS") { c = $2; what = $4; got = $5; text = last }
        END {
            if (v == "") { printf "NOT RUN\t\tNONE\t\t\n"; exit }
            printf "%s\t%s\t%s\t%s\t%s\n", v, text != "" ? text : first, c == "" ? "NONE" : c, what, got
        }' "$3"
}

# TEXT N -> TEXT cut at a word boundary to at most N bytes, with "..." when
# cut, and never in the middle of a UTF-8 character
shorten() {
    printf '%s\n' "$1" | awk -v n="$2" '{
        if (length($0) <= n) { print; exit }
        s = substr($0, 1, n - 4); sub(/ [^ ]*$/, "", s); print s " ..." }' | iconv -f UTF-8 -t UTF-8 -c
}

# control verdict -> words for a reader
control_words() { # verdict what measurement
    case $1 in
    FAILS) echo "control ($2): $3 - fails, as it should" ;;
    HOLDS) echo "control ($2): $3 - HOLDS: the check cannot tell (a defect)" ;;
    *) echo "no control" ;;
    esac
}

# results/NAME.tsv, a figure's data kept beside a --full run's results (plot_keep) ->
# its variables as gnuplot assignments ("name=value; ", numbers as numbers, text quoted):
# its "# name: value" lines after the two of its stamp
kept_variables() {
    sed -n '3,/^[^#]/s/^# \([a-z][a-z0-9_]*\): \(.*\)$/\1\t\2/p' "$1" | awk -F'\t' '
        { v = $2; if (v !~ /^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$/) { gsub(/\047/, "\047\047", v); v = "\047" v "\047" }
          printf "%s=%s; ", $1, v }'
}
