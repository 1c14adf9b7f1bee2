#!/usr/bin/env bash
# Makes the augmented training tables of the gesture networks.
#
#   scripts/augment/augment.sh HELD_DIR [CONDITION...]
#   scripts/augment/augment.sh --narrow HELD_DIR
#   scripts/augment/augment.sh --noisy HELD_DIR
#
# The first form makes audio/gesture/testdata/aug-CONDITION.csv.gz, for the
# network of a microphone heard in full: the development corpus and the
# synthetic training sets heldA ... heldI, put through what real party
# microphones do (the conditions of scripts/robustness: noise gates, digital
# silence first, noise, reverb, hum, 8 kHz), then measured by the current
# front end; one row in four is kept, so that the plain recordings keep their
# weight. Without CONDITIONs it makes every table below.
#
# --narrow makes audio/gesture/testdata/narrow/CONDITION.csv.gz, for the
# telephone line's network: the development corpus and heldA ... heldM as
# such a line hears them (8 kHz, rate-8k, every row; and the same through a
# gate, laptop-8k-gate, one row in two). A line that a sound server resampled
# up is measured at about 8 kHz again by the Listener, so these serve it too.
# Then train it:
#
#   go run ./audio/gesture/internal/train fit -var narrowModel \
#     -out audio/gesture/weights_narrow.go audio/gesture/testdata/narrow/*.csv.gz
#
# --noisy makes audio/gesture/testdata/noisy/aug-pink-10dB.csv.gz, which the
# loud room's network (gesture.NoisyModel) is trained on with the wide
# network's tables: the same recordings as the first form, through pink
# noise 10 dB under the gestures, one row in four. Then train it:
#
#   go run ./audio/gesture/internal/train fit -members 3 -var noisyModel \
#     -out audio/gesture/weights_noisy.go audio/gesture/testdata/*.csv.gz audio/gesture/testdata/noisy/*.csv.gz
#
# HELD_DIR holds the synthetic sets made by scripts/synthcorpus (its README
# lists the commands); the development corpus is ../shared/corpus/gestures.
# The recordings are written to a temporary directory (up to 5 GB) and removed.
set -euo pipefail
cd "$(dirname "$0")/../.."
narrow=false
noisy=false
if [ "${1:-}" = --narrow ]; then
  narrow=true
  shift
elif [ "${1:-}" = --noisy ]; then
  noisy=true
  shift
fi
if [ $# -lt 1 ] || [ ! -d "$1" ] || { { $narrow || $noisy; } && [ $# -ne 1 ]; }; then
  echo "usage: scripts/augment/augment.sh HELD_DIR [CONDITION...] | --narrow HELD_DIR | --noisy HELD_DIR" >&2
  exit 2
fi
held=$1
shift
conditions=("$@")
names=(heldA heldB heldC heldD heldE heldF heldG heldH heldI)
out=audio/gesture/testdata/aug-
if $narrow; then
  conditions=(rate-8k laptop-8k-gate)
  names+=(heldJ heldK heldL heldM)
  out=audio/gesture/testdata/narrow/
  mkdir -p audio/gesture/testdata/narrow
elif $noisy; then
  conditions=(pink-10dB)
  out=audio/gesture/testdata/noisy/aug-
  mkdir -p audio/gesture/testdata/noisy
elif [ ${#conditions[@]} -eq 0 ]; then
  conditions=(gate-zero-fast gate-zero-slow gate-duck30 gate-duck30-slow zeros-first
    pink-20dB babble-20dB babble-gate reverb hum-50Hz-harm-30dB rate-8k)
fi
sets=(../shared/corpus/gestures)
for s in "${names[@]}"; do
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
  go run ./scripts/robustness -corpus "$s" -no-default -bin "$tmp/tableref" -only "$only" -noise-clips 0 -keep "$tmp/keep" >/dev/null
done
for c in "${conditions[@]}"; do
  every=4
  if $narrow; then
    every=1
    [ "$c" = laptop-8k-gate ] && every=2
  fi
  dirs=$(ls -d "$tmp/keep/$c"/* | tr '\n' ',' | sed 's/,$//')
  echo "augment: measuring $c" >&2
  "$tmp/train" features -every "$every" -corpus "$dirs" -out "$out$c.csv.gz"
  rm -rf "${tmp:?}/keep/$c"
done
