#!/usr/bin/env bash
# Runs the benchmark in release mode and prints the Markdown report (progress goes to stderr).
#
# Usage:
#   Scripts/bench.sh                 # full run: N = 100 … 100 000, peak memory, special documents
#   Scripts/bench.sh --quick         # N up to 10 000, fewer rounds
#   Scripts/bench.sh --only 10000    # one size
#   Scripts/bench.sh --matrix --clock cpu            # the shape matrix (issue 15), N = 10 000, 100 000
#   Scripts/bench.sh --matrix --quick --shape wide,small   # a subset, N = 1 000, 10 000
#   Scripts/bench.sh --matrix --shape tiny --sizes 1000000 # one shape at chosen sizes
# Same as: swift run -c release --package-path Benchmarks JSONAPIBenchmarks [options]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# SwiftPM 6.3 can keep a stale build plan for a path dependency and miss library files added by a
# merge ("cannot find 'X' in scope"); dropping the cached plan makes it re-plan (about a second).
rm -f "$root"/Benchmarks/.build/*/release/description.json \
  "$root"/Benchmarks/.build/release/description.json
exec swift run -c release --package-path "$root/Benchmarks" JSONAPIBenchmarks "$@"
