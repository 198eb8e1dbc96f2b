#!/bin/sh
# The bad-input test (issue 14), run by `make test`:
#   scripts/bad-input.sh PROGRAM...     (build/chNN_* and build/bench-kernels)
# 1. Help: --help exits 0 at once, its text on stdout (from "usage:" to the
#    --help line, nothing after), nothing on stderr, nothing on disk.
#    Refusals: every row of tests/bad-input/table, plus rows generated from
#    each program's --help, must end in its exit status (2) with exactly one
#    line on stderr, nothing on stdout and nothing created or changed on disk.
# 2. Write failures: claims to /dev/full, standard output on /dev/full (with
#    and without --help), dumps and claims over a file-size limit: exit 3
#    with one line, and no partial file left (every .npy whole, the claims
#    file made of whole lines).
# 3. Paths that must work: a quote in every path, paths one character short
#    of the refused length. A save over a checkpoint on a nearly full tmpfs
#    (mounted where allowed, as root in CI): refused up front, the old
#    checkpoint whole.
# 4. Controls: the checks above must catch a program that prints, creates a
#    file or writes two lines, and a --help that goes on to run.
# Prints one line per failed case and a summary; exit status 1 if any failed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
table=$root/tests/bad-input/table
path_max=$(getconf PATH_MAX / 2>/dev/null || echo 4096)
DUMP_LONGEST=94  # DUMP_LONGEST_FILE in lib/runtime/dump.h
PLOT_LONGEST=99  # PLOT_LONGEST_FILE in lib/runtime/plot.h
start=$(date +%s)

programs=""
for p in "$@"; do programs="$programs $(cd "$(dirname "$p")" && pwd)/$(basename "$p")"; done
[ -n "$programs" ] || { echo "usage: scripts/bad-input.sh PROGRAM..." >&2; exit 2; }

# refusals need no thread pool; real runs (parts 2, 3) are as fast on one thread
export OPENBLAS_NUM_THREADS=1
TOP=$(mktemp -d) || exit 1
trap 'umount "$TOP/main/small" 2>/dev/null; chmod -R u+w "$TOP" 2>/dev/null; rm -rf "$TOP"' EXIT INT TERM
cases=0 failed=0 skipped=0

# "ch08_heads_wo" -> "ch08", "bench-kernels" -> "bench": names in the table
short_name() {
    case $(basename "$1") in
    bench-kernels) echo bench ;;
    *) basename "$1" | cut -d_ -f1 ;;
    esac
}

# A path of $1 characters made of components of up to 200 (NAME_MAX is 255).
path_of_length() {
    awk -v n="$1" 'BEGIN { s = ""; while (length(s) < n) { if (s != "") s = s "/";
        c = n - length(s); if (c > 200) c = 200; for (i = 0; i < c; i++) s = s "p" }
        print s }'
}

LONG=$(path_of_length 4085)
TOO_LONG=$(path_of_length $((path_max + 4)))
DUMP_EDGE=$(path_of_length $((path_max - 1 - DUMP_LONGEST)))
PLOT_EDGE=$(path_of_length $((path_max - 1 - PLOT_LONGEST)))
DUMP_OK=$(path_of_length $((path_max - 2 - DUMP_LONGEST)))
PLOT_OK=$(path_of_length $((path_max - 2 - PLOT_LONGEST)))
HUGE_NAME=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "n"; print "" }')
TAB=$(printf '\t')

# The corpora and checkpoints of chapters 13 and 14's rows (issue 28): a
# short text, one distinct byte, 256 distinct bytes, a folder of .txt files
# with a FIFO among them, a sparse file one byte over the 64 MiB limit, and
# checkpoints whose shape.npy is a FIFO or claims (2^40, 2^20) in 128 bytes.
corpora() {
    awk 'BEGIN { for (i = 0; i < 9; i++) printf "A short text, too short. "; print "" }' \
        >"$W/short.txt"
    awk 'BEGIN { for (i = 0; i < 400; i++) printf "a" }' >"$W/one.txt"
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 256; i++) printf "%c", i }' >"$W/binary.bin"
    mkdir -p "$W/texts" "$W/ckfifo" "$W/ckhuge"
    cp "$W/short.txt" "$W/texts/a.txt" && cp "$W/short.txt" "$W/texts/b.txt"
    mkfifo "$W/texts/c.txt" "$W/ckfifo/shape.npy"
    : >"$W/big.txt" && truncate -s $((64 * 1048576 + 1)) "$W/big.txt"
    { printf '\223NUMPY\001\000\166\000'
      printf "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1048576), }"
      printf '%*s\n' 40 ''; } >"$W/ckhuge/shape.npy"
}

