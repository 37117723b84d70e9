#!/usr/bin/env bash
# Validates every document the encoder tests write against the official JSON:API JSON Schemas.
#
# Runs `swift test --filter 'Encoding|ServerExample|ServerReading|ServerWriting'` (encoder tests,
# the example server's request/response table, and the answers of JSONAPIServer, the server from
# declared resources) with JSONAPI_ENCODED_DUMP_DIR set, so each test document is saved as
# <name>.<kind>.json (kind: response, create, update, relationship), then checks each file with
# ../shared/jsonapi/tools/jsonapi_validate.py: the 1.0 schema set, or the 1.1 draft set for
# documents that use 1.1 features (lid, an error's `type` link). Exits non-zero when a document
# fails.
# Skips (exit 0, with a message) when python3 or its jsonschema module is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

validator="../shared/jsonapi/tools/jsonapi_validate.py"
if ! command -v python3 >/dev/null 2>&1; then
  echo "SKIP: python3 is not installed; encoded documents not schema-checked"
  exit 0
fi
if ! python3 -c "import jsonschema, referencing" >/dev/null 2>&1; then
  echo "SKIP: the Python jsonschema module is not installed; encoded documents not schema-checked"
  exit 0
fi
if [ ! -f "$validator" ]; then
  echo "FAIL: $validator not found (../shared must sit beside the package)"
  exit 1
fi

dump_dir="$(mktemp -d)"
trap 'rm -rf "$dump_dir"' EXIT

JSONAPI_ENCODED_DUMP_DIR="$dump_dir" swift test --filter 'Encoding|ServerExample|ServerReading|ServerWriting'

shopt -s nullglob
files=("$dump_dir"/*.json)
if [ "${#files[@]}" -eq 0 ]; then
  echo "FAIL: the tests wrote no documents to $dump_dir"
  exit 1
fi

status=0
for kind in response create update relationship; do
  for schema_set in 1.0 1.1-draft-pr1603; do
    batch=()
    for file in "$dump_dir"/*."$kind".json; do
      # lid and an error's `type` link (the Cursor Pagination profile's errors) exist only in
      # JSON:API 1.1, so the 1.0 schema cannot accept such documents.
      if grep -qE '"lid"|"links":\{[^{}]*"type":' "$file"; then uses_11=yes; else uses_11=no; fi
      if { [ "$schema_set" = 1.0 ] && [ "$uses_11" = no ]; } ||
        { [ "$schema_set" != 1.0 ] && [ "$uses_11" = yes ]; }; then
        batch+=("$file")
      fi
    done
    [ "${#batch[@]}" -eq 0 ] && continue
    echo "== $kind documents, schema set $schema_set (${#batch[@]} files)"
    python3 "$validator" --schema-set "$schema_set" --kind "$kind" "${batch[@]}" || status=1
  done
done

if [ "$status" -ne 0 ]; then
  echo "FAIL: some encoded documents do not match the JSON:API schema"
else
  echo "PASS: ${#files[@]} encoded documents match the JSON:API schema"
fi
exit "$status"
