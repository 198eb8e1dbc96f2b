#!/bin/sh
# Seed robustness (issue 14), run by `make test-long`:
#   scripts/seed-sweep.sh FIRST LAST CHAPTER...
# Runs every chapter at its default sizes for every seed from FIRST to LAST
# (two at a time) and checks that every claim PASSes and every control
# FAILS at every seed. Prints one line per chapter (the seeds and ids that
# went wrong, if any) and a summary; exit status 1 if a claim failed, a
# control held or a chapter exited with an error (status 2 or more) at any
# seed. Ids without a control are counted and shown, not failed: `make
# verify` fails on them already.
set -u
[ $# -ge 3 ] || { echo "usage: scripts/seed-sweep.sh FIRST LAST CHAPTER..." >&2; exit 2; }
first=$1 last=$2
shift 2
start=$(date +%s)
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

# One run: chapter, seed -> $T/<name>.<seed>.tsv (claims) and .status
for chapter in "$@"; do
    seed=$first
    while [ "$seed" -le "$last" ]; do
        printf '%s %s\n' "$chapter" "$seed"
        seed=$((seed + 1))
    done
done | xargs -P 2 -n 2 sh -c '
    out=$0/$(basename "$1").$2
    "$1" --quiet --no-plot --seed "$2" --claims "$out.tsv" >/dev/null 2>"$out.err"
    echo $? >"$out.status"' "$T"

bad=0
for chapter in "$@"; do
    name=$(basename "$chapter")
    report=$(cd "$T" && for f in "$name".*.tsv; do
        [ -e "$f" ] || continue
        seed=${f#"$name".}
        seed=${seed%.tsv}
        status=$(cat "$name.$seed.status")
        [ "$status" -le 1 ] || echo "seed $seed: exit $status ($(head -c 120 "$name.$seed.err"))"
        awk -F'\t' -v seed="$seed" '
            $2 == "FAIL" { print "seed " seed ": " $1 " FAIL (" $5 ")" }
            $2 == "HOLDS" { print "seed " seed ": " $1 " control HOLDS (" $5 ")" }' "$f"
    done)
    runs=$(ls "$T" | grep -c "^$name\..*\.status$")
    counts=$(cat "$T/$name".*.tsv 2>/dev/null | awk -F'\t' '
        $6 == "claim" { claims++; id[$1] = 1 } $6 == "control" { controls++; control[$1] = 1 }
        END { for (i in id) if (!(i in control)) none++
              printf "%d claims, %d controls, %d ids without a control", claims, controls, none }')
    if [ -n "$report" ]; then
        bad=1
        printf '%s: %d runs; wrong:\n%s\n' "$name" "$runs" "$report" | sed '2,$s/^/    /'
    else
        printf '%s: %d runs, every claim PASS and every control FAILS (%s)\n' \
            "$name" "$runs" "$counts"
    fi
done
echo "seed-sweep: seeds $first..$last, $# chapters, $(($(date +%s) - start)) s: \
$([ $bad -eq 0 ] && echo 'all held' || echo 'FAILURES above')"
exit $bad
