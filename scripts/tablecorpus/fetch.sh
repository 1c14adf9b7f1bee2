#!/usr/bin/env bash
# fetch.sh DIR: download the Debian packages that pool.tsv draws recordings from and extract each
# into DIR/PACKAGE (nothing is installed). Needs apt-get and dpkg-deb; about 1.5 GB of downloads.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: scripts/tablecorpus/fetch.sh DIR" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
cd "$debs"
for p in $(grep -v '^#' "$here/pool.tsv" | cut -f2 | sort -u); do
  [ -d "$dir/$p" ] && continue
  echo "fetching $p" >&2
  apt-get download -q "$p" >/dev/null
  dpkg-deb -x "$(ls "${p}"_*.deb | head -1)" "$dir/$p"
done
