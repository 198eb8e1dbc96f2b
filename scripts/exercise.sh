#!/bin/sh
# The exercises' front end, and the one place that knows what an exercise id
# is (1, 01, 7 for both of chapter 7's, 7a). mk/exercises.mk forwards here:
#   exercise.sh grade ID...   make exerciseN: grade your file, every message shown
#   exercise.sh board         make exercises: the scoreboard of your files
#   exercise.sh next          make next: the first exercise not solved yet
#   exercise.sh hint ID       make hint N (LEVEL=2, 3 for the next ones)
#   exercise.sh watch ID      make watch N: regrade whenever that file changes
#   exercise.sh reset ID      make reset N: save your file, then restore the stub
#   exercise.sh solutions     make solutions: every reference solution must pass
#   exercise.sh stubs         make exercise-stubs: remake the stubs (FORCE=1 for edited ones)
#   exercise.sh check         make exercises-check: solutions pass, fresh stubs
#                             fail, every mutant fails with its expected message
#   exercise.sh tests-of G... for mk/exercises.mk: each grader's tests object
# From make: BUILD, MAKE, SAN (1: build and grade under ASan and UBSan), LEVEL, FORCE.
set -u
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
SAN=${SAN:-}
LEVEL=${LEVEL:-1}
FORCE=${FORCE:-}
EXDIR=exercises
GEN=scripts/exercise-stub.sh
SAVED=$EXDIR/.saved
GRADER_SECONDS=20 # a whole grader; each of its tests has 3 s (grade.h)
MEMORY_MB=2048    # address space of each of a grader's processes
JOBS=$((2 * $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)))

die() {
    echo "exercise: $*" >&2
    exit 2
}

# one scratch folder per run, removed however the run ends (Ctrl-C too);
# the internal `one` runs in its caller's, `tests-of` needs none
if [ "${1:-}" = one ] && [ -n "${EX_SCRATCH:-}" ]; then
    SCRATCH=$EX_SCRATCH
elif [ "${1:-}" != tests-of ]; then
    SCRATCH=$(mktemp -d) || die "cannot make a temporary folder"
    trap 'rm -rf "$SCRATCH"' EXIT
    trap 'exit 130' INT TERM
    export EX_SCRATCH="$SCRATCH"
    # libm's names, once for every symbol check of this run
    scripts/exercise-policy.sh --libm >"$SCRATCH/libm" && export POLICY_LIBM="$SCRATCH/libm"
fi

# the build folder in use: under SAN=1 the one of make san-tests, whose
# objects are built with the same flags
OUT=$BUILD
if [ -n "$SAN" ]; then
    OUT=$BUILD/san
    # a huge allocation fails as it does without them, which a limit on the
    # address space cannot do here: the sanitizers reserve terabytes of it
    ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=$MEMORY_MB
    export ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0:print_legend=0
    export UBSAN_OPTIONS=print_stacktrace=1
    MEMORY_MB=0
fi
RUNNER=$OUT/exercises/grade-run

# ------------------------------------------------------------------ ids

# ID (1, 01, 7, 7a) -> the student files it names, one per line
resolve() {
    case $1 in
    '') die "which exercise? e.g. make exercise1 (make exercises lists them)" ;;
    N) die "write the exercise's number in place of N: make exercise1, make exercise7a" ;;
    esac
    num=$(printf '%s' "$1" | sed -n 's/^0*\([0-9][0-9]*\)\([a-z]\{0,1\}\)$/\1/p')
    [ -n "$num" ] || die "'$1' is not an exercise number (1, 7 or 7a; make exercises lists them)"
    letter=$(printf '%s' "$1" | sed 's/^[0-9]*//')
    tag=$(printf '%02d%s' "$num" "$letter")
    found=$(ls "$EXDIR"/ex"$tag"_*.c 2>/dev/null)
    [ -n "$found" ] || [ -n "$letter" ] || found=$(ls "$EXDIR"/ex"$tag"[a-z]_*.c 2>/dev/null)
    [ -n "$found" ] || die "no exercise $1 (make exercises lists them)"
    printf '%s\n' "$found"
}

