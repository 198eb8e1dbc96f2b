#!/bin/sh
# The instructor's course kit, from the chapters and the exercises' files:
#   scripts/course-kit.sh NARRATION_DIR OUT_DIR
# Writes into OUT_DIR (not into exercises/, so `make exercises` hands none
# of it out):
# - syllabus.pdf: one page, one row per lecture: what it derives (the
#   chapter's opening statement), its reading (the papers its source cites),
#   its exercises, what to run live and how long that took (NARRATION_DIR's
#   chNN_topic.time, from make slides);
# - handouts/exNN_topic.pdf: the exercise's contract and its hints;
# - answer-keys/exNN_topic.pdf: the reference solution, each line followed by
#   why it is there (scripts/templates/answer-keys.txt, or ANSWER_NOTES; a
#   line without a note is refused), and every mistake the grader is proven
#   to catch (the mutants' texts), for instructors.
set -u
[ $# -eq 2 ] || { echo "usage: scripts/course-kit.sh NARRATION_DIR OUT_DIR" >&2; exit 2; }
narr=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"
. "$here/pdf-tools.sh"
command -v gnuplot >/dev/null 2>&1 || { echo "course-kit: gnuplot is missing (make deps installs it)" >&2; exit 2; }
NOTES=${ANSWER_NOTES:-scripts/templates/answer-keys.txt}   # why each line of a solution is there
[ -r "$NOTES" ] || { echo "course-kit: no notes '$NOTES' for the answer keys" >&2; exit 2; }
mkdir -p "$out/handouts" "$out/answer-keys" || exit 3
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT

# NAME -> the reference solution's lines (between BEGIN and END SOLUTION),
# each followed by why it is there, from NOTES (scripts/templates/answer-keys.txt:
# "== NAME", then each line of code, then its "> " lines). Fails, naming
# them, when a line of code has no note or a note no line.
explained() {
    awk -v name="$1" -v notes="$NOTES" '
        function key(s) { sub(/\/\*.*\*\/ *$/, "", s); gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
        BEGIN {
            while ((getline l < notes) > 0) {
                if (l ~ /^== /) { mine = (substr(l, 4) == name); k = ""; continue }
                if (!mine || l ~ /^#/ || l == "") continue
                if (l ~ /^> ?/) { sub(/^> ?/, "", l); why[k] = why[k] (why[k] == "" ? "" : " ") l; continue }
                k = key(l); why[k] = ""; unused[k] = 1
            }
        }
        /END SOLUTION/ { on = 0 }
        on && !/\/\* stub:/ {
            print; k = key($0)
            if (k ~ /^[{}]*$/) next
            if (!(k in why) || why[k] == "") { missing = missing "\n    " k; next }
            if (k in unused) { n = split(why[k], w, " "); line = "      | "
                for (i = 1; i <= n; i++) {
                    if (length(line) + length(w[i]) > 78 && line != "      | ") { print line; line = "      | " }
                    line = line w[i] " "
                }
                print line; delete unused[k] }
        }
        /BEGIN SOLUTION/ { on = 1 }
        END {
            for (k in unused) missing = missing "\n    a note for a line that is not there: " k
            if (missing != "") { printf "course-kit: %s, lines without a note in %s:%s\n", name, notes, missing > "/dev/stderr"; exit 1 }
        }' "exercises/solutions/$1.c"
}

# exercises/exNN_topic.c -> its contract: the comment that starts "Exercise"
contract() { awk '/^\/\* Exercise/ { on = 1 } on { print } on && /\*\// { exit }' "$1"; }

# chapters/chNN_topic.c -> the papers it cites, "Author et al. (2015)" or "(Author, 2015)"
readings() {
    tr '\n' ' ' <"$1" | sed 's/ \* / /g; s/  */ /g' |
        grep -oE "[A-Z][a-zA-Z-]+( et al\.| and [A-Z][a-zA-Z-]+)?,? \(?(19|20)[0-9][0-9]\)?" |
        sed 's/[()]//g; s/,//' | sort -u | paste -sd';' | sed 's/;/; /g'
}

# the syllabus: one row per lecture, set as lines of text on one A4 landscape page
for src in chapters/ch[0-9][0-9]_*.c; do
    base=$(basename "$src" .c) n=$(basename "$src" | sed 's/^ch0*//; s/_.*//')
    ex=$(ls exercises/ex"$(printf '%02d' "$n")"*_*.c 2>/dev/null | sed 's|exercises/||; s|\.c$||' | paste -sd' ')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$(chapter_title "$src" | sed 's/^Chapter [0-9]*: //')" \
        "$(chapter_statement "$src")" "$(readings "$src")" "${ex:-none}" "$(cat "$narr/$base.time" 2>/dev/null || echo '?')"
done >"$tmp/rows"
{ echo 'set terminal pdfcairo noenhanced color size 11.69in,8.27in font "Sans,10"'
  echo "set output '$out/syllabus.pdf'"
  echo 'unset border; unset tics; unset key; set margins 0,0,0,0'
  awk -F'\t' -v lectures="$(grep -c . "$tmp/rows")" '
      function q(s) { gsub(/\047/, "\047\047", s); return "\047" (s ~ /^\047/ ? " " : "") s "\047" }
      function lab(s, x, f) { printf "set label %s at screen %.4f,%.4f font \"%s\"\n", q(s), x, y, f }
      BEGIN { y = 0.955; lab("Inventing the Transformer, in C: syllabus (" lectures " lectures; decks: make slides)", 0.04, "Sans:Bold,16")
              y = 0.925; lab("Each lecture: the deck plots/out/slides/chNN_topic.pdf, run live with make chapterN; exercise: make exerciseN (hints: make hint N). Reading: the papers the chapter cites.", 0.04, "Sans,11")
              y = 0.895 }
      { lab($1 ". " $2, 0.04, "Sans:Bold,11")
        lab("live: make chapter" $1 " (" $6 " s)   exercise: " $5, 0.55, "Sans,10")
        s = $3; if ($4 != "") s = s "  Reading: " $4 "."
        while (length(s) > 0) { y -= 0.0175; cut = 200
            if (length(s) > cut) { t = substr(s, 1, cut); sub(/ [^ ]*$/, "", t) } else t = s
            lab(t, 0.055, "Sans,9.5"); s = substr(s, length(t) + 2) }
        y -= 0.024 }
      END { print "plot [0:1][0:1] NaN notitle" }' "$tmp/rows"; } >"$tmp/syllabus.gp"
gnuplot "$tmp/syllabus.gp" 2>"$tmp/err" ||
    { echo "course-kit: gnuplot failed on the syllabus: $(head -n 1 "$tmp/err")" >&2; exit 3; }

# a handout and an answer key per exercise
for stub in exercises/ex[0-9][0-9]*_*.c; do
    name=$(basename "$stub" .c) n=$(echo "$name" | sed 's/^ex0*//; s/_.*//; s/[a-z]$//')
    { contract "$stub"
      echo; echo "Grade it: make exercise${name#ex}" | sed 's/exercise0*/exercise/; s/_.*//'
      echo; echo "Hints, from the first (a nudge) to the last (nearly the answer):"
      grep -v '^# ' "exercises/$name.hints" | sed 's/^## \(.*\)/\nHint \1:/'; } >"$tmp/handout"
    text_pdf "Exercise handout: $name (chapter $n)" "$tmp/handout" "$out/handouts/$name.pdf" || exit 3
    explained "$name" >"$tmp/explained" || exit 1
    { echo "ANSWER KEY, for instructors: do not hand out."
      echo; echo "The reference solution: exercises/solutions/$name.c, the lines"
      echo "between BEGIN and END SOLUTION, each followed (|) by why it is there:"; echo
      cat "$tmp/explained"
      echo; echo "What each line guards against: the grader is proven to reject each of these"
      echo "mistakes (exercises/mutants/$name/), each one the solution with one line changed:"; echo
      for m in exercises/mutants/"$name"/*.c; do
          [ -f "$m" ] || continue
          sed -n '1s|^/\* Mutant: *||; 1s| *\*/$||p' "$m" | sed 's/ Expect: /\n    the grader: /' |
              sed "1s|^|- $(basename "$m" .c): |"
      done; } >"$tmp/key"
    text_pdf "Answer key: $name (chapter $n)" "$tmp/key" "$out/answer-keys/$name.pdf" || exit 3
done
echo "  $out/syllabus.pdf; $(ls "$out/handouts" | grep -c pdf) handouts in $out/handouts; answer keys in $out/answer-keys"
