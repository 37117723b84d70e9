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
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh

requests="${REQUESTS:-1000}"
rounds="${ROUNDS:-5}"
bench_package=Integrations/JSONAPIAsyncHTTPClient

release_blog_server
echo "== release build of TransportBench"
swift build -c release --package-path "$bench_package" --product TransportBench
bench_bin="$(swift build -c release --package-path "$bench_package" --show-bin-path)/TransportBench"

# On a free port, in a new directory (removed on exit), stopped on exit; at most 60 s to answer.
start_new_blog

echo "== TransportBench: $requests requests per cell and round, $rounds rounds"
"$bench_bin" --base "http://127.0.0.1:$port/" --requests "$requests" --rounds "$rounds"
