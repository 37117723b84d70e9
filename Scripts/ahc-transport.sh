#!/usr/bin/env bash
# The AsyncHTTPClient transport example (Integrations/JSONAPIAsyncHTTPClient, a package of its own):
# builds it with warnings as errors, runs its tests, then measures its bounds against the hostile
# server with the same cases as the library's default transport (Scripts/bounds.sh --probe).
set -euo pipefail
cd "$(dirname "$0")/.."
package=Integrations/JSONAPIAsyncHTTPClient

echo "== AsyncHTTPClientTransport: build and tests"
swift build --package-path "$package" -Xswiftc -warnings-as-errors
swift test --package-path "$package" -Xswiftc -warnings-as-errors

echo "== AsyncHTTPClientTransport: bounds against a hostile server"
probe="$(swift build --package-path "$package" --show-bin-path)/AHCBoundsProbe"
Scripts/bounds.sh --transport asynchttpclient --probe "$probe" "$@"
