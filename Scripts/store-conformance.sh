#!/usr/bin/env bash
# Builds Integrations/JSONAPIStoreConformance (the contract every JSONAPIStore keeps, as checks a
# store's tests run) and its tests with warnings as errors, and runs them: every check on the
# memory store (row conditions and the tracker's policies served by JSONAPIServer over the store
# among them, with two seeded property checks: STORE_CONFORMANCE_SEED=N replays a failure's
# seed), and the checks' own test that a store breaking a promise fails. The SQLite and
# PostgreSQL stores run the same checks in their own tests (Scripts/sqlite-store.sh,
# Scripts/postgres.sh). No dependency but the library itself: a few seconds once it is built.
set -euo pipefail
cd "$(dirname "$0")/.."
export SWIFT_BACKTRACE=enable=no
started=$(date +%s)
swift build --build-tests --package-path Integrations/JSONAPIStoreConformance \
  -Xswiftc -warnings-as-errors
swift test --package-path Integrations/JSONAPIStoreConformance -Xswiftc -warnings-as-errors
elapsed=$(($(date +%s) - started))
echo "== store conformance: $((elapsed / 60)) min $((elapsed % 60)) s"
