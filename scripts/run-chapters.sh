#!/bin/sh
# Runs chapters in order and ends with the claims table.
#   run-chapters.sh MODE PLOT_DIR CHAPTER...
# MODE: narrate (narration and figures), verify (claims only, no figures),
#       plots (figures only, quiet).
# Every chapter appends its claims to $BUILD/claims-MODE.tsv; the table has
# one row per claim id, in chapter and id order (FAIL if any check of it
# failed), and a closing line
# "N passed, M failed"; then the controls table (see below). The exit status
# is non-zero if a claim failed, a control held or was missing, or a
# chapter exited with an error.
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

# Controls: one row per claim id. FAILS (as it should) when every control of
# the id failed; HOLDS (a defect: the check cannot tell) when one passed;
# NONE when the id has no control. Either of the last two fails verify.
echo
echo "Controls (each claim checked on a case where it must not hold)"
printf '%s\n' "$sorted" | awk -F'\t' '
    NF < 5 { next }
    $6 != "control" && !($1 in seen) { seen[$1] = 1; order[n++] = $1; chapter[$1] = $3 }
    $6 == "control" && (!($1 in control) || $2 == "HOLDS") {
        control[$1] = $2; what[$1] = $4; got[$1] = $5
    }
    END {
        for (i = 0; i < n; i++) {
            id = order[i]
            c = (id in control) ? control[id] : "NONE"
            printf "%-3s  %-5s  %s  %s: %s\n", id, c, chapter[id],
                   (id in what) ? what[id] : "no control", (id in got) ? got[id] : "-"
            count[c]++
        }
        printf "controls: %d fail as they should, %d hold, %d missing\n",
               count["FAILS"], count["HOLDS"], count["NONE"]
        exit count["HOLDS"] + count["NONE"] > 0
    }' || broken=1
exit $broken
