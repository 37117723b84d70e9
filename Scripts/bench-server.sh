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

duration="${DURATION:-20s}"
connections="${CONNECTIONS:-16}"
threads="${THREADS:-2}"
target="${TARGET:-/articles?page%5Bsize%5D=20&include=author}"

if ! command -v wrk >/dev/null; then
  echo "wrk is not installed: apt-get install -y wrk" >&2
  exit 1
fi

if [ -n "${SERVER_BIN:-}" ]; then
  server_bin="$SERVER_BIN"
else
  echo "== release build of Examples/HummingbirdServer"
  swift build -c release --package-path Examples/HummingbirdServer
  server_bin="$(swift build -c release --package-path Examples/HummingbirdServer --show-bin-path)/HummingbirdServer"
fi

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT="$port" DATABASE_PATH="$work/blog.sqlite" LOG_LEVEL=error "$server_bin" >"$work/server.log" 2>&1 &
server_pid=$!
stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

url="http://127.0.0.1:$port$target"
for _ in $(seq 1 120); do
  if curl -sf -o /dev/null "http://127.0.0.1:$port/people/1"; then break; fi
  sleep 0.5
done
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
