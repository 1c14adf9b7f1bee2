#!/usr/bin/env bash
# Makes the augmented training tables of the gesture network,
# audio/gesture/testdata/aug-CONDITION.csv.gz: the development corpus and the
# synthetic training sets, put through what real party microphones do (the
# conditions of scripts/robustness: noise gates, digital silence first, noise,
# reverb, hum, 8 kHz), then measured by the current front end; one row in
# four is kept, so that the plain recordings keep their weight.
#
#   scripts/augment/augment.sh HELD_DIR [CONDITION...]
#
# HELD_DIR holds the training sets heldA, heldB, heldC ... heldI made by scripts/synthcorpus
# (its README lists the commands); the development corpus is
# ../shared/corpus/gestures. Without CONDITIONs it makes every table below.
# The recordings are written to a temporary directory (about 5 GB) and removed.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/augment/augment.sh HELD_DIR [CONDITION...]" >&2
  exit 2
fi
held=$1
shift
conditions=("$@")
if [ ${#conditions[@]} -eq 0 ]; then
  conditions=(gate-zero-fast gate-zero-slow gate-duck30 gate-duck30-slow zeros-first
    pink-20dB babble-20dB babble-gate reverb hum-50Hz-harm-30dB rate-8k)
fi
sets=(../shared/corpus/gestures)
for s in heldA heldB heldC heldD heldE heldF heldG heldH heldI; do
  [ -d "$held/$s" ] || { echo "augment: $held/$s is missing (scripts/synthcorpus/README.md)" >&2; exit 2; }
  sets+=("$held/$s")
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tableref" ./cmd/tableref
go build -o "$tmp/train" ./audio/gesture/internal/train
only=$(IFS=,; echo "${conditions[*]}")
for s in "${sets[@]}"; do
  echo "augment: $s" >&2
  go run ./scripts/robustness -corpus "$s" -no-default -bin "$tmp/tableref" -only "$only" -keep "$tmp/keep" >/dev/null
done
for c in "${conditions[@]}"; do
  dirs=$(ls -d "$tmp/keep/$c"/* | tr '\n' ',' | sed 's/,$//')
  echo "augment: measuring $c" >&2
  "$tmp/train" features -every 4 -corpus "$dirs" -out "audio/gesture/testdata/aug-$c.csv.gz"
  rm -rf "${tmp:?}/keep/$c"
done
