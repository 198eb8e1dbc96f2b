# Shared by slides.sh and gallery.sh (sourced): what a chapter and a figure
# say about themselves. A figure's caption and the claims it supports live
# at the top of the script that draws it (plots/chNN_name.gp):
#   # caption: One or two sentences: what the figure shows.
#   # claims: R1 R3

# chapters/chNN_topic.c -> "Chapter N: ...", the first line of its comment
chapter_title() {
    sed -n '1s|^/\* *||; 1s|\.$||; 1p' "$1"
}

# chapters/chNN_topic.c -> the whole sentences of the first paragraph of
# its opening comment that fit in about three lines of a slide (210 chars)
chapter_statement() {
    awk 'NR == 1 { next } /^ \*\/|^ \*$/ { if (n) exit; next } { sub(/^ \* ?/, ""); printf "%s%s", n++ ? " " : "", $0 } END { print "" }' "$1" |
        awk '{ out = ""; rest = $0
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

# plots/chNN_name.gp -> the claim ids of its `# claims:` line
figure_claims() {
    sed -n 's/^# claims: *//p' "$1" | head -n 1
}