# ID -> its one student file; a chapter of several exercises must say which
resolve_one() {
    files=$(resolve "$1") || exit 2
    [ "$(printf '%s\n' "$files" | wc -l)" -eq 1 ] ||
        die "chapter $1 has several exercises; name one:" \
            "$(for f in $files; do id_of "$f"; done | tr '\n' ' ')"
    printf '%s\n' "$files"
}

# exercises/ex07a_softmax.c -> 7a
id_of() { basename "$1" .c | sed 's/^ex0*\([0-9]*[a-z]\{0,1\}\)_.*/\1/'; }

# a graded file (yours, a solution, a stub, a mutant) -> ex07a_softmax
topic_of() {
    oldifs=$IFS IFS=/
    for part in ${1%.c}; do
        case $part in ex[0-9][0-9]*_*) IFS=$oldifs && echo "${part%.grader}" && return 0 ;; esac
    done
    IFS=$oldifs
}

# GRADER... -> "GRADER:TESTS" for each, TESTS the object of its
# exercise's tests beside it (build/exercises/tests/test_ex07a_softmax.o):
# the rules by which mk/exercises.mk links every grader
cmd_tests_of() {
    for grader in "$@"; do
        printf '%s:%s/exercises/tests/test_%s.o\n' "$grader" "${grader%%/exercises/*}" \
            "$(topic_of "$grader")"
    done
}

stubs_of() { ls "$EXDIR"/ex[0-9][0-9]*_*.c 2>/dev/null; }
solutions_of() { ls "$EXDIR"/solutions/ex[0-9][0-9]*_*.c 2>/dev/null; }
mutants_of() { ls "$EXDIR"/mutants/"$1"/*.c 2>/dev/null; }

# ------------------------------------------------------------- grading

# a graded file -> its grader (mk/exercises.mk's one link rule)
grader_of() {
    case $1 in
    "$OUT"/*) echo "${1%.c}.grader" ;;
    *) echo "$OUT/${1%.c}.grader" ;;
    esac
}

# TARGET... -> made, quietly; on failure the compiler's messages, indented
# (SAN= on the command line: a make started with SAN=1 hands it down)
build() {
    if [ -n "$SAN" ]; then
        made=$("$MAKE" --no-print-directory -s SKIP_DEPS=1 BUILD="$OUT" SAN=1 OPT="-O1 -g" "$@" \
            2>&1)
    else
        made=$("$MAKE" --no-print-directory -s SKIP_DEPS=1 BUILD="$BUILD" SAN= "$@" 2>&1)
    fi && return 0
    printf '%s\n' "$made" | grep -v '^make\(\[[0-9]*\]\)\{0,1\}: \*\*\*\|^  \(CC\|LD\|AR\) ' |
        sed 's/^/    | /'
    return 1
}

# grader source -> the names on its line " * Refused calls: ...": the
# function graded against and its equals
refused_names() { contract_line "Refused calls" "$1"; }

# "Refused calls" or "Allowed calls", grader source -> the names on that
# line of its opening comment and on the lines that continue it (" *   ...")
contract_line() {
    awk -v tag=" * $1:" '
        {
            if (index($0, tag) == 1) { on = 1; line = substr($0, length(tag) + 1) }
            else if (on && /^ \*   /) line = substr($0, 4)
            else if (on) exit
            else next
            closed = sub(/ *\*\/.*/, "", line)
            all = all " " line
            if (closed) exit
        }
        END { n = split(all, w, " "); for (i = 1; i <= n; i++) printf "%s%s", w[i], i < n ? " " : "" }
        ' "$2"
}

# TARGET... -> made, in parallel even when make was not given -j (a make
# given -j hands its jobs down)
build_all() {
    case ${MAKEFLAGS:-} in
    *jobserver*) build "$@" ;;
    *) build -j"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" "$@" ;;
    esac
}

# grader, log -> runs it under grade-run, its messages into log; sets
# $result, grade-run's own account of it (its fd 3, which the grader never
# has; empty when grade-run itself could not run), and $status, the
# grader's. Without malloc's per-thread cache, a freed block counts as free
# at once in the heap that the leak checks measure.
run_grader() {
    OPENBLAS_NUM_THREADS=1 GLIBC_TUNABLES=glibc.malloc.tcache_count=0 \
        "$RUNNER" "$GRADER_SECONDS" "$MEMORY_MB" "$(tests_of "$1")" "$1" --jobs 2 \
        </dev/null >"$2" 2>&1 3>"$2.result"
    status=$?
    result=""
    read -r result <"$2.result"
    rm -f "$2.result"
}

