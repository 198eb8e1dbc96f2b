#!/bin/sh
# The library's layers, lowest first. A file in lib/<layer>/ may include the
# headers of its own layer and of the layers below it, never of a higher one.
#   scripts/check-layers.sh            check lib/ (exit 1 on a violation)
#   scripts/check-layers.sh LIBDIR     check another tree (the self-test)
set -u
lib=${1:-lib}
layers="core runtime model learn kernels"

rank() {
    i=0
    for l in $layers; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
    echo -1
}

# The layer that owns header $1, or nothing if no layer has it (a system header).
owner() {
    for l in $layers; do
        [ -f "$lib/$l/$1" ] && { echo "$l"; return; }
    done
}

bad=0
loose=$(find "$lib" -maxdepth 1 -name '*.c')
if [ -n "$loose" ]; then
    echo "layers: source files outside any layer: $loose" >&2
    bad=1
fi
for l in $layers; do
    [ -d "$lib/$l" ] || { echo "layers: missing layer folder $lib/$l" >&2; bad=1; continue; }
    mine=$(rank "$l")
    for f in $(find "$lib/$l" -name '*.[ch]' -o -name '*.cu'); do
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            o=$(owner "$h")
            [ -n "$o" ] || continue
            if [ "$(rank "$o")" -gt "$mine" ]; then
                echo "layers: $f (layer $l) includes $h of the higher layer $o" >&2
                bad=1
            fi
        done
    done
done
[ $bad -eq 0 ] && [ "$lib" = lib ] && echo "layers: every include points down ($layers)"
exit $bad
