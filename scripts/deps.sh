#!/bin/sh
# Installs the Debian packages the project needs, only when one is missing.
#   scripts/deps.sh [browser]          install what is missing (root or sudo),
#                                      else print the command to run and exit 2
#   scripts/deps.sh --check [browser]  exit 0 when everything is present, 1 otherwise
# browser: instead of the packages every target needs, Chromium's headless
# shell, which only the gallery's check in a real browser needs (make test's
# kit-check): about 100 MB to download, 290 MB installed.
set -u
PACKAGES="libgsl-dev libopenblas-dev gnuplot-nox fonts-dejavu-core libcriterion-dev pkg-config qpdf poppler-utils libxml2-utils fortunes"
check=""
for a in "$@"; do
    case $a in
        --check) check=1 ;;
        browser) PACKAGES="chromium-headless-shell" ;;
        *) echo "usage: scripts/deps.sh [--check] [browser]" >&2; exit 2 ;;
    esac
done

missing() {
    out=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || out="$out $p"
    done
    echo "$out"
}

need=$(missing)
if [ -z "$need" ]; then
    [ -n "$check" ] || echo "deps: all present ($PACKAGES)"
    exit 0
fi
[ -n "$check" ] && exit 1

cmd="apt-get update && apt-get install -y --no-install-recommends$need"
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing$need"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $need >/dev/null \
        || { echo "deps: installation failed; run: $cmd" >&2; exit 2; }
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "deps: installing$need (sudo)"
    sudo -n sh -c "DEBIAN_FRONTEND=noninteractive apt-get update -qq && apt-get install -y -qq --no-install-recommends$need" >/dev/null \
        || { echo "deps: installation failed; run: sudo sh -c '$cmd'" >&2; exit 2; }
else
    echo "deps: missing$need; run as root: $cmd" >&2
    exit 2
fi