# A fresh working directory with the fixtures the table names, dated an
# hour back, and a stamp a minute back: whatever a case creates or changes
# is newer than the stamp (find -newer), even on coarse file-system clocks.
fixtures() {
    chmod -R u+w "$W" 2>/dev/null
    rm -rf "$W" && mkdir -p "$W/dir" "$W/ro" "$W/sides/ch13_sample.txt" "$W/sides/ch15_attention.tsv" "$W/curve/ch13_loss.tsv" "$W/curve/ch14_curves.tsv" "$W/curve/ch15_induction.tsv" || exit 1
    : >"$W/file"
    mkfifo "$W/fifo"
    corpora
    printf 'X1\tPASS\tch00\tkept\tas it was\tclaim\n' >"$W/claims.tsv"
    : >"$W/ro.tsv"
    printf 'ch14 v2|full\t1.5\nch14 v2|no mask\t7.7x\n' >"$W/garbled-runs.tsv"
    now=$(date +%s)
    find "$W" -exec touch -h -d "@$((now - 3600))" {} +
    touch -d "@$((now - 60))" "$T/stamp"
    chmod a-w "$W/ro" "$W/ro.tsv"
}

# fail DESCRIPTION WHY: one line for a case that did not hold
fail() {
    failed=$((failed + 1))
    printf 'bad-input: FAIL %s: %s\n' "$1" "$2" | cut -c1-400
}

# Whether FILE holds exactly one line, ended by a newline (shell builtins:
# read fails on a last line without its newline).
one_line() {
    { IFS= read -r first && ! IFS= read -r second && [ -z "$second" ]; } <"$1"
}

# disk_unchanged: appends to why what the last run created, changed or
# removed in the working directory (the fixture directories' own times
# aside: a start that fails after opening the claims file removes it again,
# which touches the directory)
disk_unchanged() {
    find "$W" -newer "$T/stamp" ! -path "$W" ! -path "$W/dir" ! -path "$W/ro" >"$T/changed"
    [ -s "$T/changed" ] && why="$why; created or changed $(head -c 100 "$T/changed")"
    [ -f "$W/file" ] && [ -p "$W/fifo" ] && [ -f "$W/claims.tsv" ] || why="$why; removed a fixture"
}

# outcome WANT: sets why to what is wrong with the last run ($got, $T/out,
# $T/err): empty when it exited WANT with one line on stderr, nothing on
# stdout, and nothing in the working directory is new or changed
outcome() {
    why=""
    [ "$got" = "$1" ] || why="exit $got, want $1"
    [ -s "$T/out" ] && why="$why; printed on stdout"
    one_line "$T/err" || why="$why; not exactly one line on stderr"
    disk_unchanged
    why=${why#; }
}

# The start of what the last run said on stderr, on one line.
said() { head -c 200 "$T/err" | tr '\n' ' '; }

# refusal WANT PROGRAM ARGS...: one case of part 1
refusal() {
    want=$1 prog=$2
    shift 2
    cases=$((cases + 1))
    cd "$W" && timeout 20 "$prog" "$@" >"$T/out" 2>"$T/err" </dev/null
    got=$?
    cd "$T" || exit 1
    outcome "$want"
    if [ -n "$why" ]; then
        fail "$(short_name "$prog") $(printf '%.120s' "$*")" "$why ($(said))"
        fixtures
    fi
}

# The chapter options of PROGRAM's --help: "name N|X|F default min max".
options_of() {
    sized='s/^  --\([a-z0-9-]*\) \([NX]\) .*(\([^;()]*\); \([^ ]*\) to \([^ )]*\))$/'
    "$1" --help | sed -n '/^chapter options:/,/^$/p' |
        sed -n -e "$sized\1 \2 \3 \4 \5/p" -e 's/^  --\([a-z0-9-]*\)   *[^ ].*/\1 F/p' |
        awk '!seen[$1]++'
}

# Bad values of one option (rows of part 1, generated).
option_rows() {
    prog=$1 name=$2 kind=$3 def=${4:-1} min=${5:-0} max=${6:-0}
    case $kind in
    F)
        refusal 2 "$prog" "--$name=1"
        return ;;
    N)
        for v in "" abc " $def" "$def " "+$def" -1 1.5 0x10 1e2 99999999999999999999999 \
            $((max + 1)); do
            refusal 2 "$prog" "--$name" "$v"
        done
        [ "$min" -gt 0 ] && refusal 2 "$prog" "--$name" $((min - 1)) ;;
    X)
        for v in "" abc " $def" "$def " nan inf -inf 0x1p-1 1e999 \
            "$(awk -v m="$max" 'BEGIN { print m * 2 + 1 }')" \
            "$(awk -v m="$min" 'BEGIN { print m - 1 }')"; do
            refusal 2 "$prog" "--$name" "$v"
        done ;;
    esac
    refusal 2 "$prog" "--$name"
}

