#!/bin/sh
# Makes a student's file from an exercise's one source, the full solution.
#   exercise-stub.sh exercises/solutions/exNN_topic.c > exercises/exNN_topic.c
# Everything outside the markers is copied as it is (the contract, the
# includes, the signature). Between
#     /* BEGIN SOLUTION */
#     /* stub: (void)x; return INVENT_OK; */
#     ...the solution...
#     /* END SOLUTION */
# only a TODO line survives, followed by the `stub:` lines with their comment
# marks removed: a placeholder that compiles and gives a wrong answer, so the
# grader fails until the student writes the body.
set -eu
if [ $# -ne 1 ] || [ ! -r "$1" ]; then
    echo "usage: exercise-stub.sh exercises/solutions/exNN_topic.c" >&2
    exit 2
fi
awk -v src="$1" '
    function fail(msg) { printf "%s:%d: %s\n", src, NR, msg > "/dev/stderr"; bad = 1; exit 2 }
    NR == 1 {
        n = split(src, parts, "/")
        id = parts[n]; sub(/^ex0*/, "", id); sub(/_.*/, "", id)
        printf "/* Your file: write the part marked TODO. Grade it: make exercise%s\n", id
        printf " * To start over: make reset %s (which keeps a copy in exercises/.saved/)\n", id
        printf " * (made from the reference solution by `make exercise-stubs`) */\n"
    }
    /\/\* BEGIN SOLUTION \*\// {
        if (inside) fail("BEGIN SOLUTION inside a solution block")
        inside = 1; stubs = 0
        indent = $0; sub(/\/\*.*/, "", indent)
        print indent "/* TODO: replace this placeholder with your code (contract above). */"
        next
    }
    /\/\* END SOLUTION \*\// {
        if (!inside) fail("END SOLUTION without BEGIN SOLUTION")
        inside = 0; blocks++
        next
    }
    inside && /^[ \t]*\/\* stub: .*\*\/[ \t]*$/ {
        line = $0
        sub(/\/\* stub: /, "", line); sub(/[ \t]*\*\/[ \t]*$/, "", line)
        print line
        next
    }
    !inside { print }
    END {
        if (bad) exit 2
        if (inside) { printf "%s: BEGIN SOLUTION is never closed\n", src > "/dev/stderr"; exit 2 }
        if (!blocks) {
            printf "%s: no BEGIN SOLUTION / END SOLUTION block\n", src > "/dev/stderr"
            exit 2
        }
    }' "$1"
