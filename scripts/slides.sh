#!/bin/sh
# Lecture decks from the same source as the chapters.
#   scripts/slides.sh FIG_DIR CLAIMS_TSV OUT_DIR
# For every chapter (chapters/chNN_topic.c) writes OUT_DIR/chNN_topic.pdf, a
# 16:9 deck: a title slide (the chapter's own opening statement), one slide
# per figure script plots/chNN_*.gp (the rendered FIG_DIR/chNN_*.pdf as
# vector graphics, the caption and claims from the script's `# caption:` and
# `# claims:` lines, each claim's verdict and its control's measurement from
# CLAIMS_TSV), and a closing slide with the chapter's claims table. Then
# OUT_DIR/course.pdf, every deck in order. A figure that was not rendered
# gets a slide that says so. Text pages: gnuplot (pdfcairo, the figures'
# fonts); figures placed on them: qpdf --overlay; nothing else is needed.
set -u
fig_dir=$1 claims=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"

for tool in gnuplot qpdf; do
    command -v $tool >/dev/null 2>&1 ||
        { echo "slides: $tool is missing (make deps installs it)" >&2; exit 2; }
done
[ -r "$claims" ] || { echo "slides: no claims file '$claims' (run make plots first)" >&2; exit 2; }
mkdir -p "$out" || exit 3
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT

# The page is 16:9 and larger than a figure (10 x 5.625 in), which qpdf
# centres on it: 1.19 in above and below it stay free for the text.
tab=$(printf '\t')
PAGE='set terminal pdfcairo enhanced color size 14.222in,8in font "Sans,18" linewidth 1.2'

# gnuplot single-quoted string: ' doubles.
gq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

# label N TEXT X Y FONT [COLOUR]: one line of text at screen coordinates.
label() {
    printf 'set label %d %s at screen %s,%s font "%s" tc rgb "%s" noenhanced\n' \
        "$1" "$(gq "$2")" "$3" "$4" "$5" "${6:-#222222}"
}

# Lines of $1 wrapped at $2 columns, at most $3 of them ("..." if cut).
wrap() {
    printf '%s\n' "$1" | fold -s -w "$2" | awk -v max="$3" \
        'NR <= max { line[NR] = $0 } END { if (NR > max) line[max] = line[max] " ..."; for (i = 1; i <= (NR < max ? NR : max); i++) print line[i] }'
}

calc() { awk "BEGIN { print $1 }"; }

page_end() { printf 'plot [0:1][0:1] NaN notitle\nunset label\n'; }

page_start() {
    printf 'reset\nunset border\nunset tics\nunset key\nset margins 0,0,0,0\n'
}

# title slide: chapter title and the first sentences of its opening comment
title_slide() { # source
    page_start
    label 99 "Inventing the Transformer, in C" 0.07 0.08 "Sans,14" "#888888"
    label 1 "$(chapter_title "$1")" 0.07 0.62 "Sans,40"
    n=2 y=0.50
    wrap "$(chapter_statement "$1")" 70 3 | while IFS= read -r line; do
        label "$n" "$line" 0.07 "$y" "Sans,24" "#444444"
        n=$((n + 1)) y=$(calc "$y - 0.065")
    done
    page_end
}

# two lines per claim id of a figure: verdict and claim; its control
claim_lines() { # program ids
    for id in $2; do
        claim_summary "$1" "$id" "$claims" | while IFS="$tab" read -r v text c what got; do
            printf '%s %s: %s\n' "$id" "$v" "$(shorten "$text" 110)"
            printf '%s\n' "$(shorten "$(control_words "$c" "$what" "$got")" 130)"
        done
    done
}

# the colour of a verdict or a control's words
colour_of() {
    case $1 in *FAIL:*|*HOLDS*|*"no control"*|*"NOT RUN"*) echo "#D55E00" ;; *) echo "#007A5A" ;; esac
}