# An abbreviation that fits two of the program's long options, if any.
ambiguous_prefix() {
    { options_of "$1" | cut -d' ' -f1
      printf '%s\n' seed quiet dump plot-dir no-plot claims help; } |
        awk '{ n[NR] = $0; full[$0] = 1 }
             END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
                       for (l = 1; l < length(n[i]); l++) {
                           p = substr(n[i], 1, l)
                           if (p == substr(n[j], 1, l) && !(p in full)) { print p; exit }
                       } }'
}

# The table's rows for one program.
table_rows() {
    prog=$1 name=$(short_name "$1")
    grep -v '^[[:space:]]*\(#\|$\|quick \)' "$table" | while IFS= read -r row; do
        set -f
        # shellcheck disable=SC2086
        set -- $row
        set +f
        want=$1 who=$2
        [ "$who" = all ] || [ "$who" = "$name" ] || continue
        if [ "$want" = "2!" ] && [ "$(id -u)" -eq 0 ]; then
            skipped=$((skipped + 1))
        else
            eval "set -- $(printf '%s\n' "$row" | sed 's/^[^ ]*  *[^ ]*  *//')"
            refusal "${want%!}" "$prog" "$@"
        fi
        echo "$cases $failed $skipped" >"$T/counts"
    done
    read -r cases failed skipped <"$T/counts"
}

# The arguments of a short real run of PROGRAM (the table's "quick" lines).
quick_args() {
    sed -n "s/^quick $(short_name "$1") //p" "$table"
}

# help_why PROGRAM: sets why to what is wrong with PROGRAM --help, which
# must print its text and do nothing else (the help case of part 1)
help_why() {
    prog=$1 why=""
    cd "$W" && timeout 20 "$prog" --help >"$T/out" 2>"$T/err" </dev/null
    got=$?
    cd "$T" || exit 1
    [ "$got" = 0 ] || why="exit $got, want 0"
    [ -s "$T/err" ] && why="$why; printed on stderr"
    head -1 "$T/out" | grep -q '^usage: ' || why="$why; no usage line first"
    tail -1 "$T/out" | grep -q '^  --help ' || why="$why; more after the help text"
    disk_unchanged
    why=${why#; }
}

# Part 1 for one program.
refusals() {
    prog=$1
    echo "$cases $failed $skipped" >"$T/counts"
    cases=$((cases + 1))
    help_why "$prog"
    [ -z "$why" ] || { fail "$(short_name "$prog") --help" "$why"; fixtures; }
    table_rows "$prog"
    options_of "$prog" >"$T/options"
    while read -r name kind def min max; do
        option_rows "$prog" "$name" "$kind" "$def" "$min" "$max"
    done <"$T/options"
    prefix=$(ambiguous_prefix "$prog")
    [ -n "$prefix" ] && refusal 2 "$prog" "--$prefix" 1
    environment_rows "$prog"
}

# A bad INVENT_THREADS or INVENT_SIMD: refused by the programs that run the
# kernels (ch11, the benchmark) before their outputs are made (issue 28).
environment_rows() {
    case $(short_name "$1") in ch11 | bench) ;; *) return ;; esac
    for threads in 0 65 abc ''; do
        export INVENT_THREADS="$threads"
        refusal 2 "$1" --claims new.tsv --dump new-dump --plot-dir new-plots
        unset INVENT_THREADS
    done
    export INVENT_SIMD=sse9
    refusal 2 "$1" --claims new.tsv --dump new-dump
    unset INVENT_SIMD
}

