#!/bin/sh
# The exercises' front end, called by mk/exercises.mk (BUILD and MAKE come
# from make; an exercise is named by its number, e.g. 1, 7 or 7a).
#   exercise.sh grade ID...     grade your files, with every message
#   exercise.sh board           scoreboard of your files (exercises/exNN_*.c)
#   exercise.sh solutions       scoreboard of the reference solutions; fails unless all pass
#   exercise.sh check           make test's step: stubs as generated, solutions pass, stubs fail
#   exercise.sh stubs           regenerate every stub from its solution
#   exercise.sh hint ID [LEVEL] one hint (level 1 first)
#   exercise.sh watch ID        regrade on every save (needs inotifywait)
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
EXDIR=exercises
GEN=scripts/exercise-stub.sh

die() { echo "exercise: $*" >&2; exit 2; }

# ID (1, 01, 7, 7a) -> the student files it names, one per line
resolve() {
    id=$1
    num=$(printf '%s' "$id" | sed -n 's/^0*\([0-9][0-9]*\)\([a-z]\{0,1\}\)$/\1/p')
    [ -n "$num" ] || die "'$id' is not an exercise number (1, 7 or 7a; make exercises lists them)"
    letter=$(printf '%s' "$id" | sed 's/^[0-9]*//')
    tag=$(printf '%02d%s' "$num" "$letter")
    found=$(ls "$EXDIR"/ex"$tag"_*.c 2>/dev/null)
    [ -n "$found" ] || [ -n "$letter" ] || found=$(ls "$EXDIR"/ex"$tag"[a-z]_*.c 2>/dev/null)
    [ -n "$found" ] || die "no exercise $id (make exercises lists them)"
    printf '%s\n' "$found"
}

# exercises/ex07a_softmax.c -> 7a
id_of() { basename "$1" .c | sed 's/^ex0*\([0-9]*[a-z]\{0,1\}\)_.*/\1/'; }

# NAME KIND(yours|solution) -> path of the grader binary
binary() { echo "$BUILD/exercises/grade-$2/$1"; }

# NAME KIND -> builds the grader; on failure prints the compiler's messages
build() {
    log=$("$MAKE" --no-print-directory -s SKIP_DEPS=1 BUILD="$BUILD" "$(binary "$1" "$2")" 2>&1)
    status=$?
    [ $status -eq 0 ] && return 0
    printf '%s\n' "$log" | grep -v '^make\(\[[0-9]*\]\)\{0,1\}: \*\*\*' | sed 's/^/    | /'
    return 1
}

# NAME KIND -> runs the grader; sets $summary to its GRADE line, prints nothing
run_quiet() {
    out=$(timeout 300 "$(binary "$1" "$2")" --jobs 2 2>&1)
    summary=$(printf '%s\n' "$out" | grep '^GRADE ' | tail -n 1)
}

# "GRADE tests=7 passed=5 ..." FIELD -> value
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# $summary -> "PASS ..." or "FAIL ..." words for one row
verdict() {
    [ -n "$summary" ] || { echo "FAIL  the grader did not finish (killed?)"; return; }
    t=$(field "$summary" tests) p=$(field "$summary" passed)
    c=$(field "$summary" crashed) o=$(field "$summary" timed_out)
    extra=""
    [ "$c" -gt 0 ] && extra="$extra, $c crashed"
    [ "$o" -gt 0 ] && extra="$extra, $o timed out"
    if [ "$t" -gt 0 ] && [ "$p" -eq "$t" ]; then
        echo "PASS  $p/$t tests"
    else
        echo "FAIL  $p/$t tests pass$extra"
    fi
}

# KIND FILE... -> one scoreboard row per exercise; sets $passed $failed $broken
board() {
    kind=$1
    shift
    passed=0 failed=0 broken=0
    for file in "$@"; do
        name=$(basename "$file" .c)
        row=$(printf '  %-4s %-28s' "$(id_of "$file")" "$name")
        if ! msg=$(build "$name" "$kind"); then
            echo "$row does not compile:"
            printf '%s\n' "$msg"
            broken=$((broken + 1))
            continue
        fi
        run_quiet "$name" "$kind"
        v=$(verdict)
        echo "$row $v"
        case $v in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
    done
}

stubs_of() { ls "$EXDIR"/ex[0-9][0-9]*_*.c 2>/dev/null; }
solutions_of() { ls "$EXDIR"/solutions/ex[0-9][0-9]*_*.c 2>/dev/null; }

cmd_grade() {
    [ $# -gt 0 ] || die "which exercise? e.g. make exercise1"
    files=$(for id in "$@"; do resolve "$id" || exit 2; done) || exit 2
    all=0
    for file in $files; do
        name=$(basename "$file" .c)
        echo "== exercise $(id_of "$file"): $file"
        if ! build "$name" yours; then
            echo "== exercise $(id_of "$file"): does not compile; fix the first error above"
            all=1
            continue
        fi
        out=$(timeout 300 "$(binary "$name" yours)" --jobs 2 2>&1)
        printf '%s\n' "$out" | grep -v '^GRADE '
        summary=$(printf '%s\n' "$out" | grep '^GRADE ' | tail -n 1)
        v=$(verdict)
        echo "== exercise $(id_of "$file"): $v"
        case $v in PASS*) ;; *) all=1; echo "   stuck? make hint $(id_of "$file")" ;; esac
    done
    return $all
}

