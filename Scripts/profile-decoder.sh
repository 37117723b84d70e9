#!/usr/bin/env bash
# Profiles JSONAPIDecoder with valgrind's callgrind (instruction counts are identical run to run
# on this machine; `perf stat` is not available) and prints the costliest functions.
#
# Usage:
#   Scripts/profile-decoder.sh                      # JSONAPIDecoder, N = 10 000, 3 decodes
#   Scripts/profile-decoder.sh foundation           # JSONDecoder on the flat JSON, for comparison
#   Scripts/profile-decoder.sh jsonapi 1000 5       # contender, N articles, repeats
#   TOP=40 Scripts/profile-decoder.sh               # more rows
#   SCRATCH=.build-profile Scripts/profile-decoder.sh   # own build folder: does not replace the
#                                                   # binary of a benchmark that is running
#   REUSE=1 Scripts/profile-decoder.sh              # re-annotate the last profile, no new run
#   MODE=encode Scripts/profile-decoder.sh          # profile JSONAPIEncoder (or JSONEncoder) instead
#   SHAPE=wide Scripts/profile-decoder.sh jsonapi 10000 3   # a shape of the matrix (bench.sh --matrix):
#       articles (default), wide, tiny, strings, iso8601, seconds, sharing, chains, one, article,
#       page
#       (one, article and page are the small documents: N is ignored, use many repeats, e.g. 2000)
#   CACHE=1 Scripts/profile-decoder.sh jsonapi 100000 1   # also simulate the caches: data reads
#       and writes that miss the last level (DLmr, DLmw), per call; exact run to run, so the
#       memory side of a change can be measured on a noisy machine (no prefetchers are modelled:
#       streaming copies count in full). LL=bytes,ways,line sets the simulated last level
#       (default 33554432,16,64: the 32 MiB L3 of the AMD EPYC machines here).
#
# Only the decoding is collected (--toggle-collect on profiled*), not the generation of
# the input. Inclusive counts above 100% come from recursion (each recursive entry counts).
# The raw profile stays in .build/profile/callgrind.<contender>.out for
# `callgrind_annotate --inclusive=yes FILE` or kcachegrind. Takes about a minute at N = 10 000.
set -euo pipefail

contender="${1:-jsonapi}"
articles="${2:-10000}"
repeats="${3:-3}"
top="${TOP:-25}"
mode="${MODE:-decode}"
shape="${SHAPE:-articles}"

root="$(cd "$(dirname "$0")/.." && pwd)"
out_dir="$root/.build/profile"
out="$out_dir/callgrind.$mode-$shape-$contender.out"
mkdir -p "$out_dir"

if [[ "${REUSE:-0}" != 1 || ! -s "$out" ]]; then
  scratch=()
  if [[ -n "${SCRATCH:-}" ]]; then scratch=(--scratch-path "$SCRATCH"); fi
  swift build -c release --package-path "$root/Benchmarks" "${scratch[@]}" >&2
  bin_dir="$(swift build -c release --package-path "$root/Benchmarks" "${scratch[@]}" --show-bin-path)"
  # SWIFT_BACKTRACE=enable=no: a crash must not leave a swift-backtrace process behind.
  cache=()
  if [[ "${CACHE:-0}" == 1 ]]; then cache=(--cache-sim=yes "--LL=${LL:-33554432,16,64}"); fi
  SWIFT_BACKTRACE=enable=no valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect='*profiled*' "${cache[@]}" \
    "$bin_dir/JSONAPIBenchmarks" --profile-"$mode" "$contender" "$articles" "$repeats" \
    --shape "$shape" 2>&1 \
    | grep -E 'Collected|decoded|encoded|error' >&2 || true
fi

# The function rows of callgrind_annotate, demangled, "???:" dropped, library paths shortened.
# With a cache simulation, the rows show instructions and last-level data misses, sorted by reads.
shown=()
if grep -q '^events:.*DLmr' "$out"; then shown=(--show=Ir,DLmr,DLmw --sort=DLmr); fi
table() {
  local rows
  rows="$(callgrind_annotate --inclusive="$1" --threshold=100 "${shown[@]}" "$out" 2>/dev/null \
    | sed -n '/file:function/,$p' | sed '1,2d' | grep -v '^ *$' \
    | grep -v -E '(libc-start|libc_start_call_main|\(below main\)|PROGRAM TOTALS)' || true)"
  printf "%s\n" "$rows" | sed -n "1,${top}p" | swift demangle --simplified \
    | sed -E -e 's/\?\?\?://' -e 's| \[[^]]*/([^/]+)\]$| [\1]|'
}

echo "# callgrind: $mode with $contender, shape $shape, N = $articles, $repeats calls"
# The profile's totals line lists the events in the order of its `events:` line (Ir first).
read -r -a names <<<"$(sed -n 's/^events: //p' "$out")"
read -r -a counts <<<"$(sed -n 's/^totals: //p' "$out")"
for i in "${!names[@]}"; do
  case "${names[$i]}" in
    Ir) echo "# instructions: ${counts[i]} in all, $(( counts[i] / repeats )) per call" ;;
    DLmr) echo "# last-level data read misses: $(( counts[i] / repeats )) per call" ;;
    DLmw) echo "# last-level data write misses: $(( counts[i] / repeats )) per call" ;;
  esac
done
echo
echo "## Inclusive (function and everything it calls), top $top"
table yes
echo
echo "## Self (instructions in the function itself), top $top"
table no
