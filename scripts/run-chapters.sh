#!/bin/sh
# Runs chapters in order and ends with the claims table.
#   run-chapters.sh MODE PLOT_DIR CHAPTER...
# MODE: narrate (narration and figures), verify (claims only, no figures),
#       plots (figures only, quiet).
# Every chapter appends its claims to $BUILD/claims-MODE.tsv; the table has
# one row per claim id, in chapter and id order (FAIL if any check of it
# failed), and a closing line
# "N passed, M failed". The exit status is non-zero if a claim failed or a
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
awk -F'\t' '
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
    }' <<EOF || broken=1
$(sort -s -t "$(printf '\t')" -k3,3 -k1,1V "$claims")
EOF
exit $broken