# Whether every .npy under $1 is whole: 10 + header + shape x item bytes.
npy_whole() {
    for f in "$1"/*.npy; do
        [ -f "$f" ] || continue
        hl=$(od -An -tu2 -j8 -N2 "$f" | tr -d ' ')
        header=$(dd if="$f" bs=1 skip=10 count="$hl" 2>/dev/null)
        item=8
        case $header in *"'<f4'"*) item=4 ;; esac
        count=$(printf '%s\n' "$header" | sed 's/.*(\([^)]*\)).*/\1/' |
            awk -F, '{ n = 1; for (i = 1; i <= NF; i++) if ($i ~ /[0-9]/) n *= $i; print n }')
        [ "$(wc -c <"$f")" -eq $((10 + hl + count * item)) ] || { echo "$f"; return 1; }
    done
}

# Bytes that a file-size limit of `ulimit -f 1` lets through (512 or 1024).
limit_bytes() {
    (trap '' XFSZ; ulimit -f 1; head -c 4096 /dev/zero >"$T/probe") 2>/dev/null
    wc -c <"$T/probe"
}

# claims_nothing PROGRAM ARGS...: whether a run that succeeds writes no claim at all
# (chapter 15's quick run claims nothing: a claims file it cannot write is then no
# error, and it exits 0 having said nothing)
claims_nothing() {
    prog=$1
    shift
    rm -f "$T/probe.tsv"
    (cd "$W" && exec timeout 60 "$prog" "$@" --quiet --no-plot --claims "$T/probe.tsv" \
        >/dev/null 2>&1) && [ ! -s "$T/probe.tsv" ]
}

# Part 2 for one program.
write_failures() {
    prog=$1 name=$(short_name "$1")
    quick=$(quick_args "$prog")
    cases=$((cases + 5))
    # shellcheck disable=SC2086
    (cd "$W" && exec timeout 60 "$prog" $quick --quiet --no-plot --claims /dev/full \
        >"$T/out" 2>"$T/err")
    got=$?
    # shellcheck disable=SC2086
    if [ "$got" = 0 ] && [ ! -s "$T/err" ] && claims_nothing "$prog" $quick; then
        nothing=1 why=""
    else
        nothing=0
        outcome 3
    fi
    [ -z "$why" ] || { fail "$name --claims /dev/full" "$why"; fixtures; }
    # shellcheck disable=SC2086
    (cd "$W" && exec timeout 60 "$prog" $quick --no-plot >/dev/full 2>"$T/err")
    got=$?
    : >"$T/out"
    outcome 3
    [ -z "$why" ] || { fail "$name >/dev/full" "$why"; fixtures; }
    (cd "$W" && exec timeout 20 "$prog" --help >/dev/full 2>"$T/err")
    got=$?
    : >"$T/out"
    outcome 3
    [ -z "$why" ] || { fail "$name --help >/dev/full" "$why"; fixtures; }
    dump_over_limit "$prog" "$quick"
    claims_over_limit "$prog" "$quick"
}