# grader -> how many graded tests its source holds
tests_of() { grep -c '^GRADE(' "$EXDIR/tests/test_$(topic_of "$1").c"; }

# $result, "verdict=PASS tests=7 passed=5 ..." -> $verdict_word $t $p $c $o
fields() {
    verdict_word="" t=0 p=0 c=0 o=0
    for kv in $result; do
        case $kv in
        verdict=*) verdict_word=${kv#*=} ;;
        tests=*) t=${kv#*=} ;;
        passed=*) p=${kv#*=} ;;
        crashed=*) c=${kv#*=} ;;
        timed_out=*) o=${kv#*=} ;;
        esac
    done
}

# $result, $status -> "PASS ..." or "FAIL ..."; a pass is grade-run's
verdict() {
    if [ -z "$result" ]; then
        echo "FAIL  grade-run could not run the grader (status $status)"
        return
    fi
    fields
    if [ "$verdict_word" = PASS ]; then
        echo "PASS  $p/$t tests"
    elif [ "$status" -eq 124 ] && [ "$t" -eq 0 ]; then
        echo "FAIL  stopped after $GRADER_SECONDS s: a loop or a constructor that never returns?"
    elif [ "$t" -eq 0 ]; then
        echo "FAIL  the grader ended before its report (status $status)"
    else
        extra=""
        [ "$c" -gt 0 ] && extra="$extra, $c crashed"
        [ "$o" -gt 0 ] && extra="$extra, $o timed out"
        [ "$p" -eq "$t" ] && extra="$extra, but the pass was not the tests' own"
        echo "FAIL  $p/$t tests pass$extra"
    fi
}

# grader source -> the library helpers its contract lets the student call,
# from its line " * Allowed calls: ..."
allowed_names() { contract_line "Allowed calls" "$1"; }

# a graded file -> its object without sanitizers (make builds it under SAN=1)
plain_object_of() {
    case $1 in
    "$OUT"/*) inner=${1#"$OUT"/} && echo "$BUILD/${inner%.c}.o" ;;
    *) echo "$BUILD/${1%.c}.o" ;;
    esac
}

# graded file, log -> 0 when it may run; else sets $v, the verdict, and
# writes why not into log: a refused call (the grader's line " * Refused
# calls: ..."), or another break of the symbol policy
# (scripts/exercise-policy.sh). A committed mutant named runtime_* skips
# both: it proves the checks at run time behind them.
admitted() {
    case $1 in "$EXDIR"/mutants/*/runtime_*) return 0 ;; esac
    topic=$(topic_of "$1") obj=$(plain_object_of "$1")
    tests=$EXDIR/tests/test_$topic.c
    # the policy reads the object without sanitizers (theirs adds constructors)
    if [ -n "$SAN" ]; then
        san=$SAN SAN=""
        build "$obj" >/dev/null
        SAN=$san
    fi
    # shellcheck disable=SC2046
    POLICY_REFUSED=$(refused_names "$tests") scripts/exercise-policy.sh "$obj" "${topic%%_*}_" \
        $(allowed_names "$tests") >"$2"
    case $? in
    0) return 0 ;;
    3) v="FAIL  $(sed -n '1s/.* \(calls [^:]*\):.*/\1/p' "$2"): write it yourself" ;;
    *) v="FAIL  refused before running: $(sed -n '1s/.*refused: //p' "$2" | cut -c1-60)..." ;;
    esac
    return 1
}

# graded file, log -> sets $v, the verdict, and writes the grader's
# messages (or why it did not run) into log; the grader must be built
grade_one() {
    admitted "$1" "$2" || return 0
    run_grader "$(grader_of "$1")" "$2"
    v=$(verdict)
}

