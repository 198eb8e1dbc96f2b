#!/bin/sh
# make test's steps are listed once, in mk/test-steps.txt; this holds the
# other descriptions of make test to that list: the steps `make help` prints,
# the numbered list in the README's section Tests, and the make files (no
# TEST_STEPS of their own; a target for every step).
#   scripts/check-test-steps.sh [README]   exit 1, one line per difference
#   scripts/check-test-steps.sh --control  a README with two steps swapped,
#                                          and one with a step left out, must be refused
set -u

# the list's step names, one a line
listed() {
    sed -n 's/^\([a-z][a-z0-9-]*\)[[:space:]].*/\1/p' mk/test-steps.txt
}

# make help's steps: the numbered lines after "make test runs"
in_help() {
    make -s --no-print-directory help | sed -n '/^make test runs/,$ s/^ *[0-9][0-9]*\. \([a-z][a-z0-9-]*\) .*/\1/p'
}

# README $1's steps: "1. `step`: ..." lines of its section Tests
in_readme() {
    sed -n '/^## Tests/,/^## / s/^[0-9][0-9]*\. `\([a-z][a-z0-9-]*\)`.*/\1/p' "$1"
}

# NAME, the list, another list (files) -> exit 1 with the first difference
same() {
    if ! cmp -s "$2" "$3"; then
        echo "test-steps: $1 differs from mk/test-steps.txt (< the list, > $1):" >&2
        diff "$2" "$3" | grep '^[<>]' >&2
        return 1
    fi
}

check() {
    t=$(mktemp -d) bad=0
    listed > "$t/list"
    in_help > "$t/help"
    in_readme "$1" > "$t/readme"
    [ -s "$t/list" ] || { echo "test-steps: mk/test-steps.txt lists no step" >&2; bad=1; }
    same "make help" "$t/list" "$t/help" || bad=1
    same "$1" "$t/list" "$t/readme" || bad=1
    for s in $(cat "$t/list"); do
        grep -q "^$s:" Makefile mk/*.mk || { echo "test-steps: no target for the step $s" >&2; bad=1; }
    done
    others=$(grep -ln '^[[:space:]]*TEST_STEPS[[:space:]]*[:+]*=' mk/*.mk)
    [ -z "$others" ] || { echo "test-steps: steps added outside mk/test-steps.txt, in $others" >&2; bad=1; }
    rm -rf "$t"
    return $bad
}

# README with one edit ($1, a sed script) must be refused
control() {
    t=$(mktemp -d)
    sed "$1" README.md > "$t/README.md"
    if cmp -s README.md "$t/README.md"; then
        echo "test-steps: control ($2): the edit changed nothing" >&2; rm -rf "$t"; return 1
    fi
    if check "$t/README.md" 2>/dev/null; then
        echo "test-steps: the check passed a README with $2" >&2; rm -rf "$t"; return 1
    fi
    rm -rf "$t"
    echo "test-steps: control refused: a README with $2"
}

if [ "${1:-}" = --control ]; then
    first=$(listed | sed -n 2p) second=$(listed | sed -n 3p)
    control "/^## Tests/,/^## / { s/\`$first\`/\`@@\`/; s/\`$second\`/\`$first\`/; s/\`@@\`/\`$second\`/; }" \
        "steps 2 and 3 swapped" || exit 1
    control "/^## Tests/,/^## / { /^[0-9]*\. \`$second\`/d; }" "step 3 left out" || exit 1
    exit 0
fi
check "${1:-README.md}" || exit 1
echo "test-steps: make help and the README list the $(listed | wc -l) steps of mk/test-steps.txt, in order"
