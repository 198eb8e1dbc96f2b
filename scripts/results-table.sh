#!/bin/sh
# Prints a results file (results/chNN_full.tsv) as the
# Markdown table the README shows, its header lines (command, date, machine,
# wall time) first as a quote. Chapter 14's columns ("row", -, "numbers") are named
# and joined for the README; any other file's first line that is not a
# comment names its columns, and shorter rows are padded. The README holds
# the table between the lines "<!-- FILE -->" and "<!-- end of results -->";
# `scripts/results-table.sh --check README.md FILE` fails when they differ.
set -eu
table() {
    sed -n 's/^# //p' "$1" | sed 's/^/> /'
    echo
    awk -F'\t' '
        /^#/ { next }
        mode == "" && $1 == "row" && $3 == "numbers" {
            mode = "ch14"
            print "| model | claim | numbers | rate | held-out | minus full [95% interval] | verdict | share of steps | ms/step |"
            print "|---|---|---|---|---|---|---|---|---|"; next
        }
        mode == "" {
            mode = "named"; cols = NF; sep = "|"
            for (i = 1; i <= NF; i++) { printf "| %s ", $i; sep = sep "---|" }
            print "|"; print sep; next
        }
        mode == "named" { for (i = 1; i <= cols; i++) printf "| %s ", $i; print "|"; next }
        NF < 6 { printf "| %s | | | | %s | | | | |\n", $1, $5; next }
        { diff = $7 == "-" ? "-" : $7 " [" $8 ", " $9 "]"
          printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, diff, $10, $11, $12 }' "$1"
}
if [ "${1:-}" = --check ]; then
    readme=$2 file=$3
    want=$(table "$file")
    got=$(sed -n "\|<!-- $file -->|,\|<!-- end of results -->|p" "$readme" | sed '1d;$d')
    if [ "$want" != "$got" ]; then
        echo "results-table.sh: $readme's table differs from $file (run scripts/results-table.sh $file)" >&2
        exit 1
    fi
    exit 0
fi
table "$1"