# log -> one line per sanitizer report: what it found, at the graded file's
# line (paths cut to start at the project's exercises/)
sanitizer_summary() {
    awk '
        function spot(s) { sub(/.*[^a-zA-Z_]exercises\//, "exercises/", s); return s }
        /ERROR: AddressSanitizer: / {
            what = $0; sub(/.*AddressSanitizer: /, "", what); sub(/ on .*/, "", what)
            pending = 1
            next
        }
        pending && /^(READ|WRITE) of size/ { what = what ", " $1 " of " $4 " bytes"; next }
        pending && / in .*exercises\// && !/exercises\/tests\// {
            print "  ASan: " what ", at " spot($NF)
            pending = 0
        }
        /exercises\/.*: runtime error: / && !/exercises\/tests\// {
            at = $1; sub(/:$/, "", at); msg = $0; sub(/.*runtime error: /, "", msg)
            print "  UBSan: " msg ", at " spot(at)
        }' "$1" | sort -u
}

# MODE (build: make each grader first; built: make did) FILE... -> all
# graded, JOBS at a time; file number n leaves its verdict in
# $work/n.verdict and its messages in $work/n.log
grade_all() {
    mode=$1 n=0
    shift
    for file in "$@"; do
        n=$((n + 1))
        echo "$mode $work $n $file"
    done | xargs -P "$JOBS" -L 1 sh "$0" one
}

# internal, for grade_all: MODE DIR N FILE
cmd_one() {
    if [ "$1" = build ] && ! build "$RUNNER" "$(grader_of "$4")" >"$2/$3.log"; then
        echo "does not compile:" >"$2/$3.verdict"
        return
    fi
    grade_one "$4" "$2/$3.log"
    echo "$v" >"$2/$3.verdict"
}

# FILE... -> one scoreboard row per file, built in one go, then graded
# JOBS at a time; sets $passed $failed $broken
board() {
    passed=0 failed=0 broken=0
    work=$SCRATCH/board
    mkdir -p "$work"
    # errors are shown under each file's row, below
    # shellcheck disable=SC2046
    build -k "$RUNNER" $(for file in "$@"; do grader_of "$file"; done) >/dev/null
    grade_all build "$@"
    n=0
    for file in "$@"; do
        n=$((n + 1))
        v=$(cat "$work/$n.verdict" 2>/dev/null)
        printf '  %-4s %-28s %s\n' "$(id_of "$file")" "$(basename "$file" .c)" "$v"
        case $v in
        PASS*) passed=$((passed + 1)) ;;
        "does not compile"*) broken=$((broken + 1)) && cat "$work/$n.log" ;;
        *) failed=$((failed + 1)) ;;
        esac
    done
}

# ------------------------------------------------------ student commands

cmd_grade() {
    files=$(for id in "$@"; do resolve "$id" || exit 2; done) || exit 2
    [ -n "$files" ] || die "which exercise? e.g. make exercise1"
    all=0
    log=$SCRATCH/log
    for file in $files; do
        id=$(id_of "$file")
        echo "== exercise $id: $file${SAN:+ (with ASan and UBSan)}"
        if ! build "$RUNNER" "$(grader_of "$file")"; then
            echo "== exercise $id: does not compile; fix the first error above"
            all=1
            continue
        fi
        grade_one "$file" "$log"
        cat "$log"
        [ -z "$SAN" ] || sanitizer_summary "$log"
        echo "== exercise $id: $v"
        case $v in PASS*) ;; *) all=1 && echo "   stuck? make hint $id" ;; esac
    done
    return $all
}

cmd_board() {
    files=$(stubs_of)
    [ -n "$files" ] || die "no exercises in $EXDIR/"
    echo "Exercises: your files in $EXDIR/"
    # shellcheck disable=SC2086
    board $files
    echo "$passed of $((passed + failed + broken)) done."
    echo "Next: make next   Details: make exerciseN   A hint: make hint N"
}

# file OUT -> its stub as committed (git), else as the generator makes it
# from the solution; fails when neither is at hand
committed_stub() {
    git show HEAD:"$1" >"$2" 2>/dev/null && return 0
    sol=$EXDIR/solutions/$(basename "$1")
    [ -r "$sol" ] && "$GEN" "$sol" >"$2" 2>/dev/null
}

# file -> 0 when it is still the stub (nothing written yet)
untouched() {
    committed_stub "$1" "$SCRATCH/stub" && cmp -s "$SCRATCH/stub" "$1"
}

# file -> a copy in exercises/.saved/, named by the time; prints where
save_copy() {
    mkdir -p "$SAVED" || die "cannot make $SAVED/"
    copy=$SAVED/$(basename "$1" .c).$(date +%Y%m%d-%H%M%S).c
    cp "$1" "$copy" || die "cannot save $1 as $copy"
    echo "$copy"
}

