#!/bin/sh
# Tests the instructor's kit on figures already rendered:
#   scripts/kit-check.sh FIG_DIR CLAIMS_TSV WORK_DIR
# - every figure script has a caption and a claims line;
# - every deck has 1 title + 1 per figure + 1 closing slide, and shows each
#   figure's caption; course.pdf has every slide of every deck;
# - the gallery is well-formed and every link resolves to a file;
# - control: with one figure missing, its deck says so (the test can fail).
set -u
fig_dir=$1 claims=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"
fail=0
bad() { echo "kit-check: $*" >&2; fail=1; }

for s in plots/ch[0-9][0-9]_*.gp; do
    grep -q '^# caption: ' "$s" || bad "$s has no '# caption:' line"
    grep -q '^# claims: *[^ ]' "$s" || bad "$s has no '# claims:' line (ids, or 'none')"
done

rm -rf "$work" && mkdir -p "$work/slides" || exit 3
sh "$here/slides.sh" "$fig_dir" "$claims" "$work/slides" >/dev/null || exit 1
total=0
for src in chapters/ch[0-9][0-9]_*.c; do
    p=$(basename "$src" .c | cut -d_ -f1)
    deck="$work/slides/$(basename "$src" .c).pdf"
    figures=$(ls plots/"$p"_*.gp 2>/dev/null | grep -c .)
    pages=$(pdfinfo "$deck" 2>/dev/null | awk '/^Pages:/ { print $2 }')
    [ "${pages:-0}" -eq $((figures + 2)) ] || bad "$deck has ${pages:-no} pages, expected $((figures + 2))"
    total=$((total + figures + 2))
    text=$(pdftotext -raw "$deck" - 2>/dev/null | tr '\n' ' ')
    for s in plots/"$p"_*.gp; do
        [ -f "$s" ] || continue
        first=$(figure_caption "$s" | fold -s -w 125 | head -n 1 | sed 's/ *$//')
        case $text in *"$first"*) ;; *) bad "$deck does not show the caption of $s" ;; esac
    done
done
pages=$(pdfinfo "$work/slides/course.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 }')
[ "${pages:-0}" -eq "$total" ] || bad "course.pdf has ${pages:-no} pages, expected $total"

# the gallery, on a copy of the figures so that FIG_DIR is left as it was
cp -r "$fig_dir" "$work/figures" && rm -rf "$work/figures/slides"
sh "$here/gallery.sh" "$work/figures" "$claims" >/dev/null || exit 1
xmllint --noout "$work/figures/index.html" || bad "index.html is not well-formed"
for link in $(grep -o '\(href\|src\)="[^"#]*"' "$work/figures/index.html" | sed 's/.*="//; s/"$//'); do
    [ -f "$work/figures/$link" ] || bad "index.html links to $link, which does not exist"
done

# control: a figure that was not rendered must be said so on its slide
victim=$(ls "$work/figures"/ch*.pdf | head -n 1)
rm -f "$victim"
sh "$here/slides.sh" "$work/figures" "$claims" "$work/control" >/dev/null 2>&1 || exit 1
name=$(basename "$victim" .pdf)
if pdftotext -raw "$work/control/$(basename chapters/"${name%%_*}"_*.c .c).pdf" - | grep -q "$name was not rendered"; then
    echo "kit-check: control ($name removed) is shown as not rendered, as it should"
else
    bad "a deck whose figure $name is missing does not say so"
fi
[ $fail -eq 0 ] && echo "kit-check: $total slides in $(ls "$work/slides" | grep -c 'ch.*pdf') decks and course.pdf; gallery well-formed, every link resolves"
exit $fail
