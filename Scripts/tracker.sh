#!/usr/bin/env bash
# Drives Examples/TrackerServer (issue 46 item 7) over HTTP: runs the tests of the Hummingbird glue
# it is served by (Integrations/JSONAPIHummingbird: authentication), builds the tracker once
# (warnings are errors), runs its in-process tests, starts the built binary on a free port of 127.0.0.1 with a new
# DATABASE_PATH, waits until it answers (at most 60 s), then
#   (a) IntegrationTests/tracker/tracker_check.py run: every pinned rule from outside (Python
#       standard library only): 401 on every path, what each user lists and sees, 404s the same
#       as an id nobody has, no hidden id in any response body, filters and sorts, email, overdue,
#       the owners' and members' writes, related resources named in writes on every path,
#       /operations batches, the cascade of a project delete (read in the database file);
#   (b) the served /openapi.json through openapi-spec-validator, when it is installed;
#   (c) stops the server by its PID, starts it again on the same file, and
#       tracker_check.py restarted: the data is kept and the seed is not written again;
# and stops the server by its PID on exit. The exit status is 1 when any step failed.
#
# SWIFT_SCRATCH, when set, is the scratch path to build in (.ci/run shares the blog's, where
# Hummingbird and GRDB are already built).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh
export SWIFT_BACKTRACE=enable=no
started=$(date +%s)
package=Examples/TrackerServer
# A scratch path shared by several root packages: each reads its own build description.
scratch=(${SWIFT_SCRATCH:+--scratch-path "$SWIFT_SCRATCH" --disable-build-manifest-caching})
status=0

echo "== tracker: the Hummingbird glue's tests (authentication, the secured description)"
swift build --build-tests --package-path Integrations/JSONAPIHummingbird "${scratch[@]}" \
  -Xswiftc -warnings-as-errors
swift test --skip-build --package-path Integrations/JSONAPIHummingbird "${scratch[@]}" || status=1

echo "== tracker: build the server and its tests (warnings are errors)"
swift build --build-tests --package-path "$package" "${scratch[@]}" -Xswiftc -warnings-as-errors
server_bin="$(swift build --package-path "$package" "${scratch[@]}" --show-bin-path)/TrackerServer"

echo "== tracker: in-process tests (every rule, on the memory store and on SQLite)"
swift test --skip-build --package-path "$package" "${scratch[@]}" || status=1

work="$PWD/.build-tracker"
mkdir -p "$work"
run_dir=$(mktemp -d "$work/run.XXXXXX")
database="$run_dir/tracker.sqlite"
port=$(free_ports 1)
url="http://127.0.0.1:$port"
stop_started_on_exit

start_server() {
  start_logged "$run_dir/server.log" env PORT="$port" DATABASE_PATH="$database" \
    BASE_URL="$url" LOG_LEVEL=error "$server_bin"
  server_pid=$started_pid
  # Any answer will do: /openapi.json needs no token.
  wait_until_answering --any-status "the tracker" "$server_pid" "$url/openapi.json" \
    "$run_dir/server.log"
}

echo "== tracker: server on $url (database $database)"
start_server

echo "== tracker (a): the pinned rules over HTTP"
python3 IntegrationTests/tracker/tracker_check.py run "$url" "$database" "$run_dir/state.json" \
  || status=1

echo "== tracker (b): the served OpenAPI description, checked by openapi-spec-validator"
if command -v openapi-spec-validator >/dev/null; then
  curl -sf -o "$run_dir/openapi.json" "$url/openapi.json" || status=1
  openapi-spec-validator "$run_dir/openapi.json" || status=1
else
  echo "openapi-spec-validator is not installed: skipped"
fi

echo "== tracker (c): stop, start again on the same database, check what was kept"
stop_pid "$server_pid"
start_server
python3 IntegrationTests/tracker/tracker_check.py restarted "$url" "$database" \
  "$run_dir/state.json" || status=1
stop_pid "$server_pid"

if [ "$status" -ne 0 ]; then
  echo "== tracker: server log (last 40 lines of $run_dir/server.log)"
  tail -n 40 "$run_dir/server.log"
else
  rm -rf "$run_dir"
fi
elapsed=$(($(date +%s) - started))
echo "== tracker: $((elapsed / 60)) min $((elapsed % 60)) s"
exit "$status"
