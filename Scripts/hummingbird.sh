#!/usr/bin/env bash
# Drives Examples/HummingbirdServer over HTTP (issue 31): builds it, runs its in-process tests (the
# JSONAPIHummingbird glue, the blog and LibraryServer, issue 37), starts it on a free port of
# 127.0.0.1 with a new database (seeded by the server), behind a recording proxy, waits until it
# answers (at most 60 s), then runs
#   (a) the project's own scenarios with JSONAPIClient (IntegrationTests, HummingbirdSuite);
#   (b) a third-party client, jsonapi-client from PyPI (pinned in a venv cached in
#       .build-hummingbird/, git-ignored): list with includes, page, create, update, delete, errors;
#   (d) 8 concurrent writers for a bounded time, then counts and contents;
#   (c) every response body the proxy saw against the JSON:API schema, and no 5xx at all;
#   (f) the served OpenAPI description (/openapi.json) through openapi-spec-validator (pinned);
#   (h) Examples/OpenAPIClient, generated from that description by swift-openapi-generator: it
#       lists articles with their authors and creates one;
#   (e) three times: writers, then `kill -9` of the server, a restart on the same database, and
#       every acknowledged write (articles, atomic batches) there, no batch half applied;
#   (g) last, as it writes and deletes at random: schemathesis (pinned, a venv of its own) with
#       the served description: generated requests and chains of operations, checked for 5xx,
#       statuses, content types and bodies;
# and stops the server and the proxy by their PIDs on exit.
#
#   Scripts/hummingbird.sh                 the whole run
#   Scripts/hummingbird.sh --serve         only start the server (Ctrl-C stops it)
#
# CONCURRENCY_SECONDS (default 10) bounds the concurrent writers; SCHEMATHESIS_EXAMPLES (20 per
# operation), SCHEMATHESIS_SECONDS (75 per run, two runs) and SCHEMATHESIS_SEED (1) schemathesis.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh
root=$(pwd)
started=$(date +%s)

mode=run
if [ "${1:-}" = "--serve" ]; then mode=serve; fi

work="$root/.build-hummingbird"
venv="$work/venv"
requirements="$root/IntegrationTests/hummingbird/requirements.txt"
mkdir -p "$work"

echo "== hummingbird: build the server and the suite (warnings are errors)"
swift build --package-path Examples/HummingbirdServer -Xswiftc -warnings-as-errors
if [ "$mode" = run ]; then
  echo "== hummingbird: in-process tests (JSONAPIHummingbird glue, the blog, LibraryServer)"
  swift test --package-path Examples/HummingbirdServer -Xswiftc -warnings-as-errors
fi
server_bin="$(swift build --package-path Examples/HummingbirdServer --show-bin-path)/HummingbirdServer"
if [ "$mode" = run ]; then
  swift build --package-path IntegrationTests --product HummingbirdSuite -Xswiftc -warnings-as-errors
  suite_bin="$(swift build --package-path IntegrationTests --show-bin-path)/HummingbirdSuite"
  swift build --package-path Examples/OpenAPIClient -Xswiftc -warnings-as-errors
  generated_client_bin="$(swift build --package-path Examples/OpenAPIClient --show-bin-path)/BlogOpenAPIClient"
fi

echo "== hummingbird: Python venv with $(basename "$requirements") (python3)"
make_venv "$venv" "$requirements"
python="$venv/bin/python"

st_requirements="$root/IntegrationTests/hummingbird/schemathesis-requirements.txt"
st_venv="$work/schemathesis-venv"
# CPython 3.11 fails now and then inside Hypothesis ("SystemError: AST constructor recursion depth
# mismatch", fixed in later CPython): schemathesis gets a newer one where the machine has it, and
# skips its coverage phase, where the failure showed (2 runs of 3), where it has not.
st_python=python3
for candidate in "$HOME"/.pyenv/versions/3.13*/bin/python3 "$HOME"/.pyenv/versions/3.12*/bin/python3 \
  /usr/bin/python3.13 /usr/bin/python3.12; do
  if [ -x "$candidate" ]; then st_python=$candidate; break; fi
done
st_phases="examples,coverage,fuzzing stateful"
if ! "$st_python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
  st_phases="examples,fuzzing stateful"
fi
if [ "$mode" = run ]; then
  echo "== hummingbird: Python venv with $(basename "$st_requirements") ($st_python)"
  make_venv "$st_venv" "$st_requirements" "$st_python"
fi

read -r server_port proxy_port < <(free_ports 2)
run_dir=$(mktemp -d "$work/run.XXXXXX")
recorded="$run_dir/responses"
url="http://127.0.0.1:$proxy_port/"

