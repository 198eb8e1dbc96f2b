#!/bin/sh
# Counts the allocation ceremony in chapter programs: the share of code lines
# (not blank, not comment) that allocate, free, open or close a scope, or pass
# a status along (chapter_must, INVENT_OK, status = ...).
#   scripts/ceremony.sh [--total] [FILE...]   default: chapters/ch*.c
#       one line per file (--total: only the total); exit 1 if the total
#       exceeds the bar of 8%
#   scripts/ceremony.sh --control
#       the chapters plus one file of scope and chapter_must lines just long
#       enough to lift the total over the bar must be refused, and with one
#       line fewer accepted
set -u
BAR=8

# FILE... -> the table (or its total line with --total); exit 1 over the bar
measure() {
    only_total=0
    [ "${1:-}" = --total ] && { only_total=1; shift; }
    awk -v bar=$BAR -v only_total=$only_total '
        FNR == 1 { if (file) report(); file = FILENAME; code = 0; cer = 0 }
        /^[[:space:]]*$/ { next }
        /^[[:space:]]*(\/\*|\*|\/\/)/ { next }
        {
            code++
            if ($0 ~ /(alloc\(|_free\(|free\(|_new\(|scope_open\(|scope_close\(|chapter_must\(|INVENT_OK|INVENT_ENOMEM|status =|return status)/) cer++
        }
        function line(name, n, c) {
            printf "%-36s %5d code lines, %4d ceremony (%4.1f%%)\n", name, n, c, n ? 100 * c / n : 0
        }
        function report() {
            if (!only_total) line(file, code, cer)
            all += code; allc += cer
        }
        END {
            report()
            line("total (at most " bar "%)", all, allc)
            exit 100 * allc > bar * all
        }' "$@"
}

# k lines of ceremony (scope_close and chapter_must in turn) -> stdout
ceremony_lines() {
    i=0
    while [ $i -lt "$1" ]; do
        [ $((i % 2)) -eq 0 ] && echo '    scope_close(sc);' || echo '    chapter_must(step(x), "a step");'
        i=$((i + 1))
    done
}

control() {
    set -- chapters/ch*.c
    counts=$(measure --total "$@" | sed 's/.* \([0-9]*\) code lines, *\([0-9]*\) ceremony.*/\1 \2/')
    n=${counts% *} c=${counts#* }
    # the fewest k with 100 (c + k) > BAR (n + k)
    k=$(( (BAR * n - 100 * c) / (100 - BAR) + 1 ))
    t=$(mktemp -d)
    ceremony_lines $k > "$t/over.c"
    ceremony_lines $((k - 1)) > "$t/at.c"
    out=0
    if measure --total "$@" "$t/over.c" >/dev/null; then
        echo "ceremony: the check passed the chapters plus $k lines of ceremony (over $BAR%)" >&2; out=1
    fi
    if ! measure --total "$@" "$t/at.c" >/dev/null; then
        echo "ceremony: the check refused the chapters plus $((k - 1)) lines (not over $BAR%)" >&2; out=1
    fi
    rm -rf "$t"
    [ $out -eq 0 ] && echo "ceremony: control refused: the chapters plus $k lines of scope_close/chapter_must (one line fewer passes)"
    return $out
}

if [ "${1:-}" = --control ]; then
    control
    exit
fi
[ $# -eq 0 ] || [ $# -eq 1 -a "${1:-}" = --total ] && set -- "$@" chapters/ch*.c
measure "$@"
