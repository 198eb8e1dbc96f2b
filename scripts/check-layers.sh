#!/bin/sh
# The library's layers form the graph of LIBDIR/layers.txt: a file in
# lib/<layer>/ may include the headers of its own layer and of the layers its
# line names, and nothing else of lib/. Headers are named by file name only
# (the -I paths decide what a file can see), and no header name is in two layers.
# Inside a layer the includes form layers too: no file includes a file that
# includes it back, directly or through others, where a file's .c and .h
# count as one (so a job header that a kernel's .c includes may not include
# the kernel's .h).
#   scripts/check-layers.sh [LIBDIR]        check lib/ or a copy of it (exit 1 on a violation)
#   scripts/check-layers.sh --controls CC LAYER=INCLUDE_FLAGS...
#       the near misses that must be refused, each twice: by this check on a
#       copy of lib/, and by the compiler given that layer's flags from the
#       Makefile (the file as it is must compile with them); a back-arrow
#       inside a layer, which no -I flag can refuse, by the check alone
set -u

# Include cycles inside a layer not yet undone, in files another branch
# owns, as "layer: names in the order of their paths" separated by ";". An
# entry that is no longer a cycle fails the check, so it goes with the cycle.
# None is left (the training attention's and gemm32's went as decode's did).
known_cycles=""

# the layers of graph file $1, lowest first
layers_of() {
    sed -n 's/^\([a-z]*\):.*/\1/p' "$1"
}

# LIBDIR -> exit 1 with one line per include the graph does not allow
check() {
    lib=$1 graph=$1/layers.txt bad=0
    [ -f "$graph" ] || { echo "layers: no graph $graph" >&2; return 1; }
    layers=$(layers_of "$graph")
    for d in "$lib"/*/; do
        d=$(basename "$d")
        echo "$layers" | grep -qx "$d" || { echo "layers: $lib/$d is in no line of $graph" >&2; bad=1; }
    done
    for l in $layers; do
        [ -d "$lib/$l" ] || { echo "layers: missing layer folder $lib/$l" >&2; bad=1; }
    done
    loose=$(find "$lib" -maxdepth 1 -name '*.c')
    [ -z "$loose" ] || { echo "layers: source files outside any layer: $loose" >&2; bad=1; }
    owners=$(mktemp)
    for l in $layers; do
        [ -d "$lib/$l" ] && find "$lib/$l" -name '*.h' | sed "s|.*/|$l |"
    done > "$owners"
    twice=$(cut -d' ' -f2 "$owners" | sort | uniq -d)
    [ -z "$twice" ] || { echo "layers: header names in two layers: $twice" >&2; bad=1; }
    # the graph, then "layer header" for every header, then every file of every layer
    awk -v lib="$lib" -v graph="$graph" -v owners="$owners" '
        FILENAME == graph {
            if ($0 ~ /^[a-z]+:/) { l = $1; sub(/:$/, "", l); $1 = ""; allowed[l] = " " l " " $0 " " }
            next
        }
        FILENAME == owners { owner[$2] = $1; next }
        /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
            h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
            f = FILENAME; l = substr(f, length(lib) + 2); sub(/\/.*/, "", l)
            if (h ~ /\//) {
                print "layers: " f " includes \"" h "\": name a header by its file name only" > "/dev/stderr"
                bad = 1
            } else if ((h in owner) && index(allowed[l], " " owner[h] " ") == 0) {
                print "layers: " f " (layer " l ") includes " h " of layer " owner[h] ", which " l " may not include" > "/dev/stderr"
                bad = 1
            }
        }
        END { exit bad }' "$graph" "$owners" \
        $(for l in $layers; do [ -d "$lib/$l" ] && find "$lib/$l" -name '*.[ch]' -o -name '*.cu'; done) || bad=1
    rm -f "$owners"
    for l in $layers; do
        [ -d "$lib/$l" ] && { cycles "$lib/$l" "$l" || bad=1; }
    done
    return $bad
}

