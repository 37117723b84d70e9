#!/usr/bin/env bash
# Runs the concurrency tests (one shared JSONAPIDecoder / JSONAPIEncoder, many tasks) under the
# thread sanitizer. Its own scratch path keeps the instrumented build apart from the normal one.
#
#   Scripts/tsan.sh            # ConcurrencyTests
#   Scripts/tsan.sh FILTER     # any other test filter
set -euo pipefail
cd "$(dirname "$0")/.."

# Mandatory with any sanitizer: otherwise a trap leaves a swift-backtrace process that never exits.
export SWIFT_BACKTRACE=enable=no
# halt_on_error: the first data race fails the run instead of scrolling past.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1}

filter=${1:-ConcurrencyTests}
echo "== tsan: swift test --sanitize=thread --filter $filter"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --sanitize=thread --scratch-path .build-tsan -Xswiftc -use-ld=lld --filter "$filter" \
  2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -q "ThreadSanitizer" "$log"; then
  echo "== tsan: FAILED: ThreadSanitizer reported a problem" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "== tsan: FAILED (status $status)" >&2
  exit "$status"
fi
if ! grep -q -E "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "== tsan: FAILED: no test ran" >&2
  exit 1
fi
echo "== tsan: no data race"
