#!/usr/bin/env bash
# A benchmark, not a test: requests per second and latency of Examples/HummingbirdServer for a
# page of 20 articles with their authors, measured with wrk (Debian: `apt-get install -y wrk`)
# against a release build on a new, seeded database. Results go to Benchmarks/README.md by hand,
# with the date and this command.
#
#   Scripts/bench-server.sh          20 s at 16 connections on 2 wrk threads, after a 5 s warm-up
#
# DURATION, CONNECTIONS, THREADS and TARGET (a path and query) change the run; SERVER_BIN runs a
# server binary built before (another commit's, to compare two in turn) instead of building one. wrk and the server
# share the machine's cores: the figures are for both on one machine.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh

duration="${DURATION:-20s}"
connections="${CONNECTIONS:-16}"
threads="${THREADS:-2}"
target="${TARGET:-/articles?page%5Bsize%5D=20&include=author}"

if ! command -v wrk >/dev/null; then
  echo "wrk is not installed: apt-get install -y wrk" >&2
  exit 1
fi

release_blog_server
# On a free port, in a new directory (removed on exit), stopped on exit; at most 60 s to answer.
start_new_blog

url="http://127.0.0.1:$port$target"
curl -sf -o /dev/null -H 'Accept: application/vnd.api+json' "$url" || {
  echo "the server does not answer $url" >&2
  cat "$work/server.log" >&2
  exit 1
}
bytes=$(curl -s -H 'Accept: application/vnd.api+json' "$url" | wc -c)
echo "== $url ($bytes bytes)"

echo "== warm-up: 5 s"
wrk -t"$threads" -c"$connections" -d5s -H 'Accept: application/vnd.api+json' "$url" >/dev/null

echo "== wrk -t$threads -c$connections -d$duration --latency"
wrk -t"$threads" -c"$connections" -d"$duration" --latency \
  -H 'Accept: application/vnd.api+json' "$url" | tee "$work/wrk.txt"
rps=$(awk '/^Requests\/sec:/ {print $2}' "$work/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$work/wrk.txt")
echo "RESULT requests_per_second=$rps p50=$p50 p99=$p99 non_2xx=${non2xx:-0}"
