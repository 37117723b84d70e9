#!/usr/bin/env bash
# Drives two instances of Examples/HummingbirdServer on one PostgreSQL database (issue 39, the
# PostgreSQL side of Scripts/hummingbird.sh):
#   1. PostgreSQL: installs Debian's package when no /usr/lib/postgresql/*/bin/initdb is there
#      (apt-get), then, once the build is done, a cluster of its own (initdb as the `postgres`
#      user, trust, UTF8, locale C) in a new directory under .build-postgres/ (git-ignored), on a
#      free port of 127.0.0.1 with its socket in that directory. A cluster the package may have
#      started on 5432 is never touched.
#   2. Builds the server and HummingbirdSuite, warnings as errors (no-ops after hummingbird.sh).
#   3. JSONAPIPostgresStore's own tests, the store conformance suite among them (swift test
#      --package-path Integrations/JSONAPIPostgresStore), with POSTGRES_URL naming a database of
#      theirs there.
#      Then `createdb blog`, and instances A and B on two free ports, started at once with
#      DATABASE_URL naming that database; both must answer within 60 s, and the database must
#      hold the seed once (5 people, 25 articles, 75 comments: both instances raced to seed it).
#   4. (a) The JSONAPIClient scenarios (IntegrationTests, HummingbirdSuite) against A; then, as
#      they need a fresh seed, both stopped, `dropdb blog; createdb blog`, both started again at
#      once (the seed checked again), and the scenarios against B.
#   5. (b) two_instances.py: 8 writers, 4 on each instance, for CONCURRENCY_SECONDS (default
#      10): creates, PATCHes of different members of the same articles from both instances
#      (lost updates), Atomic Operations batches with `lid`s; then every acknowledged write
#      checked through both instances and straight from the database with psql.
#   6. (c) Three kill rounds: crash.py writers spread over both instances for 3 s, `kill -9` of
#      one (A, B, A), a restart of it on the same database, then every acknowledged write of
#      every round so far there and no batch half there; the writes of (b) checked once more.
#   7. (d) Issue 48: IF_MATCH_ROUNDS (default 20) rounds of two PATCHes of one article, one on
#      each instance, with the same If-Match at once: exactly one 200 and one 412 each round, and
#      the winner's title stored.
#   8. Prints the elapsed time; on any failure the servers' logs (last 40 lines each) and the
#      PostgreSQL log, and keeps the run's directory.
# An EXIT trap stops what the script started: the servers by PID, PostgreSQL with
# `pg_ctl stop -m fast`; the run's directory goes on success. Every wait is bounded (pg_ctl 30 s,
# the servers 60 s). Run it as root (PostgreSQL then runs as `postgres`) or as a plain user.
#
#   Scripts/postgres.sh
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh
root=$(pwd)
started=$(date +%s)
export SWIFT_BACKTRACE=enable=no

work="$root/.build-postgres"
mkdir -p "$work"

# What the EXIT trap stops: crash.py's writers and the servers (pid), by their PIDs (tracked:
# Scripts/lib/servers.sh), then the cluster (finish).
declare -A port=() pid=()
run_dir=
data=
pg_started=
status=0

# stop_instance NAME: SIGTERM, at most 10 s for it to end, then SIGKILL.
stop_instance() {
  stop_pid "${pid[$1]:-}"
  pid[$1]=
}

# finish STATUS: the rest of the EXIT trap, once the servers are stopped.
# shellcheck disable=SC2317 # called by the EXIT trap (stop_started_on_exit)
finish() {
  local code=$1
  if [ "$code" -ne 0 ]; then
    for name in A B; do
      if [ -f "$run_dir/server-$name.log" ]; then
        echo "== postgres: log of instance $name (last 40 lines)"
        tail -n 40 "$run_dir/server-$name.log"
      fi
    done
  fi
  if [ -n "$pg_started" ]; then
    "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$data" stop -m fast -w -t 30 >/dev/null
  fi
  if [ "$code" -ne 0 ]; then
    # initdb's output only when PostgreSQL never started.
    for log in postgres.log initdb.log; do
      if [ -f "$run_dir/$log" ]; then
        echo "== postgres: $log (last 100 lines)"
        tail -n 100 "$run_dir/$log"
        break
      fi
    done
    [ -z "$run_dir" ] || echo "== postgres: failed; the run's files are in $run_dir"
  elif [ -n "$run_dir" ]; then
    rm -rf "$run_dir"
  fi
  local elapsed=$(($(date +%s) - started))
  echo "== postgres: $((elapsed / 60)) min $((elapsed % 60)) s"
}
stop_started_on_exit finish

