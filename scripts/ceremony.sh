#!/bin/sh
# Counts the allocation ceremony in chapter programs: the share of code lines
# (not blank, not comment) that allocate, free or pass a status along.
#   scripts/ceremony.sh [FILE...]     default: chapters/ch*.c
# Prints one line per file and the total; exits 1 if the total exceeds 8%.
set -u
[ $# -eq 0 ] && set -- chapters/ch*.c
awk '
    FNR == 1 { if (file) report(); file = FILENAME; code = 0; cer = 0 }
    /^[[:space:]]*$/ { next }
    /^[[:space:]]*(\/\*|\*|\/\/)/ { next }
    {
        code++
        if ($0 ~ /(alloc\(|_free\(|free\(|_new\(|INVENT_OK|INVENT_ENOMEM|status =|return status)/) cer++
    }
    function report() {
        printf "%-36s %5d code lines, %4d ceremony (%4.1f%%)\n", file, code, cer, code ? 100 * cer / code : 0
        all += code; allc += cer
    }
    END {
        report()
        share = all ? 100 * allc / all : 0
        printf "%-36s %5d code lines, %4d ceremony (%4.1f%%)\n", "total", all, allc, share
        exit share > 8
    }' "$@"
