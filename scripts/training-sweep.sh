#!/bin/sh
# The training sweep (issue 28), run by `make test`:
#   scripts/training-sweep.sh BUILD
# Chapter 13 at the edges of the sizes it accepts (the shortest context, the
# narrowest model with one head per unit of width, post-norm at the seed
# whose gradient check once failed) and on a folder of .txt files: every
# claim must hold (exit 0), the temporary checkpoint must go to TMPDIR and
# nothing may be left there. The sizes and corpora it refuses are rows of
# tests/bad-input/table. About 40 s on two cores.
set -u
build=${1:-build}
ch13=$build/ch13_language_model
fortunes=/usr/share/games/fortunes
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/texts" "$tmp/tmpdir"
failed=0 runs=0

# run ARGS...: one chapter run that must exit 0 and leave TMPDIR empty
run() {
    runs=$((runs + 1))
    TMPDIR=$tmp/tmpdir OPENBLAS_NUM_THREADS=1 "$ch13" --quiet --no-plot "$@" >"$tmp/out" 2>&1
    rc=$?
    left=$(ls -A "$tmp/tmpdir")
    if [ "$rc" -ne 0 ] || [ -n "$left" ]; then
        failed=$((failed + 1))
        echo "training-sweep: FAIL ch13 $*: exit $rc${left:+, left in TMPDIR: $left}"
        grep -A1 FAIL "$tmp/out" | head -4
    fi
}

run --context 4 --batch 16
run --layers 1 --dim 8 --heads 8 --context 8 --batch 8
run --post-norm --seed 6
if [ -f "$fortunes/computers" ] && [ -f "$fortunes/science" ]; then
    cp "$fortunes/computers" "$tmp/texts/computers.txt"
    cp "$fortunes/science" "$tmp/texts/science.txt"
    run --corpus "$tmp/texts"
else
    echo "training-sweep: no fortunes ($fortunes): the folder-of-.txt run skipped"
fi
# the control: a TMPDIR that does not exist is refused before any work, so
# the runs above did use theirs
runs=$((runs + 1))
TMPDIR=$tmp/none "$ch13" --quiet --no-plot >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || { failed=$((failed + 1)); echo "training-sweep: FAIL a missing TMPDIR: exit $rc, want 2"; }
[ "$failed" -eq 0 ] || { echo "training-sweep: $failed of $runs runs failed"; exit 1; }
echo "training-sweep: ch13 held every claim in $runs runs at the edges of its sizes, nothing left in TMPDIR"