# A dump under a file-size limit: exit 3 with one line when a tensor is over
# it (0 when none is), every file left whole, no temporary file left.
dump_over_limit() {
    prog=$1 name=$(short_name "$1") limit=$(limit_bytes)
    # shellcheck disable=SC2086
    (cd "$T" && rm -rf d0 d && timeout 60 "$prog" $2 --quiet --no-plot --dump d0 >/dev/null 2>&1)
    want=0
    for f in "$T"/d0/*; do [ -f "$f" ] && [ "$(wc -c <"$f")" -gt "$limit" ] && want=3; done
    # shellcheck disable=SC2086
    (cd "$T" && trap '' XFSZ && ulimit -f 1 &&
        exec timeout 60 "$prog" $2 --quiet --no-plot --dump d >"$T/out" 2>"$T/err")
    got=$?
    why=""
    [ "$got" = "$want" ] || why="exit $got, want $want"
    [ "$want" = 0 ] || [ "$(wc -l <"$T/err")" -eq 1 ] || why="$why; not one line on stderr"
    broken=$(npy_whole "$T/d") || why="$why; a partial file: $broken"
    ls -A "$T/d" 2>/dev/null | grep -q 'tmp-' && why="$why; a temporary file left"
    [ -z "$why" ] || fail "$name --dump over a file-size limit of $limit bytes" "${why#; }"
}

# Claims under a file-size limit, the file almost full: exit 3 with one line,
# the file still made of whole lines.
claims_over_limit() {
    prog=$1 name=$(short_name "$1") limit=$(limit_bytes)
    awk -v n=$((limit - 100)) 'BEGIN { for (i = 0; i < n / 10; i++) print "#23456789" }' \
        >"$T/claims.tsv"
    # shellcheck disable=SC2086
    (cd "$T" && trap '' XFSZ && ulimit -f 1 &&
        exec timeout 60 "$prog" $2 --quiet --no-plot --claims claims.tsv >"$T/out" 2>"$T/err")
    got=$?
    why=""
    if [ "$nothing" = 1 ]; then # claims nothing: the file stays as it was
        [ "$got" = 0 ] && [ ! -s "$T/err" ] || why="exit $got, want 0 and nothing said"
    else
        [ "$got" = 3 ] || why="exit $got, want 3"
        [ "$(wc -l <"$T/err")" -eq 1 ] || why="$why; not one line on stderr"
    fi
    [ "$(tail -c 1 "$T/claims.tsv" | od -An -c | tr -d ' ')" = '\n' ] ||
        why="$why; a partial line at the end of the claims file"
    awk -F'\t' '!/^#/ && NF != 6 { exit 1 }' "$T/claims.tsv" || why="$why; a broken claims line"
    [ -z "$why" ] || fail "$name --claims over a file-size limit of $limit bytes" "${why#; }"
}

# good CASE PROGRAM ARGS...: a run that must succeed (exit 0) and write FILE
good() {
    file=$1 prog=$2
    shift 2
    cases=$((cases + 1))
    rm -rf "$T/g" && mkdir "$T/g"
    (cd "$T/g" && exec timeout 120 "$prog" "$@" >"$T/out" 2>"$T/err")
    got=$?
    [ "$got" = 0 ] && [ -e "$T/g/$file" ] && return
    written=missing
    [ -e "$T/g/$file" ] && written=written
    fail "$(short_name "$prog") $(printf '%.100s' "$*")" "exit $got, $file $written ($(said))"
}

# Part 3, on the first program that dumps something and the first with a figure.
paths_that_work() {
    for prog in $programs; do
        q=$(quick_args "$prog")
        # shellcheck disable=SC2086
        (cd "$T" && rm -rf d0 && timeout 60 "$prog" $q --quiet --no-plot --dump d0 >/dev/null 2>&1)
        first=$(ls "$T/d0" 2>/dev/null | head -1)
        [ -n "$first" ] || continue
        # shellcheck disable=SC2086
        good "it's \"q\"/$first" "$prog" $q --quiet --no-plot --dump "it's \"q\"" \
            --claims "it's.tsv"
        # shellcheck disable=SC2086
        good "$DUMP_OK/$first" "$prog" $q --quiet --no-plot --dump "$DUMP_OK"
        break
    done
    command -v gnuplot >/dev/null 2>&1 || { skipped=$((skipped + 2)); return; }
    for prog in $programs; do
        q=$(quick_args "$prog")
        # shellcheck disable=SC2086
        (cd "$T" && rm -rf p0 && timeout 120 "$prog" $q --quiet --plot-dir p0 >/dev/null 2>&1)
        first=$(cd "$T/p0" 2>/dev/null && ls -- *.png 2>/dev/null | head -1)
        [ -n "$first" ] || continue
        # shellcheck disable=SC2086
        good "it's; \"q\"/$first" "$prog" $q --quiet --plot-dir "it's; \"q\""
        # shellcheck disable=SC2086
        good "$PLOT_OK/$first" "$prog" $q --quiet --plot-dir "$PLOT_OK"
        break
    done
}

# Part 4: each of these must be caught by `outcome` or `help_why`.
# A save over a checkpoint on a nearly full disk (issue 28): a 400 KiB tmpfs
# holds one checkpoint of chapter 13's quick model (270 KB), not a second
# beside it; the second save is refused before any work (exit 2, one line)
# and the first checkpoint stays as it was, nothing else left. Needs a tmpfs
# mount (root, as in CI); says so and skips where mounting fails.
full_disk_save() {
    prog=""
    for p in $programs; do [ "$(short_name "$p")" = ch13 ] && prog=$p; done
    [ -n "$prog" ] || return
    mkdir -p "$T/small"
    if ! mount -t tmpfs -o size=400k tmpfs "$T/small" 2>/dev/null; then
        echo "bad-input: no tmpfs could be mounted (not root?): the full-disk save case skipped"
        skipped=$((skipped + 1))
        return
    fi
    cases=$((cases + 1))
    why=""
    (cd "$T" && exec timeout 120 "$prog" --quiet --no-plot --save small/ck >/dev/null 2>&1) ||
        why="the first save: exit $?"
    (cd "$T/small" && cksum ck/* >"$T/before" 2>/dev/null)
    (cd "$T" && exec timeout 120 "$prog" --quiet --no-plot --seed 2 --save small/ck \
        >"$T/out" 2>"$T/err")
    got=$?
    [ "$got" = 2 ] || why="$why; exit $got, want 2"
    one_line "$T/err" || why="$why; not exactly one line on stderr"
    (cd "$T/small" && cksum ck/* >"$T/after" 2>/dev/null)
    cmp -s "$T/before" "$T/after" || why="$why; the first checkpoint changed"
    [ "$(ls -A "$T/small")" = ck ] || why="$why; left in the tmpfs: $(ls -A "$T/small" | head -c 100)"
    umount "$T/small"
    why=${why#; }
    [ -z "$why" ] || fail "ch13 --save over a checkpoint on a full tmpfs" "$why ($(said))"
}

controls() {
    cases=$((cases + 1))
    printf '#!/bin/sh\nprintf "usage: x\\n  --help  show this help\\nChapter 1\\n"\n' >"$T/runs"
    chmod +x "$T/runs"
    help_why "$T/runs"
    [ -n "$why" ] || fail "control help-runs" "a --help that goes on to run was not noticed"
    prog=$(echo $programs | cut -d' ' -f1)
    for c in help dump lines; do
        cases=$((cases + 1))
        fixtures
        case $c in
        help) (cd "$W" && "$prog" --help) ;;
        dump) (cd "$W" && "$prog" --quiet --no-plot --dump new) ;;
        lines) printf 'one\ntwo\n' >&2 ;;
        esac >"$T/out" 2>"$T/err"
        got=2 # the status is not what these controls test
        outcome 2
        [ -n "$why" ] || fail "control $c" "the checks did not notice it"
    done
    fixtures
}

# Parts 1 and 2 for every other program, from FIRST (0 or 1), in the
# directory $TOP/FIRST; the counts go to its file "result".
share() {
    T=$TOP/$1 W=$TOP/$1/w
    mkdir -p "$T" && fixtures
    i=0
    for prog in $programs; do
        if [ $((i % 2)) -eq "$1" ]; then
            refusals "$prog"
            write_failures "$prog"
        fi
        i=$((i + 1))
    done
    echo "$cases $failed $skipped" >"$T/result"
}

share 0 &
share 1 &
wait
for s in 0 1; do
    read -r c f k <"$TOP/$s/result" || { echo "bad-input: share $s did not finish" >&2; exit 1; }
    cases=$((cases + c)) failed=$((failed + f)) skipped=$((skipped + k))
done
T=$TOP/main W=$TOP/main/w
mkdir -p "$T" && fixtures
paths_that_work
full_disk_save
controls
n=$(echo $programs | wc -w)
if [ "$failed" -gt 0 ]; then
    echo "bad-input: $failed of $cases cases failed ($n programs)"
    exit 1
fi
echo "bad-input: $cases cases on $n programs, each refused or failed as it should; \
4 controls caught; $skipped skipped (as root, or without gnuplot) ($(($(date +%s) - start)) s)"
