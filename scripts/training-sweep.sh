#!/bin/sh
# The training sweep (issue 28):
#   scripts/training-sweep.sh BUILD        (make test)
#   scripts/training-sweep.sh BUILD long   (make test-long)
# make test: chapter 13 at the edges of the sizes it accepts (the shortest
# context, the narrowest model with one head per unit of width, post-norm at
# the seed whose gradient check once failed) and on a folder of .txt files;
# chapter 14's quick run at the edges of its sizes (the smallest budget and
# seeds, the narrowest width, the most heads, the extreme base rates). About
# 80 s on two cores, 40 of them chapter 14's. long: chapter 14 at a budget
# that takes its full model below the bigram, where A2 and A7 are checked
# whatever the run, at three seeds (about 5 minutes). Every claim must hold
# and every control fail (exit 0), the temporary checkpoint must go to TMPDIR
# and nothing may be left there. The sizes and corpora they refuse are rows
# of tests/bad-input/table.
set -u
build=${1:-build}
mode=${2:-}
ch13=$build/ch13_language_model
ch14=$build/ch14_ablations
fortunes=/usr/share/games/fortunes
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/texts" "$tmp/tmpdir"
failed=0 runs=0

# run CHAPTER ARGS...: one chapter run that must exit 0 and leave TMPDIR empty
run() {
    chapter=$1
    shift
    runs=$((runs + 1))
    TMPDIR=$tmp/tmpdir OPENBLAS_NUM_THREADS=1 "$chapter" --quiet --no-plot "$@" >"$tmp/out" 2>&1
    rc=$?
    left=$(ls -A "$tmp/tmpdir")
    if [ "$rc" -ne 0 ] || [ -n "$left" ]; then
        failed=$((failed + 1))
        echo "training-sweep: FAIL $(basename "$chapter") $*: exit $rc${left:+, left in TMPDIR: $left}"
        grep -A1 -e FAIL -e HOLDS "$tmp/out" | head -4
    fi
}

if [ "$mode" = long ]; then
    for seed in 1 2 3; do
        run "$ch14" --steps 960 --seed "$seed" --claims "$tmp/claims.tsv"
        for id in A2 A7; do # fixed in advance past the bigram: claimed at every seed
            grep -q "^$id	PASS	.*	claim\$" "$tmp/claims.tsv" || {
                failed=$((failed + 1))
                echo "training-sweep: FAIL ch14 --steps 960 --seed $seed: $id not claimed"
            }
        done
    done
    [ "$failed" -eq 0 ] || { echo "training-sweep: $failed failures in $runs runs"; exit 1; }
    echo "training-sweep: ch14 claimed A2 and A7 and held every claim in $runs runs at 960 steps"
    exit 0
fi
run "$ch13" --context 4 --batch 16
run "$ch13" --layers 1 --dim 8 --heads 8 --context 8 --batch 8
run "$ch13" --post-norm --seed 6
if [ -f "$fortunes/computers" ] && [ -f "$fortunes/science" ]; then
    cp "$fortunes/computers" "$tmp/texts/computers.txt"
    cp "$fortunes/science" "$tmp/texts/science.txt"
    run "$ch13" --corpus "$tmp/texts"
else
    echo "training-sweep: no fortunes ($fortunes): the folder-of-.txt run skipped"
fi
# chapter 14's quick run: the smallest budget with the fewest seeds and A11's
# window no longer than the context; the narrowest width on one window a step
# at the highest base rate; sixteen heads of width 1 on windows of 32 (where
# A7 once failed, seed 3); a base rate at which the models barely learn
run "$ch14" --steps 40 --seeds 3 --long-context 16
run "$ch14" --dim 2 --batch 1 --rate 0.05
run "$ch14" --heads 16 --context 32 --seed 3
run "$ch14" --rate 1e-4 --seeds 3
# the control: a TMPDIR that does not exist is refused before any work, so
# the runs above did use theirs
runs=$((runs + 1))
TMPDIR=$tmp/none "$ch13" --quiet --no-plot >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || { failed=$((failed + 1)); echo "training-sweep: FAIL a missing TMPDIR: exit $rc, want 2"; }
[ "$failed" -eq 0 ] || { echo "training-sweep: $failed of $runs runs failed"; exit 1; }
echo "training-sweep: ch13 and ch14 held every claim in $runs runs at the edges of their sizes, nothing left in TMPDIR"
