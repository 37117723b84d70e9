#!/usr/bin/env bash
# The tests that keep decoders past `decode`, and every relationship route, under AddressSanitizer:
# a kept decoder, container or superDecoder must never read freed input (issue 11).
#
#   Scripts/asan.sh            # EscapedDecoderTests and RelationshipRouteTests
#   Scripts/asan.sh FILTER     # any other test filter
exec "$(dirname "$0")/sanitize.sh" address "${1:-EscapedDecoderTests|RelationshipRouteTests}"