# file -> the opening of its contract: the title, then what the exercise
# is about (up to the third empty line, at most 10 lines)
contract_opening() {
    awk '/^\/\* Exercise/ { on = 1 } on && /^ \*$/ && ++blank == 3 { exit } on && ++n <= 10' "$1" |
        sed 's/^\/\* //; s/^ \* \{0,1\}//; s/^/    /; s/^ *$//'
}

cmd_next() {
    done_count=0 total=$(stubs_of | wc -l)
    log=$SCRATCH/log
    for file in $(stubs_of); do
        if ! untouched "$file" && build "$RUNNER" "$(grader_of "$file")" >/dev/null; then
            grade_one "$file" "$log"
            case $v in PASS*) done_count=$((done_count + 1)) && continue ;; esac
        fi
        id=$(id_of "$file")
        echo "Next: exercise $id, $file ($done_count of $total done)"
        contract_opening "$file"
        echo
        echo "Grade it: make exercise$id   A hint: make hint $id   Regrade on save: make watch $id"
        return 0
    done
    echo "All $total exercises pass. Well done."
}

cmd_hint() {
    [ $# -eq 1 ] || die "which exercise? one at a time: make hint 1 (then make hint 1 LEVEL=2)"
    case $LEVEL in '' | *[!0-9]*) die "LEVEL must be a number, got '$LEVEL'" ;; esac
    file=$(resolve_one "$1") || exit 2
    hints="${file%.c}.hints"
    [ -r "$hints" ] || die "no hints for $file"
    total=$(grep -c '^## ' "$hints")
    if [ "$LEVEL" -lt 1 ] || [ "$LEVEL" -gt "$total" ]; then
        die "exercise $1 has hints 1 to $total; there is no level $LEVEL"
    fi
    echo "Hint $LEVEL of $total for $file:"
    awk -v want="$LEVEL" '/^## / { n++; next } n == want' "$hints"
    [ "$LEVEL" -eq "$total" ] || echo "(next: make hint $1 LEVEL=$((LEVEL + 1)))"
}

cmd_watch() {
    [ $# -eq 1 ] || die "which exercise? one at a time: make watch 1"
    files=$(resolve "$1") || exit 2
    while :; do
        [ -t 1 ] && printf '\033[H\033[2J' # clear the screen
        cmd_grade "$1"
        # shellcheck disable=SC2086
        before=$(cksum $files)
        # shellcheck disable=SC2086
        echo "== watching" $files "for a change (Ctrl-C to stop)"
        # shellcheck disable=SC2086
        while [ "$(cksum $files)" = "$before" ]; do sleep 1; done
    done
}

cmd_reset() {
    [ $# -eq 1 ] || die "which exercise? one at a time: make reset 1"
    file=$(resolve_one "$1") || exit 2
    stub=$SCRATCH/stub
    committed_stub "$file" "$stub" ||
        die "no stub to restore $file from: this copy has neither git history nor" \
            "solutions (git init && git add -A && git commit, once, makes make reset work)"
    if cmp -s "$stub" "$file"; then
        echo "exercise $1: $file is the stub already"
        return 0
    fi
    copy=$(save_copy "$file") || exit 2
    cp "$stub" "$file" || die "cannot write $file"
    echo "exercise $1: your file is saved as $copy; $file is the stub again"
}

# ----------------------------------------------------- instructor commands

cmd_solutions() {
    files=$(solutions_of)
    [ -n "$files" ] || { echo "no reference solutions in this copy ($EXDIR/solutions/)"; return 0; }
    echo "Reference solutions: $EXDIR/solutions/"
    # shellcheck disable=SC2086
    board $files
    echo "$passed passed, $failed failed, $broken do not compile"
    [ $((failed + broken)) -eq 0 ]
}

# file, scratch file -> 0 when the file is as committed (git)
as_committed() { git show HEAD:"$1" >"$2" 2>/dev/null && cmp -s "$1" "$2"; }

cmd_stubs() {
    kept=0
    new=$SCRATCH/new old=$SCRATCH/old
    for sol in $(solutions_of); do
        stub=$EXDIR/$(basename "$sol")
        "$GEN" "$sol" >"$new" || exit 2
        cmp -s "$new" "$stub" && continue
        if [ -f "$stub" ] && ! as_committed "$stub" "$old"; then
            if [ "$FORCE" != 1 ]; then
                echo "exercise-stubs: kept $stub: it differs from its committed stub" \
                    "(your work?); FORCE=1 replaces it after saving a copy in $SAVED/" >&2
                kept=1
                continue
            fi
            echo "  saved $stub as $(save_copy "$stub")"
        fi
        cp "$new" "$stub" && echo "  wrote $stub"
    done
    return $kept
}

complain() {
    echo "exercises: $*"
    bad=1
}

# stub, what the generator makes of its solution, a scratch file -> 0
# when the committed stub is that (in a git checkout), or else the file
# itself; outside git a student's edits cannot be told from a stale stub,
# and the comparison is left out
in_step() {
    git rev-parse --is-inside-work-tree >/dev/null 2>&1 || return 0
    cmp -s "$2" "$1" || { git show HEAD:"$1" >"$3" 2>/dev/null && cmp -s "$2" "$3"; }
}

# grader source -> complaints unless its "Refused calls" hold every direct
# equivalent of its reference (the first name) that the library's call
# graph shows, and its "Allowed calls" none of them
check_equivalents() {
    refused=" $(refused_names "$1") " allowed=" $(allowed_names "$1") "
    reference=${refused# } && reference=${reference%% *}
    for name in $(scripts/exercise-equivalents.sh "$reference"); do
        case $refused in *" $name "*) ;; *)
            complain "$1: the library's $name does the work of $reference (the call graph" \
                "says so: scripts/exercise-equivalents.sh $reference); add it to its Refused calls" \
                "and to the contract" ;;
        esac
        case $allowed in *" $name "*)
            complain "$1: allows $name, which does the work of $reference" ;;
        esac
    done
}

