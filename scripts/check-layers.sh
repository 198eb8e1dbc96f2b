#!/bin/sh
# The library's layers form the graph of LIBDIR/layers.txt: a file in
# lib/<layer>/ may include the headers of its own layer and of the layers its
# line names, and nothing else of lib/. Headers are named by file name only
# (the -I paths decide what a file can see), and no header name is in two layers.
#   scripts/check-layers.sh [LIBDIR]        check lib/ or a copy of it (exit 1 on a violation)
#   scripts/check-layers.sh --controls CC LAYER=INCLUDE_FLAGS...
#       the near misses that must be refused, each twice: by this check on a
#       copy of lib/, and by the compiler given that layer's flags from the
#       Makefile (the file as it is must compile with them)
set -u

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
    return $bad
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

if [ "${1:-}" = --controls ]; then
    cc=$2
    shift 2
    for a in "$@"; do eval "flags_${a%%=*}=\"\${a#*=}\""; done
    bad=0
    control "an upward include" lib/core/mat.c heads.h || bad=1
    control "a sideways include" lib/kernels/workers.c block.h || bad=1
    control "a sideways include" lib/model/softmax.c plot.h || bad=1
    control "a path around the -I flags" lib/model/softmax.c ../runtime/plot.h check || bad=1
    exit $bad
fi

lib=${1:-lib}
check "$lib" || exit 1
[ "$lib" = lib ] && echo "layers: every include follows lib/layers.txt ($(sed -n 's/^\([a-z]*\): *$/\1/p; s/^\([a-z]*\): *\(..*\)/\1 on \2/p' lib/layers.txt | paste -sd ';' | sed 's/;/; /g'))"
exit 0
