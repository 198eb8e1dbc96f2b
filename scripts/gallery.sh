#!/bin/sh
# The figure gallery: one offline HTML page with every figure.
#   scripts/gallery.sh FIG_DIR CLAIMS_TSV
# Writes FIG_DIR/index.html: for each chapter its title and, for each figure
# script plots/chNN_*.gp, the rendered SVG, its caption, the claims it
# supports with their verdicts and controls (from CLAIMS_TSV), and links to
# its PDF, SVG, PNG and data file; and, where make slides and make course
# have made them, each chapter's deck and notes, course.pdf and the course
# kit; and what a stored --full run left (results/chNN_sample.txt, the
# figures make slides drew from results/chNN_name.tsv; RESULTS_DIR=DIR reads
# them from DIR). No JavaScript; the layout is one column that fits a phone and fills a
# projector, the navigation wraps. Links are relative, so the folder can be
# copied anywhere.
set -u
[ $# -eq 2 ] || { echo "usage: scripts/gallery.sh FIG_DIR CLAIMS_TSV" >&2; exit 2; }
fig_dir=$1 claims=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"
[ -d "$fig_dir" ] || { echo "gallery: no figure folder '$fig_dir' (run make plots)" >&2; exit 2; }
[ -r "$claims" ] || { echo "gallery: no claims file '$claims' (run make plots)" >&2; exit 2; }

results=${RESULTS_DIR:-results}

esc() { printf '%s' "$1" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'; }

# one <li> per claim id: verdict, claim, control
claim_items() { # program ids
    tab=$(printf '\t')
    for id in $2; do
        claim_summary "$1" "$id" "$claims" | while IFS="$tab" read -r v text c what got; do
            class=pass
            case "$v $c" in *FAIL\ *|*HOLDS*|*NONE*|NOT*) class=fail ;; esac
            printf '<li class="%s"><b>%s %s</b> %s<br /><small>%s</small></li>\n' "$class" "$id" "$v" \
                "$(esc "$text")" "$(esc "$(control_words "$c" "$what" "$got")")"
        done
    done
}

figure_html() { # script
    name=$(basename "$1" .gp)
    caption=$(esc "$(figure_caption "$1")")
    echo "<figure id=\"$name\">"
    if [ -f "$fig_dir/$name.svg" ] && [ -f "$fig_dir/$name.png" ]; then
        # on a phone the figure's type is about 5 px tall: a tap opens the 1600-px PNG
        echo "<a class=\"zoom\" href=\"$name.png\" title=\"the figure at 1600 px\"><img src=\"$name.svg\" alt=\"$caption\" /></a>"
        echo "<p class=\"tap\"><a href=\"$name.png\">Tap the figure to see it at full size.</a></p>"
    elif [ -f "$fig_dir/$name.svg" ]; then
        echo "<img src=\"$name.svg\" alt=\"$caption\" />"
    else
        echo "<p class=\"fail\">$name was not rendered (gnuplot missing, or the chapter failed).</p>"
    fi
    echo "<figcaption><p>$caption</p><ul>"
    claim_items "$(basename "$1" | cut -d_ -f1)" "$(figure_claims "$1")"
    printf '</ul><p class="files">%s:' "$name"
    for f in "$name.pdf:PDF" "$name.svg:SVG" "$name.png:PNG" "data/$name.dat:data"; do
        [ -f "$fig_dir/${f%%:*}" ] && printf ' <a href="%s">%s</a>' "${f%%:*}" "${f#*:}"
    done
    echo '</p></figcaption></figure>'
}

# FILE N -> its first N lines (the stamp a --full run wrote first), as a small paragraph
stamp_html() {
    printf '<p class="files">%s</p>\n' "$(sed -n "s/^# //p; ${2}q" "$1" | while IFS= read -r l; do esc "$l"; printf '<br />'; done)"
}

# chNN -> what its stored --full run left beside its results: the generated text
# (results/chNN_sample.txt), and each figure make slides drew from stored data
stored_html() {
    if [ -f "$results/$1"_sample.txt ]; then
        echo "<figure id=\"$1-sample\"><figcaption><p>The trained model writes (stored --full run):</p></figcaption>"
        stamp_html "$results/$1"_sample.txt 3
        printf '<blockquote class="sample">%s</blockquote></figure>\n' \
            "$(sed -n 's/^| \{0,1\}//p' "$results/$1"_sample.txt | while IFS= read -r l; do esc "$l"; printf '<br />'; done)"
    fi
    for f in "$results/$1"_*.tsv; do
        n=$(basename "$f" .tsv)-full
        [ -f "$fig_dir/$n.svg" ] && [ -f "$fig_dir/$n.png" ] || continue
        echo "<figure id=\"$n\"><a class=\"zoom\" href=\"$n.png\"><img src=\"$n.svg\" alt=\"$n\" /></a>"
        printf '<figcaption><p>From the stored --full run (%s): %s</p>\n' "$(esc "$f")" "$(esc "$(figure_caption "plots/${n%-full}.gp")")"
        stamp_html "$f" 2
        echo '</figcaption></figure>'
    done
}

# FILE:TEXT... -> links to those of the files that exist (relative to FIG_DIR)
links() {
    for f in "$@"; do
        [ -f "$fig_dir/${f%%:*}" ] && printf ' <a href="%s">%s</a>\n' "${f%%:*}" "${f#*:}"
    done
}

# the lectures and the course kit, where make slides and make course made them
kit_links() {
    l=$(links "slides/course.pdf:every lecture (course.pdf)" "course/syllabus.pdf:syllabus")
    [ -d "$fig_dir/course/handouts" ] && l="$l$(for h in "$fig_dir"/course/handouts/*.pdf; do
        n=$(basename "$h" .pdf); links "course/handouts/$n.pdf:handout ${n%%_*}" "course/answer-keys/$n.pdf:key"; done)"
    [ -n "$l" ] && printf '<p class="kit">For instructors:\n%s</p>\n' "$l"
}
deck_links() { # chNN_topic
    l=$(links "slides/$1.pdf:lecture deck (PDF)" "slides/$1-part2.pdf:part 2" "slides/$1-notes.pdf:notes (the narration)")
    [ -n "$l" ] && printf '<p class="files">%s</p>\n' "$l"
}

