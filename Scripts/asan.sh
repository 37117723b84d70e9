#!/usr/bin/env bash
# Runs the tests that keep decoders past `decode` under AddressSanitizer: a kept decoder, container or
# superDecoder must never read freed input (issue 11). Its own scratch path keeps the instrumented
# build apart from the normal one.
#
#   Scripts/asan.sh            # EscapedDecoderTests and RelationshipRouteTests
#   Scripts/asan.sh FILTER     # any other test filter
set -euo pipefail
cd "$(dirname "$0")/.."

# Mandatory with any sanitizer: otherwise a trap leaves a swift-backtrace process that never exits.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer reports leaks inside XCTest itself (TOOLING.md); use-after-free is what this checks.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}

filter=${1:-EscapedDecoderTests|RelationshipRouteTests}
echo "== asan: swift test --sanitize=address --filter $filter"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift test --sanitize=address --scratch-path .build-asan -Xswiftc -use-ld=lld --filter "$filter" \
  2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -q "AddressSanitizer" "$log"; then
  echo "== asan: FAILED: AddressSanitizer reported a problem" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "== asan: FAILED (status $status)" >&2
  exit "$status"
fi
if ! grep -q -E "Test run with [1-9][0-9]* tests? .*passed" "$log"; then
  echo "== asan: FAILED: no test ran" >&2
  exit 1
fi
echo "== asan: no memory error"
