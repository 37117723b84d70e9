#!/usr/bin/env bash
# The library as users depend on it (issue 47):
#   1. an app that imports only JSONAPICodable and JSONAPINetworking
#      (IntegrationTests/consumers/AppConsumer) builds, runs, and compiled no server code: no
#      object file of JSONAPIServer, no JSONAPIServer symbol in the codec's objects or in the app;
#   2. every integration's manifest, read as it is once published (JSONAPI_RELEASED=1), takes its
#      siblings by a version range, and no manifest pins a third-party package `exact:`;
#   3. a server that depends on every integration product by its declared name
#      (IntegrationTests/consumers/ServerConsumer) builds and runs. It builds in SWIFT_SCRATCH when
#      set, so that CI shares one build of the heavy packages (Hummingbird, GRDB, postgres-nio,
#      AsyncHTTPClient) with the steps that test them.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

echo "== consumers: an app that imports only the codec and the client"
app=IntegrationTests/consumers/AppConsumer
swift build --package-path "$app" -Xswiftc -warnings-as-errors
app_bin=$(swift build --package-path "$app" --show-bin-path)
"$app_bin/AppConsumer"
if compgen -G "$app_bin/JSONAPIServer.build/*.o" >/dev/null; then
  echo "consumers: the app compiled JSONAPIServer" >&2
  exit 1
fi
leaked=$( (nm "$app_bin"/JSONAPICodable.build/*.o "$app_bin/AppConsumer" 2>/dev/null || true) |
  grep -c 'JSONAPIServer' || true)
if [ "$leaked" != 0 ]; then
  echo "consumers: $leaked JSONAPIServer symbols in the codec's objects or the app" >&2
  exit 1
fi
echo "consumers: the app holds no server code (no JSONAPIServer object file or symbol)"

echo "== consumers: the integrations' manifests as published"
for manifest in Integrations/*/Package.swift; do
  package=$(dirname "$manifest")
  if grep -n 'exact:' "$manifest"; then
    echo "consumers: $manifest pins a package exact: take a from: range" >&2
    exit 1
  fi
  JSONAPI_RELEASED=1 swift package dump-package --package-path "$package" | python3 -c '
import json, sys
name = sys.argv[1]
manifest = json.load(sys.stdin)
for dependency in manifest["dependencies"]:
    if "fileSystem" in dependency:
        sys.exit(f"{name}: a path dependency once published: {dependency}")
    for control in dependency.get("sourceControl", []):
        if "range" not in control["requirement"]:
            sys.exit(name + ": " + control["identity"] + " is not taken by a version range")
products = [product["name"] for product in manifest["products"]]
if not products:
    sys.exit(f"{name}: declares no product")
print(name + ": products " + " ".join(products) + "; every dependency by a version range")
' "$package"
done

echo "== consumers: a server that depends on every integration product"
# A scratch path shared by several root packages: each reads its own build description.
scratch=(${SWIFT_SCRATCH:+--scratch-path "$SWIFT_SCRATCH" --disable-build-manifest-caching})
server=IntegrationTests/consumers/ServerConsumer
swift build --package-path "$server" "${scratch[@]}" -Xswiftc -warnings-as-errors
"$(swift build --package-path "$server" "${scratch[@]}" --show-bin-path)/ServerConsumer"

elapsed=$(($(date +%s) - started))
echo "== consumers: $((elapsed / 60)) min $((elapsed % 60)) s"