# The newest PostgreSQL server installed (Debian's layout), if any.
find_pg_bin() {
  local dir found=
  for dir in $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then found=$dir; fi
  done
  echo "$found"
}
echo "== postgres: PostgreSQL server"
pg_bin=$(find_pg_bin)
if [ -z "$pg_bin" ]; then
  apt-get update
  apt-get install -y postgresql
  pg_bin=$(find_pg_bin)
  if [ -z "$pg_bin" ]; then
    echo "no /usr/lib/postgresql/*/bin/initdb after installing postgresql" >&2
    exit 1
  fi
fi
# Its own clients (psql, createdb, dropdb), not Debian's wrappers.
export PATH="$pg_bin:$PATH"
echo "$("$pg_bin/postgres" --version) in $pg_bin"

echo "== postgres: build the server and the suite (warnings are errors)"
swift build --package-path Examples/HummingbirdServer -Xswiftc -warnings-as-errors
server_bin="$(swift build --package-path Examples/HummingbirdServer --show-bin-path)/HummingbirdServer"
swift build --package-path IntegrationTests --product HummingbirdSuite -Xswiftc -warnings-as-errors
suite_bin="$(swift build --package-path IntegrationTests --show-bin-path)/HummingbirdSuite"

# Three free ports, chosen by the kernel: PostgreSQL, A, B.
read -r pg_port port_a port_b < <(free_ports 3)
run_dir=$(mktemp -d "$work/run.XXXXXX")
data="$run_dir/data"
as_postgres=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$run_dir"
  as_postgres=(runuser -u postgres --)
fi
pg=(-h 127.0.0.1 -p "$pg_port" -U postgres)
database_url="postgres://postgres@127.0.0.1:$pg_port/blog"
port=([A]=$port_a [B]=$port_b)
url_a="http://127.0.0.1:$port_a/"
url_b="http://127.0.0.1:$port_b/"

echo "== postgres: cluster in $data on 127.0.0.1:$pg_port"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$data" -A trust -U postgres -E UTF8 --locale=C \
  >"$run_dir/initdb.log" 2>&1
pg_started=1
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$data" -l "$run_dir/postgres.log" -w -t 30 \
  -o "-p $pg_port -k '$run_dir' -c listen_addresses=127.0.0.1" start >/dev/null

echo "== postgres: JSONAPIPostgresStore's tests (the store conformance suite among them) against the cluster"
# Each test works in a schema of its own in this database. The store is a package of its own
# (Integrations/JSONAPIPostgresStore), built in its own scratch path: a smaller package graph in
# the blog's would make the next build there compile again what it leaves out.
createdb "${pg[@]}" store_tests
POSTGRES_URL="postgres://postgres@127.0.0.1:$pg_port/store_tests" swift test \
  --package-path Integrations/JSONAPIPostgresStore -Xswiftc -warnings-as-errors || status=1

createdb "${pg[@]}" blog

# start_instance NAME: the blog on NAME's port with the database (its log appended).
start_instance() {
  start_logged "$run_dir/server-$1.log" env DATABASE_URL="$database_url" PORT="${port[$1]}" \
    BASE_URL="http://127.0.0.1:${port[$1]}" LOG_LEVEL=error "$server_bin"
  pid[$1]=$started_pid
}

# Bounded wait: NAME answers GET /people/1 (any HTTP answer) within 60 s, or the run fails (the
# EXIT trap prints the logs).
wait_for_instance() {
  wait_until_answering --any-status "instance $1" "${pid[$1]}" \
    "http://127.0.0.1:${port[$1]}/people/1"
}

# Both instances started at once on the database, then waited for.
start_both() {
  start_instance A
  start_instance B
  wait_for_instance A
  wait_for_instance B
}

