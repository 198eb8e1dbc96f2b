#!/bin/sh
# Runs chapters in order and ends with the claims table.
#   run-chapters.sh MODE PLOT_DIR CHAPTER...
# MODE: narrate (narration and figures), verify (claims only, no figures),
#       plots (figures only, quiet).
# Every chapter appends its claims to $BUILD/claims-MODE.tsv; the table has
# one row per claim id, in chapter and id order (FAIL if any check of it
# failed), and a closing line
# "N passed, M failed"; then the controls table, one row per check (see
# below). The exit status is non-zero if a claim failed, a check's control
# held or was missing, or a chapter exited with an error.
set -u
mode=$1 plot_dir=$2
shift 2
claims="${BUILD:-build}/claims-$mode.tsv"
mkdir -p "$(dirname "$claims")"
: >"$claims"

case $mode in
narrate) flags="--plot-dir $plot_dir" ;;
verify) flags="--quiet --no-plot" ;;
plots) flags="--quiet --plot-dir $plot_dir" ;;
*) echo "run-chapters.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac

broken=0
for chapter in "$@"; do
    # shellcheck disable=SC2086
    "$chapter" $flags --claims "$claims"
    status=$?
    if [ $status -gt 1 ]; then
        echo "$(basename "$chapter"): exited with status $status" >&2
        broken=1
    fi
done

[ "$mode" = plots ] && [ $broken -eq 0 ] && exit 0
echo
echo "Claims"
tab=$(printf '\t')
sorted=$(sort -s -t "$tab" -k3,3 -k1,1V "$claims")
# Claims: one row per id, FAIL if any check of it failed.
printf '%s\n' "$sorted" | awk -F'\t' '
    $6 == "control" || NF < 5 { next }
    !($1 in verdict) { order[n++] = $1; verdict[$1] = "PASS"; chapter[$1] = $3; text[$1] = $4 }
    $2 == "FAIL" { verdict[$1] = "FAIL" }
    END {
        for (i = 0; i < n; i++) {
            id = order[i]
            printf "%-3s  %s  %s  %s\n", id, verdict[id], chapter[id], text[id]
            if (verdict[id] == "PASS") passed++; else failed++
        }
        printf "%d passed, %d failed\n", passed, failed
        exit failed > 0
    }' || broken=1

# Controls: one row per check (a claim line of the claims file), in chapter and
# id order. A check is told apart by the control lines that follow it in its
# chapter's file order, up to its next check; they must carry its id. FAILS
# (as it should) when every control of the check failed; HOLDS (a defect: the
# check cannot tell) when one passed; NONE when no control followed it: the
# row names the check. A control that follows no check of its id is an
# ORPHAN. HOLDS, NONE and ORPHAN rows fail verify.
echo
echo "Controls (each check run again on a case where it must not hold)"
awk -F'\t' -v OFS='\t' '
    NF < 6 { next }
    $6 == "claim" { check++; last_id = $1; last_chapter = $3; k = check }
    $6 == "control" { k = ($1 == last_id && $3 == last_chapter) ? check : "orphan" NR }
    { print $3, $1, k, $6, $2, $4, $5 }' "$claims" |
    sort -s -t "$tab" -k1,1 -k2,2V |
    awk -F'\t' '
    $4 == "claim" { order[n++] = $3; id[$3] = $2; chapter[$3] = $1; claim[$3] = $6; next }
    $3 ~ /^orphan/ { order[n++] = $3; id[$3] = $2; chapter[$3] = $1; orphan[$3] = 1 }
    {
        controls[$3]++
        if (!($3 in what) || ($5 == "HOLDS" && !held[$3])) { what[$3] = $6; got[$3] = $7 }
        if ($5 == "HOLDS") held[$3] = 1
    }
    END {
        for (i = 0; i < n; i++) {
            k = order[i]
            if (k in orphan) { c = "ORPHAN"; text = "a control that follows no check of its id (" what[k] "): " got[k] }
            else if (!(k in controls)) { c = "NONE"; text = "no control for: " claim[k] }
            else {
                c = held[k] ? "HOLDS" : "FAILS"
                more = controls[k] > 1 ? sprintf(" (and %d more)", controls[k] - 1) : ""
                text = what[k] ": " got[k] more
            }
            printf "%-3s  %-5s  %s  %s\n", id[k], c, chapter[k], text
            count[c]++
            if (!(k in orphan)) checks++
        }
        printf "controls: %d of %d checks fail as they should, %d hold, %d missing",
               count["FAILS"], checks, count["HOLDS"], count["NONE"]
        if (count["ORPHAN"]) printf ", %d follow no check of their id", count["ORPHAN"]
        printf "\n"
        exit count["HOLDS"] + count["NONE"] + count["ORPHAN"] > 0
    }' || broken=1
exit $broken
