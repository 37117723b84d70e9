#!/usr/bin/env bash
# Runs IntegrationTests (JSONAPIClient against a real JSON:API server) from a clean clone:
# creates a Python venv with djangorestframework-jsonapi (cached in .build-integration, git-ignored),
# migrates and seeds a fresh SQLite database, starts the server on 127.0.0.1, waits until it
# answers (at most 60 s), runs the Swift suite, and stops the server by its PID on exit.
#
#   Scripts/integration.sh           run the suite
#   Scripts/integration.sh --serve   only start the seeded server and keep it running (Ctrl-C stops
#                                    it), e.g. for `swift run NetworkClientExample`
#
# It also starts IntegrationTests/bent/server.py (Python standard library: a server that bends the
# spec as real ones do, issue 36) on 127.0.0.1 and stops it by its PID on exit.
#
# JSONAPI_SERVER_PORT chooses the port (default 8765); JSONAPI_BENT_SERVER_PORT the bent server's
# (default 8766).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh
root=$(pwd)

mode=run
if [ "${1:-}" = "--serve" ]; then mode=serve; fi

work="$root/.build-integration"
venv="$work/venv"
requirements="$root/IntegrationTests/server/requirements.txt"
port="${JSONAPI_SERVER_PORT:-8765}"
url="http://127.0.0.1:$port/"
bent_port="${JSONAPI_BENT_SERVER_PORT:-8766}"
bent_url="http://127.0.0.1:$bent_port/"
mkdir -p "$work"

echo "== server: Python venv with $(basename "$requirements")"
make_venv "$venv" "$requirements"
python="$venv/bin/python"

echo "== server: fresh database, migrated and seeded"
export JSONAPI_SERVER_DB="$work/db.sqlite3"
rm -f "$JSONAPI_SERVER_DB"
(cd IntegrationTests/server && "$python" manage.py migrate --verbosity 0 && "$python" manage.py seed)

for taken in "$port" "$bent_port"; do
  if "$python" -c "import socket,sys; s=socket.socket(); sys.exit(s.connect_ex(('127.0.0.1', $taken)) != 0)"; then
    echo "port $taken is already in use; set JSONAPI_SERVER_PORT or JSONAPI_BENT_SERVER_PORT" >&2
    exit 1
  fi
done

echo "== server: starting on $url"
# Both servers are stopped by their PIDs on exit.
stop_started_on_exit
log="$work/server.log"
(cd IntegrationTests/server && exec "$python" manage.py runserver "127.0.0.1:$port" --noreload) \
  >"$log" 2>&1 &
server_pid=$!
track_pid "$server_pid"
bent_log="$work/bent-server.log"
: >"$bent_log"
start_logged "$bent_log" python3 IntegrationTests/bent/server.py "$bent_port"
bent_pid=$started_pid

# Bounded waits: each server answers within 60 s, or the run fails with its log.
wait_until_answering "the server at ${url}articles/1" "$server_pid" "${url}articles/1" "$log"
wait_until_answering "the server at ${bent_url}articles/1" "$bent_pid" "${bent_url}articles/1" \
  "$bent_log"

if [ "$mode" = serve ]; then
  echo "serving $url (log: $log); Ctrl-C stops it"
  echo "try: JSONAPI_SERVER_URL=$url swift run NetworkClientExample"
  wait "$server_pid"
  exit 0
fi

echo "== integration suite"
status=0
swift run --package-path IntegrationTests -Xswiftc -warnings-as-errors IntegrationSuite "$url" \
  "$bent_url" || status=$?
if [ "$status" -ne 0 ]; then
  echo "== server log (last 60 lines)"
  tail -n 60 "$log"
fi
exit "$status"
