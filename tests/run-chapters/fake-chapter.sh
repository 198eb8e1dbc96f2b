#!/bin/sh
# A stand-in chapter for run-chapters.sh's test: appends the claims lines of
# the file named by $FAKE_LINES (fields separated by '|') to --claims FILE,
# and exits with $FAKE_STATUS (0 by default).
while [ $# -gt 0 ]; do
    [ "$1" = --claims ] && claims=$2
    shift
done
tr '|' '\t' <"$FAKE_LINES" >>"$claims"
exit "${FAKE_STATUS:-0}"
