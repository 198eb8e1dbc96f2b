#!/bin/sh
# Prints a results file of a trained chapter (results/chNN_full.tsv) as the
# Markdown table the README shows, its header lines (command, date, machine,
# wall time) first as a sentence: chapter 14's columns as its table names them
# (the interval in one column), any other file's columns as they are. The README holds the table between the lines
# "<!-- results/ch14_full.tsv -->" and "<!-- end of results -->";
# `scripts/results-table.sh --check README.md FILE` fails when they differ.
set -eu
table() {
    sed -n 's/^# //p' "$1" | sed 's/^/> /'
    echo
    awk -F'\t' '
        /^#/ { next }
        $1 == "row" && $3 != "numbers" { generic = 1 }
        generic { line = "|"; for (i = 1; i <= NF; i++) line = line " " $i " |"; print line
                  if ($1 == "row") { line = "|"; for (i = 1; i <= NF; i++) line = line "---|"; print line }
                  next }
        $1 == "row" { print "| model | claim | numbers | rate | held-out | minus full [95% interval] | verdict | share of steps | ms/step |"
                      print "|---|---|---|---|---|---|---|---|---|"; next }
        NF < 6 { printf "| %s | | | | %s | | | | |\n", $1, $5; next }
        { printf "| %s | %s | %s | %s | %s | %s [%s, %s] | %s | %s | %s |\n", $1, $2, $3, $4, $5, $7, $8, $9, $10, $11, $12 }' "$1"
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