# DIR LAYER -> exit 1 with one line per include cycle among DIR's files
# (X.c and X.h one node; an edge where a file includes a header of DIR) that
# known_cycles does not list, and per entry of LAYER there that is no cycle
cycles() {
    find "$1" \( -name '*.[ch]' -o -name '*.cu' \) | sort | xargs awk -v layer="$2" -v known="$known_cycles" '
        function node(p) { sub(/.*\//, "", p); sub(/\.(c|h|cu)$/, "", p); if (!(p in id)) { id[p] = ++n; name[n] = p }; return id[p] }
        BEGIN {
            for (i = 1; i < ARGC; i++) { node(ARGV[i]); h = ARGV[i]; sub(/.*\//, "", h); if (h ~ /\.h$/) mine[h] = 1 }
            k = split(known, entry, ";")
            for (i = 1; i <= k; i++) { e = entry[i]; sub(/^ +/, "", e); sub(/ +$/, "", e); if (index(e, layer ":") == 1) listed[e] = 1 }
        }
        /^[[:space:]]*#[[:space:]]*include[[:space:]]*"/ {
            h = $0; sub(/^[^"]*"/, "", h); sub(/".*/, "", h)
            a = node(FILENAME); b = node(h)
            if ((h in mine) && a != b && !((a, b) in why)) {
                f = FILENAME; sub(/.*\//, "", f)
                why[a, b] = f " includes " h; out[a] = out[a] " " b
            }
        }
        END {
            for (i = 1; i <= n; i++) {          # reach[i, j]: a path of includes from i to j
                tail = split(out[i], q, " "); for (x = 1; x <= tail; x++) reach[i, q[x]] = 1
                for (head = 1; head <= tail; head++) {
                    m = split(out[q[head]], next_, " ")
                    for (x = 1; x <= m; x++) if (!((i, next_[x]) in reach)) { reach[i, next_[x]] = 1; q[++tail] = next_[x] }
                }
            }
            for (i = 1; i <= n; i++) {
                if (!((i, i) in reach)) continue
                key = layer ":"; first = 1; said = ""
                for (j = 1; j <= n; j++) if ((i, j) in reach && (j, i) in reach) { key = key " " name[j]; if (j < i) first = 0; member[j] = i }
                if (!first) continue
                for (a = 1; a <= n; a++) for (b = 1; b <= n; b++)
                    if (member[a] == i && member[b] == i && (a, b) in why) said = said "; " why[a, b]
                if (key in listed) { seen[key] = 1; continue }
                print "layers: include cycle in " layer " (" substr(key, length(layer) + 3) "): " substr(said, 3) > "/dev/stderr"
                bad = 1
            }
            for (e in listed) if (!(e in seen)) { print "layers: known cycle \"" e "\" is no cycle any more: remove it from known_cycles" > "/dev/stderr"; bad = 1 }
            exit bad
        }'
}

# control NAME FILE HEADER [WHO]: FILE (under lib/) including HEADER must be
# refused by check on a copy of lib/ and, unless WHO is "check", by the
# compiler with the flags of FILE's layer (FILE as it is must compile with them)
control() {
    t=$(mktemp -d) && cp -r lib "$t/" && echo "#include \"$3\"" >> "$t/$2" || return 1
    layer=${2#lib/} layer=${layer%%/*}
    flags=$(eval "echo \"\${flags_$layer:-}\"")
    out=0 by="the check"
    if (check "$t/lib") 2>/dev/null; then
        echo "layers: the check passed $1: $2 includes $3" >&2; out=1
    fi
    if [ "${4:-}" != check ]; then
        by="the check and by the compiler"
        if [ -z "$flags" ] || ! $cc $flags -fsyntax-only "$2" 2>/dev/null; then
            echo "layers: $2 does not compile with layer $layer's flags ($flags) even without the include" >&2; out=1
        elif $cc $flags -fsyntax-only "$t/$2" 2>/dev/null; then
            echo "layers: the compiler accepted $1: $2 includes $3 with flags $flags" >&2; out=1
        fi
    fi
    rm -rf "$t"
    [ $out -eq 0 ] && echo "layers: control refused by $by: $1 ($2 includes $3)"
    return $out
}

# a cycle left in known_cycles after it was undone (decode's, undone by
# issue 27; the training attention's and gemm32's by issue 22) must be refused by check
stale_control() {
    if (known_cycles="kernels: attn_decode decode_job" check lib) 2>/dev/null; then
        echo "layers: the check passed a stale entry of known_cycles" >&2
        return 1
    fi
    echo "layers: control refused by the check: a stale entry of known_cycles"
}

if [ "${1:-}" = --controls ]; then
    cc=$2
    shift 2
    for a in "$@"; do eval "flags_${a%%=*}=\"\${a#*=}\""; done
    bad=0
    control "an upward include" lib/core/mat.c heads.h || bad=1
    control "an upward include" lib/kernels/workers.c block.h || bad=1
    control "a sideways include" lib/model/softmax.c plot.h || bad=1
    control "a sideways include" lib/toys/params.c corpus.h || bad=1
    control "an upward include" lib/data/corpus.c train_step.h || bad=1
    control "a path around the -I flags" lib/model/softmax.c ../runtime/plot.h check || bad=1
    control "a back-arrow inside a layer" lib/kernels/sparse_job.h attn_sparse.h check || bad=1
    control "a cycle through another file" lib/kernels/attn_kernels.h decode_measure.h check || bad=1
    control "a back-arrow inside a layer" lib/runtime/report.h cli.h check || bad=1
    stale_control || bad=1
    exit $bad
fi

lib=${1:-lib}
check "$lib" || exit 1
[ "$lib" = lib ] && echo "layers: every include follows lib/layers.txt ($(sed -n 's/^\([a-z]*\): *$/\1/p; s/^\([a-z]*\): *\(..*\)/\1 on \2/p' lib/layers.txt | paste -sd ';' | sed 's/;/; /g'))"
exit 0