# The server and the proxy (start_logged) are stopped by their PIDs on exit.
stop_started_on_exit

# Starts the server on $server_port with the run's database (its log appended to server.log).
start_server() {
  start_logged "$run_dir/server.log" env PORT="$server_port" DATABASE_PATH="$run_dir/blog.sqlite" \
    BASE_URL="http://127.0.0.1:$proxy_port" LOG_LEVEL=error "$server_bin"
  server_pid=$started_pid
}

# Bounded wait: $1 answers within 60 s, or the run fails with the logs. Any HTTP answer will do
# (schemathesis may have deleted people/1 by then).
wait_for_server() {
  wait_until_answering --any-status "the server" "$server_pid" "${1}people/1" \
    "$run_dir/server.log" "$run_dir/proxy.log"
}

echo "== hummingbird: server on 127.0.0.1:$server_port (database $run_dir/blog.sqlite), proxy on $url"
start_server
start_logged "$run_dir/proxy.log" \
  "$python" IntegrationTests/hummingbird/recording_proxy.py "$proxy_port" "$server_port" "$recorded"
wait_for_server "$url"

if [ "$mode" = serve ]; then
  echo "serving $url (log: $run_dir/server.log); Ctrl-C stops it"
  wait "$server_pid"
  exit 0
fi

status=0
echo "== hummingbird (a): JSONAPIClient scenarios (IntegrationTests, HummingbirdSuite)"
"$suite_bin" "$url" || status=1

echo "== hummingbird (b): a third-party client, jsonapi-client $(grep -o 'jsonapi-client==[^ ]*' "$requirements" | cut -d= -f3)"
"$python" IntegrationTests/hummingbird/third_party_client.py "$url" || status=1

echo "== hummingbird (d): 8 concurrent clients creating and updating for ${CONCURRENCY_SECONDS:-10} s"
"$python" IntegrationTests/hummingbird/concurrency.py "$url" 8 "${CONCURRENCY_SECONDS:-10}" \
  || status=1

echo "== hummingbird (c): every response body against the JSON:API schema"
# Atomic Operations results use extension members, which no official schema allows: they are
# checked for their shape here instead. Every other body is a JSON:API document, checked against
# the 1.0 schema; error documents with a `type` link (the Cursor Pagination profile's errors), a
# JSON:API 1.1 member, against the 1.1 draft.
"$python" - "$recorded" <<'PY' || status=1
import json, os, sys
directory = sys.argv[1]
plain, newer, atomic, server_errors, bad = [], [], 0, [], []
for line in open(os.path.join(directory, "index.tsv")):
    number, method, target, code, content_type = line.rstrip("\n").split("\t")
    if int(code) >= 500:
        server_errors.append("%s %s -> %s" % (method, target, code))
    path = os.path.join(directory, number + ".json")
    if not os.path.exists(path):
        continue
    document = json.load(open(path))
    # R98, R99: an answer of the Atomic Operations extension names it in Content-Type, and may be
    # an error document (top-level `errors`): that one is checked against the schema below.
    is_error = isinstance(document, dict) and "errors" in document
    if "ext=" in content_type and "atomic" in content_type and not is_error:
        atomic += 1
        results = document.get("atomic:results")
        if not isinstance(results, list) or not results or "data" in document \
                or not all(isinstance(r, dict) and set(r) <= {"data", "meta"} for r in results):
            bad.append(path)
    else:
        errors = document.get("errors") if isinstance(document, dict) else None
        uses_11 = isinstance(errors, list) and any(
            isinstance(e, dict) and isinstance(e.get("links"), dict) and "type" in e["links"]
            for e in errors)
        (newer if uses_11 else plain).append(path)
open(os.path.join(directory, "1.0.txt"), "w").write("".join(p + "\n" for p in plain))
open(os.path.join(directory, "1.1.txt"), "w").write("".join(p + "\n" for p in newer))
print("%d exchanges recorded: %d JSON:API documents (%d with 1.1 members), %d Atomic Operations "
      "results" % (sum(1 for _ in open(os.path.join(directory, "index.tsv"))),
                   len(plain) + len(newer), len(newer), atomic))
for entry in server_errors:
    print("  5xx: %s" % entry)
for path in bad:
    print("  not atomic:results: %s" % path)
