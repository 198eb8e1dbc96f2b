#!/bin/sh
# Installs the Debian packages the project needs, only when one is missing.
#   scripts/deps.sh          install what is missing (root or sudo), else
#                            print the command to run and exit 2
#   scripts/deps.sh --check  exit 0 when everything is present, 1 otherwise
set -u
PACKAGES="libgsl-dev libopenblas-dev gnuplot-nox fonts-dejavu-core libcriterion-dev pkg-config qpdf poppler-utils libxml2-utils fortunes"

missing() {
    out=""
    for p in $PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || out="$out $p"
    done
    echo "$out"
}

need=$(missing)
if [ -z "$need" ]; then
    [ "${1:-}" = "--check" ] || echo "deps: all present ($PACKAGES)"
    exit 0
fi
[ "${1:-}" = "--check" ] && exit 1

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
