#!/usr/bin/env bash
# The tests that keep decoders past `decode`, and every relationship route, under AddressSanitizer:
# a kept decoder, container or superDecoder must never read freed input (issue 11); and the
# encoder's own output memory, which the returned Data takes over, the tape's memory as it
# grows, and the hash slots built range by range in memory not yet initialized (issue 15).
#
#   Scripts/asan.sh            # the suites below
#   Scripts/asan.sh FILTER     # any other test filter
exec "$(dirname "$0")/sanitize.sh" address \
  "${1:-EscapedDecoderTests|RelationshipRouteTests|OutputBufferTests|PrimaryDataStreamTests|JSONWritingTests|JSONScannerTests|HashSlotsTests|ResourceIndexTests|PrimaryIdentityTests|IncludedRouteTests|IncludedEncodingTests}"
