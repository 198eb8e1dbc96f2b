#!/bin/sh
# Tests of scripts/run-chapters.sh's tables: the controls table counts checks,
# not ids; a check with no control after it is named on a NONE row, a
# control that holds on a HOLDS row, a control of another id on an ORPHAN
# row, and each fails the run; every check told apart passes.
#   tests/run-chapters/test.sh   (from the repository root)
set -u
here=$(dirname "$0")
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failures=0

# run NAME LINES...: the runner over one fake chapter whose claims are LINES
run() {
    name=$1
    shift
    printf '%s\n' "$@" >"$T/$name.lines"
    FAKE_LINES="$T/$name.lines" BUILD="$T/$name" \
        sh scripts/run-chapters.sh verify "$T/plots" "$here/fake-chapter.sh" >"$T/out" 2>&1
    status=$?
}

# expect WHAT STATUS TEXT: the last run ended with STATUS and printed TEXT
expect() {
    if [ "$status" != "$2" ] || ! grep -qF -- "$3" "$T/out"; then
        echo "FAIL: $1: exit $status (want $2), want a line with: $3"
        sed 's/^/    /' "$T/out"
        failures=$((failures + 1))
    else
        echo "ok: $1"
    fi
}

claim='X1|PASS|ch99|one equals one|measured 0|claim'
second='X1|PASS|ch99|two equals two|measured 0|claim'
fails='X1|FAILS|ch99|one plus one|measured 1|control'
holds='X1|HOLDS|ch99|nothing changed|measured 0|control'

run told "$claim" "$fails" "$second" "$fails" "$fails"
expect "every check told apart" 0 "controls: 2 of 2 checks fail as they should, 0 hold, 0 missing"
expect "a check with two controls says so" 0 "X1   FAILS  ch99  one plus one: measured 1 (and 1 more)"

run none "$claim" "$second" "$fails"
expect "a check without a control fails the run" 1 \
    "controls: 1 of 2 checks fail as they should, 0 hold, 1 missing"
expect "the NONE row names the check" 1 "X1   NONE   ch99  no control for: one equals one"
expect "the claims table still has one row per id" 1 "1 passed, 0 failed"

run holds "$claim" "$fails" "$holds"
expect "a control that holds fails the run" 1 \
    "controls: 0 of 1 checks fail as they should, 1 hold, 0 missing"
expect "the HOLDS row names the control that held" 1 "X1   HOLDS  ch99  nothing changed: measured 0"

run orphan "$claim" "$fails" 'X2|FAILS|ch99|stray|measured 1|control'
expect "a control of another id fails the run" 1 "1 follow no check of their id"

[ "$failures" -eq 0 ] && echo "run-chapters: all tests passed" && exit 0
echo "run-chapters: $failures failed"
exit 1