cmd_board() {
    files=$(stubs_of)
    [ -n "$files" ] || die "no exercises in $EXDIR/"
    echo "Exercises: your files in $EXDIR/"
    # shellcheck disable=SC2086
    board yours $files
    echo "$passed passed, $((failed + broken)) to go."
    echo "Details: make exerciseN   A hint: make hint N"
}

cmd_solutions() {
    files=$(solutions_of)
    [ -n "$files" ] || { echo "no reference solutions in this copy ($EXDIR/solutions/)"; return 0; }
    echo "Reference solutions: $EXDIR/solutions/"
    # shellcheck disable=SC2086
    board solution $files
    echo "$passed passed, $failed failed, $broken do not compile"
    [ $((failed + broken)) -eq 0 ]
}

cmd_stubs() {
    for sol in $(solutions_of); do
        stub="$EXDIR/$(basename "$sol")"
        "$GEN" "$sol" >"$stub.tmp" || { rm -f "$stub.tmp"; exit 2; }
        if cmp -s "$stub.tmp" "$stub"; then
            rm -f "$stub.tmp"
        else
            mv "$stub.tmp" "$stub" && echo "  wrote $stub"
        fi
    done
}

complain() {
    echo "exercises: $*"
    bad=1
}

cmd_check() {
    sols=$(solutions_of)
    if [ -z "$sols" ]; then
        echo "exercises: no reference solutions in this copy; graders not checked"
        return 0
    fi
    bad=0
    for sol in $sols; do
        stub="$EXDIR/$(basename "$sol")"
        [ -f "${stub%.c}.hints" ] || complain "$stub has no hints file ${stub%.c}.hints"
        [ -f "$EXDIR/tests/test_$(basename "$sol")" ] || complain "$sol has no grader"
        if ! "$GEN" "$sol" | cmp -s - "$stub"; then
            complain "$stub differs from what $GEN makes of $sol; run make exercise-stubs"
        fi
    done
    for stub in $(stubs_of); do
        [ -f "$EXDIR/solutions/$(basename "$stub")" ] || complain "$stub has no solution"
    done
    [ $bad -eq 0 ] || return 1
    cmd_solutions || return 1
    echo "Untouched stubs: each must fail its grader"
    # shellcheck disable=SC2046
    board yours $(stubs_of)
    if [ $passed -gt 0 ] || [ $broken -gt 0 ]; then
        echo "exercises: every untouched stub must compile and fail its grader"
        return 1
    fi
    echo "exercises: $failed graders proven both ways (solutions pass, stubs fail)"
}

cmd_hint() {
    [ $# -ge 1 ] || die "which exercise? e.g. make hint 1 (then make hint 1 LEVEL=2)"
    level=${2:-1}
    case $level in '' | *[!0-9]*) die "LEVEL must be a number, got '$level'" ;; esac
    files=$(resolve "$1") || exit 2
    if [ "$(printf '%s\n' "$files" | wc -l)" -gt 1 ]; then
        echo "chapter $1 has several exercises; ask for one:"
        for f in $files; do echo "  make hint $(id_of "$f")"; done
        return 0
    fi
    hints="${files%.c}.hints"
    [ -r "$hints" ] || die "no hints for $files"
    total=$(grep -c '^## ' "$hints")
    if [ "$level" -lt 1 ] || [ "$level" -gt "$total" ]; then
        echo "exercise $1 has hints 1 to $total; there is no level $level"
        return 2
    fi
    echo "Hint $level of $total for $files:"
    awk -v want="$level" '/^## / { n++; next } n == want' "$hints"
    [ "$level" -lt "$total" ] && echo "(next: make hint $1 LEVEL=$((level + 1)))"
    return 0
}

cmd_watch() {
    [ $# -eq 1 ] || die "which exercise? e.g. make watch 1"
    resolve "$1" >/dev/null || exit 2
    if ! command -v inotifywait >/dev/null 2>&1; then
        echo "make watch needs inotifywait, which is not installed here" \
            "(Debian: apt-get install inotify-tools)." >&2
        echo "Without it, run make exercise$1 after each save." >&2
        exit 2
    fi
    while :; do
        cmd_grade "$1"
        echo "== watching $EXDIR/ for a save (Ctrl-C to stop)"
        inotifywait -qq -e close_write -e moved_to "$EXDIR/" || exit 2
    done
}

[ $# -ge 1 ] || die "usage: exercise.sh grade|board|solutions|check|stubs|hint|watch [ID] [LEVEL]"
what=$1
shift
case $what in
grade) cmd_grade "$@" ;;
board) cmd_board ;;
solutions) cmd_solutions ;;
check) cmd_check ;;
stubs) cmd_stubs ;;
hint) cmd_hint "$@" ;;
watch) cmd_watch "$@" ;;
*) die "unknown command '$what'" ;;
esac
