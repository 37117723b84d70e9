#!/usr/bin/env bash
# The concurrency tests (one shared JSONAPIDecoder / JSONAPIEncoder, many tasks) under the thread
# sanitizer.
#
#   Scripts/tsan.sh            # ConcurrencyTests
#   Scripts/tsan.sh FILTER     # any other test filter
exec "$(dirname "$0")/sanitize.sh" thread "${1:-ConcurrencyTests}"
