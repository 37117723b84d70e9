#!/usr/bin/env bash
# Fails when any Swift file in the package breaks the rules in .swift-format.
# Fix with: swift format format -i -r Sources Tests Examples Package.swift
set -euo pipefail
cd "$(dirname "$0")/.."

# Examples is linted whole: every example package's Package.swift, Sources and Tests, the SQLite
# store's (Examples/JSONAPISQLiteStore) included. Hidden folders (.build) are skipped.

swift format lint --strict --recursive --parallel Sources Tests Examples Package.swift \
  IntegrationTests/Sources IntegrationTests/Package.swift Fuzz/Sources Benchmarks/Sources
echo "format lint: OK"
