#!/bin/sh
# Lecture decks from the same run as the figures and the claims.
#   scripts/slides.sh FIG_DIR CLAIMS_TSV NARRATION_DIR OUT_DIR
# NARRATION_DIR holds what each chapter printed in that run (chNN_topic.txt,
# and chNN_topic.time: its run time in seconds). For every chapter with a
# narration, writes OUT_DIR/chNN_topic.pdf, a 16:9 deck laid out by
# deck.awk (title, agenda, each section's points, equation, tables and
# checks, each figure after the section that checks it, the trained model's
# stored results for chapters 13-15 (results/chNN_full.tsv, its generated text
# chNN_sample.txt and each figure's data chNN_name.tsv, drawn here into
# FIG_DIR/chNN_name-full.*; RESULTS_DIR=DIR reads them from DIR instead),
# the claims sorted by id), and
# OUT_DIR/chNN_topic-notes.pdf, the narration as a handout. Then
# OUT_DIR/course.pdf: a cover, the agenda of the lectures, every deck, with
# bookmarks per chapter and section and title metadata. Text pages: gnuplot
# (pdfcairo, the figures' fonts); figures and bookmarks: qpdf.
set -u
[ $# -eq 4 ] || { echo "usage: scripts/slides.sh FIG_DIR CLAIMS_TSV NARRATION_DIR OUT_DIR" >&2; exit 2; }
fig_dir=$1 claims=$2 narr=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/figure-info.sh"
. "$here/pdf-tools.sh"

for tool in gnuplot qpdf; do
    command -v $tool >/dev/null 2>&1 ||
        { echo "slides: $tool is missing (make deps installs it)" >&2; exit 2; }
done
[ -r "$claims" ] || { echo "slides: no claims file '$claims' (run make slides)" >&2; exit 2; }
ls "$narr"/ch[0-9][0-9]_*.txt >/dev/null 2>&1 ||
    { echo "slides: no narration in '$narr' (make slides writes it)" >&2; exit 2; }
mkdir -p "$out" || exit 3
tmp=$(mktemp -d) || exit 3
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
tab=$(printf '\t')
lectures=$(ls chapters/ch[0-9][0-9]_*.c | grep -c .)
MAX_SLIDES=${MAX_SLIDES:-30}   # slides in a deck, at most (a longer lecture comes in two parts)

# chNN -> the figures of its deck: name, first claim id, rendered, ids, caption
figure_table() {
    for s in plots/"$1"_*.gp; do
        [ -f "$s" ] || continue
        name=$(basename "$s" .gp) ids=$(figure_claims "$s")
        printf '%s\t%s\t%s\t%s\t%s\n' "$name" "${ids%% *}" "$([ -f "$fig_dir/$name.pdf" ] && echo 1 || echo 0)" \
            "$ids" "$(figure_caption "$s")"
    done
}

# chNN -> one line per claim id, sorted by id: id, verdict, claim, control
claim_table() {
    awk -F'\t' -v p="$1" '$3 == p && $6 != "control" && !($1 in seen) { seen[$1] = 1; print $1 }' "$claims" |
        sort -V | while IFS= read -r id; do
            printf '%s\t%s\n' "$id" "$(claim_summary "$1" "$id" "$claims")"
        done
}

# chNN -> the stored --full results of a trained chapter, and the command that makes them
# (RESULTS_DIR: where they are stored, results/ unless kit-check says otherwise)
results=${RESULTS_DIR:-results}
results_file() { ls "$results/$1"_full.tsv 2>/dev/null | head -n 1; }
results_command() { echo "make chapter$(echo "$1" | sed 's/^ch0*//') ARGS=\"--full --results results/$1_full.tsv\""; }

# STORED NAME -> FIG_DIR/NAME-full.pdf, drawn by plots/NAME.gp from STORED, the data a
# --full run left beside its results (results/NAME.tsv), with the variables it keeps
stored_figure() {
    gnuplot -e "$(kept_variables "$1")data='$1'; outbase='$fig_dir/$2-full'; theme='plots/theme.gp'; script='plots/$2.gp'" \
        plots/render.gp 2>"$tmp/stored.err" ||
        { echo "slides: gnuplot could not draw $1 with plots/$2.gp: $(head -n 1 "$tmp/stored.err")" >&2; return 3; }
}

# chNN -> what its --full run stored beside its results, one line each: "text FILE"
# (the generated text, results/chNN_sample.txt) or "figure FILE NAME CAPTION" (a figure's
# data, results/NAME.tsv for a plots/NAME.gp, drawn into FIG_DIR/NAME-full.pdf here)
stored_results() {
    [ -f "$results/$1"_sample.txt ] && printf 'text\t%s\n' "$results/$1"_sample.txt
    for _f in "$results/$1"_*.tsv; do
        _name=$(basename "$_f" .tsv)
        [ -f "plots/$_name.gp" ] || continue
        stored_figure "$_f" "$_name" || return 3
        printf 'figure\t%s\t%s\t%s\n' "$_f" "$_name-full" "$(figure_caption "plots/$_name.gp")"
    done
}

# source dense [part parts from to] -> $tmp/deck.gp, the text pages'
# script, and $tmp/side; echoes the number of slides
lay_out() {
    : >"$tmp/side"
    { echo 'set terminal pdfcairo enhanced color size 13.0667in,7.35in font "Sans,20" linewidth 1.2'
      echo "set output '$tmp/text.pdf'"
      echo 'unset border; unset tics; unset key; set margins 0,0,0,0'
      awk -f "$here/deck.awk" -v prog="$program" -v title="$(chapter_title "$1")" -v dense="$2" \
          -v part="${3:-1}" -v parts="${4:-1}" -v from="${5:-1}" -v to="${6:-1000000}" \
          -v statement="$(chapter_statement "$1")" -v lecture="$n" -v lectures="$lectures" \
          -v runtime="$(cat "$narr/$base.time" 2>/dev/null || echo '?')" \
          -v figs="$tmp/figs" -v sums="$tmp/sums" -v eqs="$tmp/eqs" -v side="$tmp/side" \
          -v results="$(results_file "$program")" -v results_for="$trained" -v results_cmd="$cmd" \
          -v stored="$tmp/stored" \
          "$narr/$base.txt"; } >"$tmp/deck.gp" || return 3
    cat "$tmp/side.pages"
}

# source part parts from to -> "dense pages" of the loosest layout of that
# part within MAX_SLIDES (room to breathe, else tight), or nothing
fit() {
    for _d in 0 1; do
        _p=$(lay_out "$1" $_d "$2" "$3" "$4" "$5") || return 3
        [ "$_p" -le "$MAX_SLIDES" ] && { echo "$_d $_p"; return 0; }
    done
    return 0
}

# source -> the deck's parts, one line each: "dense part parts from to".
# One deck when it fits in MAX_SLIDES slides; else two, split at the
# section boundary nearest the middle at which both parts fit.
plan() {
    f=$(fit "$1" 1 1 1 1000000) || return 3
    [ -n "$f" ] && { echo "${f% *} 1 1 1 1000000"; return 0; }
    lay_out "$1" 1 >/dev/null || return 3
    k=$(grep -c '^-- ' "$narr/$base.txt")
    grep '^-- ' "$narr/$base.txt" | cut -c4- |
        awk -F'\t' -v side="$tmp/side" -v total="$(cat "$tmp/side.pages")" '
            BEGIN { while ((getline l < side) > 0) { split(l, f, "\t"); if (f[1] == "outline") at[f[4]] = f[2] } }
            NR > 1 && ($0 in at) { d = at[$0] - total / 2; print (d < 0 ? -d : d), NR }' |
        sort -n | while read -r _ s; do
            f1=$(fit "$1" 1 2 1 $((s - 1))) && f2=$(fit "$1" 2 2 "$s" "$k") || return 3
            [ -n "$f1" ] && [ -n "$f2" ] || continue
            echo "${f1% *} 1 2 1 $((s - 1))"; echo "${f2% *} 2 2 $s $k"; return 0
        done
}

# source dense part parts from to name -> OUT_DIR/name.pdf and its outline
render() {
    pages=$(lay_out "$1" "$2" "$3" "$4" "$5" "$6") || return 3
    sed -i "s/PAGESTOTAL/$pages/" "$tmp/deck.gp"
    gnuplot "$tmp/deck.gp" 2>"$tmp/gnuplot.err" ||
        { echo "slides: gnuplot failed on $program: $(head -n 1 "$tmp/gnuplot.err")" >&2; return 3; }
    # the figures, each filling its page (drawn at the slide's size)
    awk -F'\t' '$1 == "overlay"' "$tmp/side" >"$tmp/overlays"
    if [ -s "$tmp/overlays" ]; then
        # shellcheck disable=SC2046
        qpdf --empty --pages $(cut -f3 "$tmp/overlays" | sed "s|.*|$fig_dir/&.pdf|") -- "$tmp/figures.pdf" &&
            qpdf "$tmp/text.pdf" --overlay "$tmp/figures.pdf" --to="$(cut -f2 "$tmp/overlays" | paste -sd,)" \
                --from=1-$(grep -c . "$tmp/overlays") -- "$tmp/placed.pdf" ||
            { echo "slides: qpdf could not place the figures of $base" >&2; return 3; }
    else
        cp "$tmp/text.pdf" "$tmp/placed.pdf"
    fi
    grep "^outline$tab" "$tmp/side" | cut -f2- >"$out/$7.outline"
    cut -f2- "$tmp/overlays" >"$out/$7.figures"
    _t="$(chapter_title "$1")"; [ "$4" -gt 1 ] && _t="$_t (part $3 of $4)"
    pdf_outline "$tmp/placed.pdf" "$out/$7.outline" "$_t" "$out/$7.pdf" || return 3
    echo "  $out/$7.pdf: $pages slides"
}

build_deck() { # source
    base=$(basename "$1" .c) program=$(basename "$1" .c | cut -d_ -f1)
    n=$(echo "$program" | sed 's/^ch0*//')
    figure_table "$program" >"$tmp/figs"
    claim_table "$program" >"$tmp/sums"
    awk -F'\t' -v p="$program" '$1 == p { print $2 "\t" $3 }' scripts/templates/equations.tsv >"$tmp/eqs"
    trained="" cmd=""
    : >"$tmp/stored"
    if [ "$n" -ge 13 ]; then
        trained="results/${program}_full.tsv" cmd=$(results_command "$program")
        stored_results "$program" >"$tmp/stored" || return 3
    fi
    plan "$1" >"$tmp/plan" || return 3
    [ -s "$tmp/plan" ] ||
        { echo "slides: $base does not fit in two decks of at most $MAX_SLIDES slides" >&2; return 3; }
    rm -f "$out/$base"-part[0-9]*.*
    while read -r dense part parts from to; do
        render "$1" "$dense" "$part" "$parts" "$from" "$to" "$base$([ "$part" -gt 1 ] && echo "-part$part")" || return 3
    done <"$tmp/plan"
    text_pdf "$(chapter_title "$1"): notes (the narration)" "$narr/$base.txt" \
        "$out/$base-notes.pdf" || return 3
    echo "  $out/$base-notes.pdf"
}

for src in chapters/ch[0-9][0-9]_*.c; do
    [ -f "$narr/$(basename "$src" .c).txt" ] || continue
    build_deck "$src" || exit 3
done
sh "$here/course.sh" "$out" || exit 3
