#!/bin/sh
# The course in one PDF, from the decks slides.sh wrote:
#   scripts/course.sh OUT_DIR
# Writes OUT_DIR/course.pdf: a cover, the agenda (each lecture, its slides
# and the page it starts on), then every deck OUT_DIR/chNN_topic.pdf in
# order; one bookmark per chapter and, under it, one per section (from
# OUT_DIR/chNN_topic.outline); the course's title in its metadata.
set -u
[ $# -eq 1 ] || { echo "usage: scripts/course.sh OUT_DIR" >&2; exit 2; }
out=$1
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"
. "$here/pdf-tools.sh"
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
course="Inventing the Transformer, in C"

# one line per deck: source, file, pages, title (a lecture in parts: a deck a part)
for src in chapters/ch[0-9][0-9]_*.c; do
    base="$out/$(basename "$src" .c)"
    for deck in "$base.pdf" "$base"-part[0-9].pdf; do
        [ -f "$deck" ] || continue
        part=$(echo "$deck" | sed -n 's/.*-part\([0-9]\)\.pdf$/ (part \1)/p')
        printf '%s\t%s\t%s\t%s\n' "$src" "$deck" "$(qpdf --show-npages "$deck")" "$(chapter_title "$src")$part"
    done
done >"$tmp/decks"
[ -s "$tmp/decks" ] || { echo "course: no decks in $out" >&2; exit 2; }
lectures=$(cut -f1 "$tmp/decks" | sort -u | grep -c .)
decks=$(grep -c . "$tmp/decks")
agenda_pages=$(( (decks + 6) / 7 ))

# the cover and the agenda: seven lectures a page, with the page each starts
# on; type at 18 pt and up (cairo sets 2/3 of the size asked for)
first=$((2 + agenda_pages)) outline=""
while IFS="$tab" read -r src deck pages title; do
    printf '%s\t%s\t%s\n' "$first" "$pages" "$title"
    first=$((first + pages))
done <"$tmp/decks" >"$tmp/agenda"
slides=$((first - 2 - agenda_pages))
{ echo 'set terminal pdfcairo enhanced color size 13.0667in,7.35in font "Sans,20"'
  echo "set output '$tmp/front.pdf'"
  echo 'unset border; unset tics; unset key; set margins 0,0,0,0'
  awk -F'\t' -v course="$course" -v lectures="$lectures" -v slides="$slides" -v date="$(date -u +%Y-%m-%d)" '
      function q(s) { gsub(/\047/, "\047\047", s); return "\047" (s ~ /^\047/ ? " " : "") s "\047" }
      function lab(s, x, y, f, c, a) { printf "set label %s at screen %.4f,%.4f %s font \"%s\" tc rgb \"%s\" noenhanced\n", q(s), x, y, a == "" ? "left" : a, f, c }
      function done() { print "plot [0:1][0:1] NaN notitle"; print "unset label" }
      BEGIN {
          lab(course, 0.05, 0.62, "Sans:Bold,60", "#0072B2")
          lab("The Transformer derived one chapter of C at a time, every claim checked", 0.05, 0.52, "Sans,33", "#222222")
          lab(lectures " lectures, " slides " slides; the figures, numbers and claims from one run of the chapters", 0.05, 0.44, "Sans,30", "#555555")
          lab("made " date " by make slides; the syllabus, handouts and answer keys: make course", 0.05, 0.1, "Sans,27", "#555555")
          done()
      }
      (NR - 1) % 7 == 0 { if (NR > 1) done(); lab("Agenda" (NR > 1 ? " (continued)" : ""), 0.05, 0.88, "Sans:Bold,42", "#0072B2") }
      { y = 0.76 - ((NR - 1) % 7) * 0.1
        lab($3, 0.05, y, length($3) > 50 ? "Sans,28" : "Sans,33", "#222222")
        lab($2 " slides, page " $1, 0.95, y, "Sans,27", "#555555", "right") }
      END { done() }' "$tmp/agenda"; } >"$tmp/front.gp"
gnuplot "$tmp/front.gp" 2>"$tmp/err" ||
    { echo "course: gnuplot failed on the cover: $(head -n 1 "$tmp/err")" >&2; exit 3; }

# bookmarks: the cover, the agenda, each chapter and its sections
{ printf '1\t1\tCover\n2\t1\tAgenda\n'
  first=$((2 + agenda_pages))
  while IFS="$tab" read -r src deck pages title; do
      printf '%s\t1\t%s\n' "$first" "$title"
      awk -F'\t' -v off=$((first - 1)) '{ print $1 + off "\t2\t" $3 }' "${deck%.pdf}.outline"
      first=$((first + pages))
  done <"$tmp/decks"; } >"$tmp/outline"
# shellcheck disable=SC2046
qpdf --empty --pages "$tmp/front.pdf" $(cut -f2 "$tmp/decks") -- "$tmp/joined.pdf" &&
    pdf_outline "$tmp/joined.pdf" "$tmp/outline" "$course: the lectures" "$out/course.pdf" ||
    { echo "course: qpdf could not assemble the course" >&2; exit 3; }
echo "  $out/course.pdf: cover, agenda, $lectures lectures in $decks decks ($slides slides), $(grep -c . "$tmp/outline") bookmarks"
