#!/bin/sh
# Runs chapters once for the instructor's kit: figures, claims and the
# narration from the same run, so that a deck's numbers match its figures.
#   scripts/kit-run.sh FIG_DIR CLAIMS_TSV NARRATION_DIR CHAPTER...
# Writes NARRATION_DIR/chNN_topic.txt (what the chapter printed) and
# chNN_topic.time (its run time in seconds, figures included). A chapter
# whose claim fails (exit 1) still gets its deck, which shows the FAIL; any
# other error stops the run.
set -u
[ $# -ge 4 ] || { echo "usage: scripts/kit-run.sh FIG_DIR CLAIMS_TSV NARRATION_DIR CHAPTER..." >&2; exit 2; }
fig_dir=$1 claims=$2 narr=$3
shift 3
mkdir -p "$fig_dir" "$narr" "$(dirname "$claims")" || exit 3
: >"$claims"
now() { date +%s.%N; }
for chapter in "$@"; do
    name=$(basename "$chapter")
    start=$(now)
    "$chapter" --plot-dir "$fig_dir" --claims "$claims" >"$narr/$name.txt"
    status=$?
    [ $status -le 1 ] || { echo "kit-run: $name exited with status $status" >&2; exit 1; }
    awk -v s="$start" -v e="$(now)" 'BEGIN { printf "%.1f\n", e - s }' >"$narr/$name.time"
done
