#!/usr/bin/env bash
# Runs a test filter under a sanitizer, in its own scratch path so the instrumented build stays
# apart from the normal one; fails when the sanitizer reports anything or no test ran.
#
#   Scripts/sanitize.sh address FILTER     # what Scripts/asan.sh runs
#   Scripts/sanitize.sh thread FILTER      # what Scripts/tsan.sh runs
set -euo pipefail
cd "$(dirname "$0")/.."

kind=$1
filter=$2
case "$kind" in
  address) name=AddressSanitizer short=asan ;;
  thread) name=ThreadSanitizer short=tsan ;;
  *) echo "usage: $0 address|thread FILTER" >&2; exit 2 ;;
esac

# Mandatory with any sanitizer: otherwise a trap leaves a swift-backtrace process that never exits.
export SWIFT_BACKTRACE=enable=no
# halt_on_error: the first report fails the run instead of scrolling past. LeakSanitizer reports
# leaks inside XCTest itself (TOOLING.md); use-after-free is what the address run checks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}

echo "== $short: swift test --sanitize=$kind --filter $filter"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --sanitize="$kind" --scratch-path ".build-$short" -Xswiftc -use-ld=lld --filter "$filter" \
  2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -q "$name" "$log"; then
  echo "== $short: FAILED: $name reported a problem" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "== $short: FAILED (status $status)" >&2
  exit "$status"
fi
if ! grep -q -E "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "== $short: FAILED: no test ran" >&2
  exit 1
fi
echo "== $short: no $name report"
