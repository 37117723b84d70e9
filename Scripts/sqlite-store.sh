#!/usr/bin/env bash
# Builds Integrations/JSONAPISQLiteStore (a JSONAPIStore on SQLite through GRDB.swift 7.10.0) and its
# tests with warnings as errors, and runs the tests (Swift Testing), the store conformance suite
# (JSONAPIStoreConformance) among them. A package of its own: the library keeps zero
# dependencies. A first build of GRDB takes a minute or two on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
started=$(date +%s)
# SWIFT_SCRATCH, when set, is the scratch path to build in (.ci/run shares one where GRDB is
# already built); each root package reads its own build description there.
scratch=(${SWIFT_SCRATCH:+--scratch-path "$SWIFT_SCRATCH" --disable-build-manifest-caching})
swift build --build-tests --package-path Integrations/JSONAPISQLiteStore "${scratch[@]}" \
  -Xswiftc -warnings-as-errors
swift test --package-path Integrations/JSONAPISQLiteStore "${scratch[@]}" -Xswiftc -warnings-as-errors
elapsed=$(($(date +%s) - started))
echo "== sqlite store: $((elapsed / 60)) min $((elapsed % 60)) s"
