#!/bin/sh
# The gallery in a real browser (Debian's Chromium headless shell), at the
# width of a phone and of a laptop:
#   scripts/gallery-fit.sh PAGE OUT_DIR [WIDTH...]     (widths: 390 1280)
# For each width W, OUT_DIR/gallery-W.png is a screenshot of the top 2000 px
# of PAGE in a window W px wide (the navigation and the first figures), and the page, loaded with its figures in such a
# window, is measured by a probe script: the document's scroll width and the
# right edge of every element against the window's inner width. It fits
# when nothing reaches past the window. Prints one line a width; exit 1 when
# a width overflows (naming the element that reaches furthest), 2 on bad
# input, 3 when the browser cannot run.
set -u
[ $# -ge 2 ] || { echo "usage: scripts/gallery-fit.sh PAGE OUT_DIR [WIDTH...]" >&2; exit 2; }
page=$1 out=$2
shift 2
[ -f "$page" ] || { echo "gallery-fit: no page '$page' (run make gallery)" >&2; exit 2; }
for w in "$@"; do
    case $w in '' | *[!0-9]*) echo "gallery-fit: width '$w' is not a number of pixels" >&2; exit 2 ;; esac
done
[ $# -gt 0 ] || set -- 390 1280
browser=$(command -v chromium-headless-shell || command -v chromium) ||
    { echo "gallery-fit: no Chromium (make deps-browser installs chromium-headless-shell)" >&2; exit 3; }
mkdir -p "$out" || exit 3
dir=$(cd "$(dirname "$page")" && pwd) probe="$dir/.gallery-fit-probe.html"
trap 'rm -f "$probe"' EXIT

# the page with a script that, once every figure is loaded, writes into the
# title: the window's width, the document's, the furthest right edge, and the
# element that has it (in the nearest element above it with an id, or in its
# section of the body)
sed 's|</body>|<script>\
window.addEventListener("load", function () {\
    var all = document.body.getElementsByTagName("*"), right = 0, far = null;\
    for (var i = 0; i < all.length; i++) {\
        var r = all[i].getBoundingClientRect().right;\
        if (r > right) { right = r; far = all[i]; }\
    }\
    var name = far ? far.tagName.toLowerCase() : "none", up = far;\
    while (up \&\& !up.id \&\& up.parentElement !== document.body) up = up.parentElement;\
    if (up \&\& up !== far) name += " in " + (up.id ? "#" + up.id : up.tagName.toLowerCase());\
    document.title = "fit " + window.innerWidth + " " + document.documentElement.scrollWidth + " " + Math.ceil(right) + " " + name;\
});\
</script></body>|' "$page" >"$probe" || exit 3

# chromium WIDTH HEIGHT ARGS... (its own chatter on stderr dropped)
chromium() {
    _w=$1 _h=$2
    shift 2
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$_w,$_h" \
        --virtual-time-budget=10000 "$@" 2>/dev/null
}
fail=0
for w in "$@"; do
    chromium "$w" 2000 --screenshot="$out/gallery-$w.png" "file://$dir/$(basename "$page")" >/dev/null ||
        { echo "gallery-fit: the browser could not take a screenshot at $w px" >&2; exit 3; }
    m=$(chromium "$w" 900 --dump-dom "file://$probe" | sed -n 's|.*<title>fit \([^<]*\)</title>.*|\1|p')
    read -r inner doc right name <<EOF
$m
EOF
    [ -n "${name:-}" ] || { echo "gallery-fit: the probe did not run at $w px" >&2; exit 3; }
    if [ "$inner" -ne "$w" ]; then
        echo "gallery-fit: a window of $w px has an inner width of $inner px" >&2; exit 3
    elif [ "$doc" -gt "$inner" ] || [ "$right" -gt "$inner" ]; then
        echo "gallery-fit: at $w px the page is $doc px wide; $name reaches $right px" >&2; fail=1
    else
        echo "gallery-fit: at $w px the page is $doc px wide, nothing past $right px; $out/gallery-$w.png"
    fi
done
exit $fail
