#!/usr/bin/env bash
# The AsyncHTTPClient transport example (Integrations/JSONAPIAsyncHTTPClient, a package of its own):
# builds it with warnings as errors, runs its tests, then measures its bounds against the hostile
# server with the same cases as the library's default transport (Scripts/bounds.sh --probe).
# SWIFT_SCRATCH, when set, is the scratch path to build in (.ci/run shares one where
# AsyncHTTPClient and SwiftNIO are already built).
set -euo pipefail
cd "$(dirname "$0")/.."
package=Integrations/JSONAPIAsyncHTTPClient

echo "== AsyncHTTPClientTransport: build and tests"
# A scratch path shared by several root packages: each reads its own build description.
scratch=(${SWIFT_SCRATCH:+--scratch-path "$SWIFT_SCRATCH" --disable-build-manifest-caching})
swift build --package-path "$package" "${scratch[@]}" -Xswiftc -warnings-as-errors
swift test --package-path "$package" "${scratch[@]}" -Xswiftc -warnings-as-errors

echo "== AsyncHTTPClientTransport: bounds against a hostile server"
probe="$(swift build --package-path "$package" "${scratch[@]}" --show-bin-path)/AHCBoundsProbe"
Scripts/bounds.sh --transport asynchttpclient --probe "$probe" "$@"