# the call-graph walk's control: a library function added that wraps a
# reference must be found, or the walk proves nothing
equivalents_control() {
    mkdir -p "$SCRATCH/control"
    printf '%s\n' '#include "softmax.h"' '' \
        'int control_softmax(gsl_vector *s)' '{' '    return softmax_vector(s, 1.0);' '}' \
        >"$SCRATCH/control/control.c"
    LIB_SOURCES="lib $SCRATCH/control" scripts/exercise-equivalents.sh softmax_vector |
        grep -qx control_softmax ||
        complain "scripts/exercise-equivalents.sh misses control_softmax, a new wrapper of" \
            "softmax_vector: the Refused calls lists cannot be kept true"
}

# each exercise has its grader, hints and stub; each stub is what the
# generator makes of its solution, as committed (a student's edits to
# the working file do not count); each refused call is named in the contract
check_sources() {
    new=$SCRATCH/new old=$SCRATCH/old
    for sol in $(solutions_of); do
        stub=$EXDIR/$(basename "$sol") tests=$EXDIR/tests/test_$(basename "$sol")
        [ -f "${stub%.c}.hints" ] || complain "$stub has no hints file ${stub%.c}.hints"
        [ -f "$tests" ] || { complain "$sol has no grader $tests" && continue; }
        "$GEN" "$sol" >"$new" || complain "$GEN cannot make a stub of $sol"
        in_step "$stub" "$new" "$old" ||
            complain "$stub is not what $GEN makes of $sol; run make exercise-stubs"
        for name in $(refused_names "$tests"); do
            grep -q "$name" "$sol" ||
                complain "$sol: its contract does not name $name, a refused call"
        done
        for name in $(allowed_names "$tests"); do
            grep -q "$name" "$sol" ||
                complain "$sol: its contract does not name $name, an allowed call"
        done
        check_equivalents "$tests"
        [ "$(mutants_of "$(basename "$sol" .c)" | wc -l)" -ge 3 ] ||
            complain "$sol has fewer than 3 mutants in $EXDIR/mutants/$(basename "$sol" .c)/"
    done
    equivalents_control
    for stub in $(stubs_of); do
        [ -f "$EXDIR/solutions/$(basename "$stub")" ] || complain "$stub has no solution"
    done
    for dir in "$EXDIR"/mutants/*/; do
        [ ! -d "$dir" ] || [ -f "$EXDIR/solutions/$(basename "$dir").c" ] ||
            complain "$dir: mutants of no exercise (no $EXDIR/solutions/$(basename "$dir").c)"
    done
}

# graded file -> the text its grader's messages must hold, from its first
# line "/* Mutant: what it gets wrong. Expect: text */"
expected_of() { sed -n '1s/^\/\* Mutant: .*Expect: \(.*\) \*\/$/\1/p' "$1"; }

# n, file, "pass" or "fail", the fresh stub's n -> sets $verdict, that of
# graded file number n; one complaint unless it is as wanted, and a
# mutant's messages hold the text its first line expects, which the fresh
# stub's do not
judge() {
    verdict=$(cat "$work/$1.verdict" 2>/dev/null)
    case $3:$verdict in
    pass:PASS* | fail:FAIL*) ;;
    *) complain "$2 should $3 its grader: ${verdict:-it did not run}" ;;
    esac
    case $2 in "$EXDIR"/mutants/*) ;; *) return 0 ;; esac
    expect=$(expected_of "$2")
    if [ -z "$expect" ]; then
        complain "$2: its first line is not /* Mutant: ... Expect: ... */"
    elif ! grep -qF -- "$expect" "$work/$1.log"; then
        complain "$2 fails, but its grader never says '$expect'; it said:"
        grep -m 4 'Hint\|->\|expected' "$work/$1.log" | sed 's/^/      /'
    elif grep -qF -- "$expect" "$work/$4.log"; then
        complain "$2: a fresh stub's log says '$expect' too: it proves that the test" \
            "failed, not that it failed for this mistake; expect a text of its own"
    fi
}

