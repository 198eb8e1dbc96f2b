#!/bin/sh
# The library's direct equivalents of a reference, from its call graph.
#   exercise-equivalents.sh REFERENCE...
# prints, one per line and sorted, the REFERENCEs, every function that a
# reached one merely wraps (its body calls that one library function and no
# other, and has no loop: it returns what that one computes), and every global function of
# the library (one defined without `static`) whose body calls a reached
# one, at any depth, through static helpers too: each computes what the
# reference computes, so an exercise graded against it must refuse them.
# The graph is read from the sources (LIB_SOURCES, folders; lib unless
# set), where a call that the compiler inlined is still a call: a function
# starts at a line in column 0 with its name before "(" and ends at the
# first "}" in column 0; every identifier in its body that names a function
# is an edge.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: exercise-equivalents.sh REFERENCE..." >&2
    exit 2
fi
# shellcheck disable=SC2086
files=$(find ${LIB_SOURCES:-lib} -name '*.c' | sort)
# every function defined static, as FILE:NAME
# shellcheck disable=SC2086
statics=$(grep -H '^static' $files |
    sed -n 's/^\([^:]*\):static[A-Za-z0-9_ *]*[ *]\**\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1:\2/p' | tr '\n' ' ')
# shellcheck disable=SC2086 # $files: one word per file
awk -v statics="$statics" -v refs="$*" '
    BEGIN {
        n = split(statics, g, " "); for (i = 1; i <= n; i++) static[g[i]] = 1
        n = split(refs, r, " "); for (i = 1; i <= n; i++) reached[r[i]] = 1
    }
    # a node: a global name as it is, a static one with its file
    function node(name, in_file) { return (in_file ":" name in static) ? in_file ":" name : name }
    FNR == 1 { fn = "" }
    /^[A-Za-z_][A-Za-z0-9_ *]*[ *]\**[A-Za-z_][A-Za-z0-9_]*\(/ && !/;[ \t]*$/ && fn == "" {
        head = $0; sub(/\(.*/, "", head); sub(/.*[ *]/, "", head)
        fn = node(head, FILENAME); defined[fn] = 1; body[fn] = ""
        if (!(fn in static)) global[fn] = 1
        next
    }
    fn != "" && /^}/ { fn = ""; next }
    fn != "" { body[fn] = body[fn] " " $0; file[fn] = FILENAME }
    END {
        # edges: caller -> every defined function named in its body
        for (f in body) {
            text = body[f]; gsub(/[^A-Za-z0-9_]+/, " ", text)
            m = split(text, w, " ")
            for (i = 1; i <= m; i++) {
                callee = node(w[i], file[f])
                if (callee != f && callee in defined)
                    calls[f, callee] = 1
            }
        }
        # down: a reached function whose body calls one library function
        # only, outside any loop, is a wrapper of it, which is reached too
        do {
            grew = 0
            for (f in reached) {
                count = 0
                for (pair in calls) {
                    split(pair, p, SUBSEP)
                    if (p[1] == f) { count++; only = p[2] }
                }
                loops = body[f] ~ /(^|[^A-Za-z0-9_])(for|while)[ \t]*\(/
                if (count == 1 && !loops && !(only in reached)) { reached[only] = 1; grew = 1 }
            }
        } while (grew)
        # up: callers of what is reached, until nothing new is
        do {
            grew = 0
            for (pair in calls) {
                split(pair, p, SUBSEP)
                if ((p[2] in reached) && !(p[1] in reached)) { reached[p[1]] = 1; grew = 1 }
            }
        } while (grew)
        for (f in reached) if (f in global) print f
    }' $files | sort
