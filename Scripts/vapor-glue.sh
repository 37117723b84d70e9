#!/usr/bin/env bash
# Compiles Integrations/JSONAPIVapor (JSONAPICodable as Vapor 4's content encoder and decoder) against
# Vapor 4.122.3 with warnings as errors, and runs its test. Not in .ci/run: a first build of Vapor
# and its dependencies costs far more than the rest of the run (see Integrations/JSONAPIVapor/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
swift build --build-tests --package-path Integrations/JSONAPIVapor -Xswiftc -warnings-as-errors
swift test --skip-build --package-path Integrations/JSONAPIVapor
elapsed=$(($(date +%s) - started))
echo "== vapor glue: $((elapsed / 60)) min $((elapsed % 60)) s"
