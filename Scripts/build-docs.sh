#!/usr/bin/env bash
# Builds the DocC documentation of JSONAPICodable, JSONAPIServer and JSONAPINetworking offline with the toolchain's `docc`, failing on
# any warning (broken symbol links, unresolved references, missing articles).
# Output: .build-docs/JSONAPICodable.doccarchive and JSONAPINetworking.doccarchive (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build-docs
rm -rf "$out"
mkdir -p "$out/symbol-graphs"

# Public symbols only: the archive documents what users can call.
swift package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols >"$out/dump.log" 2>&1 || {
  cat "$out/dump.log"
  exit 1
}
graphs=$(sed -n 's/^Files written to //p' "$out/dump.log" | tail -n 1)
if [ -z "$graphs" ]; then
  graphs="$(swift build --show-bin-path)/symbolgraph"
fi
# Each library's graph plus its extensions of other modules (JSONAPICodable@Foundation…), not the
# test targets' graphs; one archive per library.
for module in JSONAPICodable JSONAPIServer JSONAPINetworking; do
  mkdir -p "$out/symbol-graphs/$module"
  cp "$graphs/$module.symbols.json" "$out/symbol-graphs/$module/"
  for extension in "$graphs/$module"@*.symbols.json; do
    if [ -e "$extension" ]; then cp "$extension" "$out/symbol-graphs/$module/"; fi
  done
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$out/symbol-graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "$module" \
    --output-path "$out/$module.doccarchive" \
    --warnings-as-errors
  echo "docs: $out/$module.doccarchive"
done