page() {
    cat <<'HEAD'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Inventing the Transformer, in C: figures</title>
<style>
body { font-family: "DejaVu Sans", sans-serif; max-width: 72rem; margin: 0 auto; padding: 1rem; color: #222; line-height: 1.45; overflow-wrap: anywhere; }
h1 { font-size: 1.8rem; } h2 { font-size: 1.4rem; border-bottom: 2px solid #0072B2; padding-top: 1rem; }
figure { margin: 1.5rem 0; } img { width: 100%; height: auto; border: 1px solid #ddd; }
figcaption p { margin: 0.3rem 0; font-size: 1.05rem; } ul { padding-left: 1.2rem; margin: 0.3rem 0; }
li.pass b { color: #007a5a; } li.fail b, p.fail { color: #c24e00; } .files a { margin-left: 0.6rem; } .kit a { margin-right: 0.6rem; white-space: nowrap; }
nav a { margin-right: 0.8rem; white-space: nowrap; display: inline-block; }
a.zoom { display: block; } blockquote.sample { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9rem; margin: 0.5rem 0; } p.tap { display: none; margin: 0.2rem 0; font-size: 0.9rem; }
@media (max-width: 40rem) { p.tap { display: block; } }
</style></head><body>
<h1>Inventing the Transformer, in C: every figure</h1>
<p>Each figure with the claims it supports, as checked by the chapter in the same run, and the
control each claim was also checked against (a case where it must not hold).</p>
HEAD
    echo '<nav>'
    for src in chapters/ch[0-9][0-9]_*.c; do
        p=$(basename "$src" .c | cut -d_ -f1)
        printf '<a href="#%s">%s</a>\n' "$p" "$(esc "$(chapter_title "$src" | cut -d: -f1)")"
    done
    echo '</nav>'
    kit_links
    for src in chapters/ch[0-9][0-9]_*.c; do
        p=$(basename "$src" .c | cut -d_ -f1)
        echo "<section id=\"$p\"><h2>$(esc "$(chapter_title "$src")")</h2>"
        echo "<p>$(esc "$(chapter_statement "$src")")</p>"
        deck_links "$(basename "$src" .c)"
        for s in plots/"$p"_*.gp; do
            [ -f "$s" ] && figure_html "$s"
        done
        stored_html "$p"
        echo '</section>'
    done
    echo '</body></html>'
}

page >"$fig_dir/index.html.tmp" && mv "$fig_dir/index.html.tmp" "$fig_dir/index.html" ||
    { echo "gallery: cannot write $fig_dir/index.html" >&2; rm -f "$fig_dir/index.html.tmp"; exit 3; }
echo "  $fig_dir/index.html: $(grep -c '<figure' "$fig_dir/index.html") figures"