sys.exit(1 if server_errors or bad else 0)
PY
for schema_set in 1.0 1.1; do
  list="$recorded/$schema_set.txt"
  [ -s "$list" ] || continue
  name=$schema_set
  [ "$schema_set" = 1.1 ] && name=1.1-draft-pr1603
  validation="$run_dir/validation-$schema_set.txt"
  xargs -a "$list" -n 500 python3 ../shared/jsonapi/tools/jsonapi_validate.py \
    --schema-set "$name" >"$validation" || true
  passed=$(grep -c '^PASS' "$validation" || true)
  failed=$(grep -c '^FAIL' "$validation" || true)
  echo "schema $name: $passed documents pass, $failed fail"
  if [ "$failed" -ne 0 ] || [ "$passed" -ne "$(wc -l <"$list")" ]; then
    grep -v '^PASS' "$validation" | head -n 20
    status=1
  fi
done

direct_url="http://127.0.0.1:$server_port/"
echo "== hummingbird (f): the served OpenAPI description, checked by openapi-spec-validator"
curl -sf -o "$run_dir/openapi.json" "${url}openapi.json" || status=1
openapi_validator="$venv/bin/openapi-spec-validator"
[ -x "$openapi_validator" ] || openapi_validator=$(command -v openapi-spec-validator || true)
if [ -z "$openapi_validator" ]; then
  echo "openapi-spec-validator is not installed (it is in $(basename "$requirements"))"
  status=1
else
  "$openapi_validator" "$run_dir/openapi.json" || status=1
fi

echo "== hummingbird (h): a client generated by swift-openapi-generator from that description"
# Examples/OpenAPIClient's code was generated from its copy of the description: the served one
# must be the same (but for `servers`, the base URL of each run), or the client is out of date.
committed=Examples/OpenAPIClient/Sources/BlogOpenAPIClient/openapi.json
if "$python" -c '
import json, sys
served, committed = (json.load(open(path)) for path in sys.argv[1:3])
for document in (served, committed):
    document.pop("servers", None)
sys.exit(served != committed)' "$run_dir/openapi.json" "$committed"; then
  "$generated_client_bin" "$direct_url" || status=1
else
  echo "the served description differs from $committed: run"
  echo "Scripts/generate-openapi-client.sh with the served one (curl ${direct_url}openapi.json)"
  status=1
fi

echo "== hummingbird (e): acknowledged writes survive kill -9, three times"
# Straight to the server (a cut answer is no document for the proxy to record): 4 writers create
# articles and atomic batches, the server is killed with -9 after 3 s of it, started again on
# the same database, and every acknowledged write is checked there, and no batch half there.
ledger="$run_dir/crash-ledger.jsonl"
# Three kills, each after 3 s of writing; every check covers the writes of every round so far.
for round in 1 2 3; do
  "$python" IntegrationTests/hummingbird/crash.py write "$direct_url" "$ledger" 4 &
  writers=$!
  sleep 3
  kill -9 "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  wait "$writers" || status=1
  start_server
  wait_for_server "$direct_url"
  echo "kill $round of 3:"
  "$python" IntegrationTests/hummingbird/crash.py check "$direct_url" "$ledger" || status=1
done

echo "== hummingbird (g): schemathesis $(grep -o 'schemathesis==[^ ]*' "$st_requirements" | cut -d= -f3) against the blog, with its own description"
# Straight to the server. Generated requests from each operation's schemas (examples, coverage of
# the edges, fuzzing), then chains that follow the links it infers between operations (create,
# then read, update, delete). Checks: no 5xx, every status, content type and body as described.
# Bounded: SCHEMATHESIS_EXAMPLES per operation and SCHEMATHESIS_SECONDS for each of the two runs.
st_checks=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
for phases in $st_phases; do
  "$st_venv/bin/schemathesis" run "${direct_url}openapi.json" --url "${direct_url%/}" \
    --checks "$st_checks" --phases "$phases" --max-examples "${SCHEMATHESIS_EXAMPLES:-20}" \
    --max-time "${SCHEMATHESIS_SECONDS:-75}" --seed "${SCHEMATHESIS_SEED:-1}" --no-color \
    --header "Accept: application/vnd.api+json" --request-timeout 10 --workers 2 \
    2>&1 | tee "$run_dir/schemathesis-$phases.log" | sed -n '/Scenarios:/p; /API Links:/p; /SUMMARY/,$p'
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done

if [ "$status" -ne 0 ]; then
  echo "== hummingbird: server log (last 40 lines)"
  tail -n 40 "$run_dir/server.log"
else
  rm -rf "$run_dir"
fi
elapsed=$(($(date +%s) - started))
echo "== hummingbird: $((elapsed / 60)) min $((elapsed % 60)) s"
exit "$status"