# topic, n -> one row: the verdicts of its solution (number n + 1), its
# fresh stub (n + 2) and its mutants (from n + 3 on); sets $n to the last
prove_row() {
    judge $(($2 + 1)) "$EXDIR/solutions/$1.c" pass
    sol_v=${verdict%%  *}
    judge $(($2 + 2)) "$OUT/exercises/stubs/$1.c" fail
    stub_v=${verdict%%  *} n=$(($2 + 2)) names=""
    for mutant in $(mutants_of "$1"); do
        n=$((n + 1))
        judge $n "$mutant" fail $(($2 + 2))
        names="$names $(basename "$mutant" .c)"
    done
    printf '  %-4s %-24s solution %-4s stub %-4s %2d mutants:%s\n' "$(id_of "$1.c")" "$1" \
        "$sol_v" "$stub_v" "$(mutants_of "$1" | wc -l)" "$names"
}

cmd_check() {
    sols=$(solutions_of)
    [ -n "$sols" ] ||
        { echo "exercises: no reference solutions in this copy; graders not checked" && return 0; }
    bad=0
    check_sources
    [ $bad -eq 0 ] || return 1
    all=""
    for sol in $sols; do
        topic=$(basename "$sol" .c)
        all="$all $sol $OUT/exercises/stubs/$topic.c $(mutants_of "$topic" | tr '\n' ' ')"
    done
    # shellcheck disable=SC2046,SC2086
    build_all "$RUNNER" $(for file in $all; do grader_of "$file"; done) || return 1
    work=$SCRATCH/check
    mkdir -p "$work"
    # shellcheck disable=SC2086
    grade_all built $all
    echo "Graders proven three ways: the solution passes, a fresh stub fails, every mutant fails"
    n=0
    for sol in $sols; do
        prove_row "$(basename "$sol" .c)" $n
    done
    [ $bad -eq 0 ] || return 1
    echo "exercises: $(echo "$sols" | wc -l) graders proven three ways," \
        "$(echo "$all" | wc -w) files graded"
}

[ $# -ge 1 ] || die "usage: exercise.sh grade|board|next|hint|watch|reset|solutions|stubs|check ID"
what=$1
shift
case $what in
grade) cmd_grade "$@" ;;
board) cmd_board ;;
next) cmd_next ;;
hint) cmd_hint "$@" ;;
watch) cmd_watch "$@" ;;
reset) cmd_reset "$@" ;;
solutions) cmd_solutions ;;
stubs) cmd_stubs ;;
check) cmd_check ;;
one) cmd_one "$@" ;;
tests-of) cmd_tests_of "$@" ;;
*) die "unknown command '$what'" ;;
esac
