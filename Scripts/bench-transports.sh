#!/usr/bin/env bash
# A benchmark, not a test: requests per second, p50 and p99 of each client transport
# (LibcurlTransport, the AsyncHTTPClient transport example as shipped and with AsyncHTTPClient's
# pool, URLSessionTransport) against Examples/HummingbirdServer (release, a new seeded database),
# for GET /articles/1 and a page of 20 articles with their authors, sequential and with 16
# concurrent tasks, in interleaved rounds. Results go to Benchmarks/README.md by hand, with the
# date and this command.
#
#   Scripts/bench-transports.sh        REQUESTS (per cell and round, default 1000), ROUNDS (5)
#
# SERVER_BIN runs a server binary built before instead of building one. The server and the client
# share the machine's cores: the figures are for both on one machine.
set -euo pipefail
cd "$(dirname "$0")/.."

requests="${REQUESTS:-1000}"
rounds="${ROUNDS:-5}"
bench_package=Examples/AsyncHTTPClientTransport

if [ -n "${SERVER_BIN:-}" ]; then
  server_bin="$SERVER_BIN"
else
  echo "== release build of Examples/HummingbirdServer"
  swift build -c release --package-path Examples/HummingbirdServer
  server_bin="$(swift build -c release --package-path Examples/HummingbirdServer --show-bin-path)/HummingbirdServer"
fi
echo "== release build of TransportBench"
swift build -c release --package-path "$bench_package" --product TransportBench
bench_bin="$(swift build -c release --package-path "$bench_package" --show-bin-path)/TransportBench"

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

# At most 60 s for the server to answer.
for _ in $(seq 1 120); do
  if curl -sf -o /dev/null "http://127.0.0.1:$port/people/1"; then break; fi
  sleep 0.5
done
curl -sf -o /dev/null "http://127.0.0.1:$port/people/1" || {
  echo "the server does not answer on port $port" >&2
  cat "$work/server.log" >&2
  exit 1
}

echo "== TransportBench: $requests requests per cell and round, $rounds rounds"
"$bench_bin" --base "http://127.0.0.1:$port/" --requests "$requests" --rounds "$rounds"
