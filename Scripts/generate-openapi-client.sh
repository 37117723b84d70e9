#!/usr/bin/env bash
# Makes Examples/OpenAPIClient's generated code again from a description file (default: the one
# committed beside it, Sources/BlogOpenAPIClient/openapi.json; pass the blog's served
# /openapi.json to take a new one): swift-openapi-generator 1.14.3, built once in
# Examples/OpenAPIClient/Generator. It also generates the whole description, not only the
# operations the example calls, and fails on any warning there (a schema the generator would skip).
#
#   Scripts/generate-openapi-client.sh [DESCRIPTION.json]
set -euo pipefail
caller=$(pwd)
cd "$(dirname "$0")/.."
target=Examples/OpenAPIClient/Sources/BlogOpenAPIClient
description="${1:-$target/openapi.json}"
case "$description" in /*) ;; *) description="$caller/$description" ;; esac
if [ "$description" != "$(pwd)/$target/openapi.json" ]; then cp "$description" "$target/openapi.json"; fi

swift build -c release --package-path Examples/OpenAPIClient/Generator --product swift-openapi-generator
generator="$(swift build -c release --package-path Examples/OpenAPIClient/Generator --show-bin-path)/swift-openapi-generator"

whole=$(mktemp -d)
trap 'rm -rf "$whole"' EXIT
printf 'generate:\n  - types\n  - client\nnamingStrategy: idiomatic\n' >"$whole/config.yaml"
"$generator" generate --config "$whole/config.yaml" --output-directory "$whole" "$target/openapi.json" \
  2>"$whole/warnings.txt" >/dev/null
if grep -q warning "$whole/warnings.txt"; then
  echo "swift-openapi-generator warns on the whole description:" >&2
  cat "$whole/warnings.txt" >&2
  exit 1
fi

rm -rf "$target/Generated"
mkdir -p "$target/Generated"
"$generator" generate --config "$target/openapi-generator-config.yaml" \
  --output-directory "$target/Generated" "$target/openapi.json"
echo "generated: $(ls "$target/Generated" | tr '\n' ' ')"
