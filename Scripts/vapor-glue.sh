#!/usr/bin/env bash
# Compiles Integrations/JSONAPIVapor (a JSONAPIServer served by Vapor 4, and JSONAPICodable as
# Vapor's content encoder and decoder) with warnings as errors, and runs its tests. SWIFT_SCRATCH,
# when set, is the scratch path to build in: .ci/run shares the one where Scripts/consumers.sh
# already built Vapor, so that Vapor is compiled once per run.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
# A scratch path shared by several root packages: each reads its own build description.
scratch=(${SWIFT_SCRATCH:+--scratch-path "$SWIFT_SCRATCH" --disable-build-manifest-caching})
swift build --build-tests --package-path Integrations/JSONAPIVapor "${scratch[@]}" \
  -Xswiftc -warnings-as-errors
swift test --skip-build --package-path Integrations/JSONAPIVapor "${scratch[@]}"
elapsed=$(($(date +%s) - started))
echo "== vapor glue: $((elapsed / 60)) min $((elapsed % 60)) s"