figure_slide() { # script index count chapter_title
    name=$(basename "$1" .gp)
    page_start
    label 1 "$4 · figure $2 of $3" 0.035 0.955 "Sans,16" "#666666"
    [ -f "$fig_dir/$name.pdf" ] ||
        label 2 "figure $name was not rendered (gnuplot missing, or the chapter failed)" 0.2 0.5 "Sans,24" "#D55E00"
    n=3 y=0.11
    wrap "$(figure_caption "$1")" 125 3 | while IFS= read -r line; do
        label "$n" "$line" 0.035 "$y" "Sans,17"
        n=$((n + 1)) y=$(calc "$y - 0.035")
    done
    program=$(basename "$1" | cut -d_ -f1)
    claim_lines "$program" "$(figure_claims "$1")" | head -n 4 | awk '{ print NR ": " $0 }' |
        while IFS= read -r line; do
            k=${line%%:*} text=${line#*: }
            if [ $((k % 2)) -eq 1 ]; then
                label $((10 + k)) "$text" 0.035 "$(calc "0.925 - 0.0185 * ($k - 1)")" "Sans,13" "$(colour_of "$text")"
            else
                label $((10 + k)) "$text" 0.05 "$(calc "0.925 - 0.0185 * ($k - 1)")" "Sans,11" "#666666"
            fi
        done
    page_end
}

# closing slide: every claim of the chapter (up to 10), its verdict and its
# control, one row of two lines each
claims_slide() { # program chapter_title
    page_start
    label 1 "$2: the claims, checked" 0.05 0.92 "Sans,30"
    awk -F'\t' -v p="$1" '$3 == p && $6 != "control" && !($1 in seen) { seen[$1] = 1; print $1 }' \
        "$claims" | head -n 10 | awk '{ print NR ": " $0 }' | while IFS= read -r row; do
        k=${row%%:*} id=${row#*: }
        claim_summary "$1" "$id" "$claims" | while IFS="$tab" read -r v text c what got; do
            y=$(calc "0.86 - 0.078 * $k")
            label $((10 + 3 * k)) "$id $v" 0.05 "$y" "Sans,19" "$(colour_of "$v:")"
            label $((11 + 3 * k)) "$(shorten "$text" 95)" 0.15 "$y" "Sans,18"
            words=$(control_words "$c" "$what" "$got")
            label $((12 + 3 * k)) "$(shorten "$words" 140)" 0.15 "$(calc "$y - 0.03")" "Sans,13" \
                "$(case $c in FAILS) echo "#666666" ;; *) echo "#D55E00" ;; esac)"
        done
    done
    page_end
}

build_deck() { # source
    program=$(basename "$1" .c | cut -d_ -f1)
    title=$(chapter_title "$1")
    scripts=$(ls plots/"$program"_*.gp 2>/dev/null)
    count=$(echo "$scripts" | grep -c .)
    { echo "$PAGE"; echo "set output '$tmp/$program-text.pdf'"
      title_slide "$1"
      i=0
      for s in $scripts; do i=$((i + 1)); figure_slide "$s" $i "$count" "$title"; done
      claims_slide "$program" "$title"; } >"$tmp/$program.gp"
    gnuplot "$tmp/$program.gp" 2>"$tmp/gnuplot.err" ||
        { echo "slides: gnuplot failed on $program: $(head -n 1 "$tmp/gnuplot.err")" >&2; return 3; }
    deck="$out/$(basename "$1" .c).pdf"
    cp "$tmp/$program-text.pdf" "$tmp/deck.pdf"
    i=1
    for s in $scripts; do
        i=$((i + 1))
        pdf="$fig_dir/$(basename "$s" .gp).pdf"
        [ -f "$pdf" ] || continue
        qpdf "$tmp/deck.pdf" --overlay "$pdf" --to=$i --from=1 -- "$tmp/next.pdf" &&
            mv "$tmp/next.pdf" "$tmp/deck.pdf" ||
            { echo "slides: qpdf could not place $pdf on $deck" >&2; return 3; }
    done
    mv "$tmp/deck.pdf" "$deck" || return 3
    echo "  $deck: $((count + 2)) slides"
}

decks=""
for src in chapters/ch[0-9][0-9]_*.c; do
    build_deck "$src" || exit 3
    decks="$decks $out/$(basename "$src" .c).pdf"
done
# shellcheck disable=SC2086
qpdf --empty --pages $decks -- "$tmp/course.pdf" && mv "$tmp/course.pdf" "$out/course.pdf" ||
    { echo "slides: qpdf could not assemble the course" >&2; exit 3; }
echo "  $out/course.pdf: every deck in order"