# The seed is there once, however many instances raced to make it.
check_seeded_once() {
  local counts
  counts=$(psql "${pg[@]}" -d blog -XAt -v ON_ERROR_STOP=1 -c "SELECT (SELECT count(*) FROM people)
    || ' ' || (SELECT count(*) FROM articles) || ' ' || (SELECT count(*) FROM comments)")
  if [ "$counts" = "5 25 75" ]; then
    echo "seeded once: 5 people, 25 articles, 75 comments"
  else
    echo "after two instances started at once, people, articles, comments: $counts (not 5 25 75)"
    status=1
  fi
}

echo "== postgres: instances A ($url_a) and B ($url_b), started at once on $database_url"
start_both
check_seeded_once

echo "== postgres (a): JSONAPIClient scenarios (HummingbirdSuite) against A"
"$suite_bin" "$url_a" || status=1

echo "== postgres (a): a new database, both instances started at once again, the scenarios against B"
stop_instance A
stop_instance B
dropdb "${pg[@]}" --force blog
createdb "${pg[@]}" blog
start_both
check_seeded_once
"$suite_bin" "$url_b" || status=1

echo "== postgres (b): 8 writers, 4 on each instance, for ${CONCURRENCY_SECONDS:-10} s; then both instances and the database checked"
two_ledger="$run_dir/two-instances-ledger.jsonl"
psql_arguments="-h 127.0.0.1 -p $pg_port -U postgres -d blog"
python3 IntegrationTests/hummingbird/two_instances.py write "$url_a" "$url_b" "$two_ledger" \
  "${CONCURRENCY_SECONDS:-10}" || status=1
python3 IntegrationTests/hummingbird/two_instances.py check "$url_a" "$url_b" "$two_ledger" \
  --psql "$psql_arguments" || status=1

echo "== postgres (c): acknowledged writes survive kill -9 of one instance, three times"
# Writers on both instances; one is killed after 3 s (they all stop then), started again on the
# same database; every check covers the writes of every round so far.
ledger="$run_dir/crash-ledger.jsonl"
round=0
for victim in A B A; do
  round=$((round + 1))
  python3 IntegrationTests/hummingbird/crash.py write "$url_a,$url_b" "$ledger" 4 &
  writers=$!
  track_pid "$writers"
  sleep 3
  if ! kill -9 "${pid[$victim]}"; then
    echo "instance $victim had exited before the kill"
    status=1
  fi
  wait "${pid[$victim]}" 2>/dev/null || true
  wait "$writers" || status=1
  stop_pid "$writers" # ended: no longer for the EXIT trap to stop
  start_instance "$victim"
  wait_for_instance "$victim"
  echo "kill $round of 3 (instance $victim):"
  python3 IntegrationTests/hummingbird/crash.py check "$url_a,$url_b" "$ledger" || status=1
done
echo "the writes of (b), after the kills:"
python3 IntegrationTests/hummingbird/two_instances.py check "$url_a" "$url_b" "$two_ledger" \
  --psql "$psql_arguments" || status=1

echo "== postgres (d): two clients, one on each instance, PATCH one article with the same If-Match at once, ${IF_MATCH_ROUNDS:-20} rounds"
# Issue 48: the If-Match check runs inside the write's transaction after locking the row, so in
# every round exactly one PATCH wins (200) and the other is 412, and the winner's title is stored.
media="application/vnd.api+json"
for round in $(seq 1 "${IF_MATCH_ROUNDS:-20}"); do
  etag=$(curl -s -D - -o /dev/null -H "Accept: $media" "${url_a%/}/articles/1" |
    tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')
  if [ -z "$etag" ]; then
    echo "round $round: GET $url_a/articles/1 carried no ETag"
    status=1
    break
  fi
  patchers=()
  for side in A B; do
    url=$url_a
    if [ "$side" = B ]; then url=$url_b; fi
    curl -s -o /dev/null -w '%{http_code}' -X PATCH -H "Accept: $media" \
      -H "Content-Type: $media" -H "If-Match: $etag" \
      --data "{\"data\":{\"type\":\"articles\",\"id\":\"1\",\"attributes\":{\"title\":\"round $round by $side\"}}}" \
      "${url%/}/articles/1" >"$run_dir/if-match-$side" &
    patchers+=("$!")
  done
  # Only the two PATCHes: a bare `wait` would wait for the servers too.
  wait "${patchers[@]}" || true
  statuses="$(cat "$run_dir/if-match-A") $(cat "$run_dir/if-match-B")"
  case "$statuses" in
  "200 412") winner=A ;;
  "412 200") winner=B ;;
  *)
    echo "round $round: A and B answered $statuses, not one 200 and one 412"
    status=1
    continue
    ;;
  esac
  stored=$(curl -s -H "Accept: $media" "${url_b%/}/articles/1" | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["data"]["attributes"]["title"])')
  if [ "$stored" != "round $round by $winner" ]; then
    echo "round $round: $winner won, but the stored title is \"$stored\""
    status=1
  fi
done
echo "(d): ${IF_MATCH_ROUNDS:-20} rounds done"

exit "$status"
