#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ (coverage + AddressSanitizer) and runs one of them.
#
#   Scripts/fuzz.sh                  # the decoder target, 60 seconds
#   Scripts/fuzz.sh 600              # 600 seconds
#   Scripts/fuzz.sh -runs=10000000   # a number of executions (any libFuzzer flag passes through)
#   Scripts/fuzz.sh crash-0123...    # replay one input (a file argument), e.g. a saved crash
#   Scripts/fuzz.sh --target server 600   # the server-input target; any form above works with it
#
# Targets: `decoder` (default; JSONAPIFuzz: documents through the decoder and the round trip) and
# `server` (JSONAPIServerFuzz: HTTP requests as a server reads them: query, Accept/Content-Type,
# bodies, identifiers, Atomic Operations).
# Seeds: decoder: ../shared/jsonapi/corpus/ (when present), Fuzz/seeds/ and Fuzz/jsonapi.dict;
# server: Fuzz/seeds-server/ and Fuzz/server.dict. New inputs go to the git-ignored
# Fuzz/corpus-work/ (decoder) or Fuzz/corpus-work-server/. A crash, leak or timeout leaves its
# input in Fuzz/findings/ (decoder) or Fuzz/findings-server/ and makes this script exit non-zero.
# Prints stat::number_of_executed_units so a run proves it fuzzed.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# Mandatory with any sanitizer or fuzzer: otherwise a trap leaves a swift-backtrace process that
# never exits. LeakSanitizer stays on for the harness (it is off only for XCTest, which leaks).
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}

flags=()
replay=()
seconds=60
target=decoder
expect_target=0
for argument in "$@"; do
  if ((expect_target)); then
    target=$argument
    expect_target=0
  elif [[ $argument == --target ]]; then
    expect_target=1
  elif [[ $argument == --target=* ]]; then
    target=${argument#--target=}
  elif [[ $argument == -* ]]; then
    flags+=("$argument")
  elif [[ -f $argument ]]; then
    replay+=("$argument")
  else
    seconds=$argument
  fi
done

if ((expect_target)); then
  echo "fuzz.sh: --target needs a name (decoder or server)" >&2
  exit 2
fi
case $target in
  decoder)
    product=JSONAPIFuzz
    suffix=""
    dictionary="$root/Fuzz/jsonapi.dict"
    seeds=("$root/Fuzz/seeds")
    [[ -d $root/../shared/jsonapi/corpus ]] && seeds+=("$root/../shared/jsonapi/corpus")
    ;;
  server)
    product=JSONAPIServerFuzz
    suffix="-server"
    dictionary="$root/Fuzz/server.dict"
    seeds=("$root/Fuzz/seeds-server")
    ;;
  *)
    echo "fuzz.sh: unknown target '$target' (decoder or server)" >&2
    exit 2
    ;;
esac

echo "== fuzz: build (release, -sanitize=fuzzer,address)"
# SwiftPM keeps the file list of the path dependency (..) in these caches and misses files added
# to the library since the last fuzz build; dropping them keeps the build incremental but correct.
rm -f Fuzz/.build/release.yaml Fuzz/.build/release/description.json
# Exactly this form instruments reliably (see ../shared/TOOLING.md).
swift build -c release --package-path Fuzz --sanitize=fuzzer \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
bin="$(swift build -c release --package-path Fuzz --show-bin-path)/$product"

if ((${#replay[@]} > 0)); then
  echo "== fuzz: replay ${replay[*]}"
  exec "$bin" "${flags[@]}" "${replay[@]}"
fi

has_limit=0
for flag in "${flags[@]}"; do
  [[ $flag == -runs=* || $flag == -max_total_time=* ]] && has_limit=1
done
((has_limit)) || flags+=("-max_total_time=$seconds")

work="$root/Fuzz/corpus-work$suffix"
findings="$root/Fuzz/findings$suffix"
mkdir -p "$work" "$findings"

# One job: the machine's two cores are shared. -timeout turns a hang into a finding;
# -rss_limit_mb turns memory exhaustion into one; -max_len lets documents grow past the default.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "== fuzz: run $product ${flags[*]}"
set +e
"$bin" -use_value_profile=1 -dict="$dictionary" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
  -artifact_prefix="$findings/" "${flags[@]}" "$work" "${seeds[@]}" 2>&1 | tee "$log" \
  | grep -a --line-buffered -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE)'
status=${PIPESTATUS[0]}
set -e

executed=$(grep -a -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 || true)
echo "== fuzz: ${executed:-stat::number_of_executed_units: unknown}"
# The last status line: executions, coverage (cov: edges, ft: features) and corpus size.
done_line=$(grep -a -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
[[ -n $done_line ]] && echo "== fuzz: $product $done_line"
if [[ $status -ne 0 ]] || grep -a -q -E '^(==[0-9]+==ERROR|SUMMARY: |.*deadly signal)' "$log"; then
  echo "== fuzz: FAILED (status $status); inputs kept in $findings:" >&2
  ls -1 "$findings" >&2 || true
  exit 1
fi
if [[ -z $executed || ${executed##* } -eq 0 ]]; then
  echo "== fuzz: FAILED: the binary executed nothing (not instrumented?)" >&2
  exit 1
fi
echo "== fuzz: no crash, leak or timeout"
