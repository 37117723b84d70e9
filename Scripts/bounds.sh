#!/usr/bin/env bash
# Measures the client's bounds against a hostile server (issue 27): starts Scripts/hostile-server.py
# on 127.0.0.1, builds IntegrationTests' BoundsProbe once, runs each case in a fresh process, prints
# a table, and exits non-zero when any run failed. The server is stopped by its PID on exit.
#
#   Scripts/bounds.sh [--transport NAME] [--runs N] [--probe PATH]
#
#   --transport NAME  the transport BoundsProbe uses (default urlsession; see its --transport)
#   --runs N          repetitions of each oversized case, each in a fresh process (default 8: the
#                     race that lets a body past the limit needed 8 runs to show)
#   --probe PATH      an already built executable with BoundsProbe's command line (one that calls
#                     BoundsProbeKit's runBoundsProbe with another transport); skips the build
#
# Cases: honest, chunked, close (64 MiB bodies), lying (1 KiB announced, 64 MiB sent), lying-huge
# (64 GiB announced) and gzip (200 MiB inflated from about 200 KB) with maxResponseBytes 1 MiB;
# gzip again with the default 16 MiB; a within-limit baseline at each limit (a body of exactly
# the limit, which must be accepted within the same bound: the growth the allowance is chosen
# from); smuggle 3 times. A run fails when its outcome is not the expected one or its peak memory
# grew past the limit plus the probe's allowance (BoundsProbeKit's allowanceBytes).
set -euo pipefail
caller=$(pwd)
cd "$(dirname "$0")/.."
# shellcheck source-path=SCRIPTDIR source=lib/servers.sh
source Scripts/lib/servers.sh
root=$(pwd)

transport=urlsession
runs=8
probe=""
while [ $# -gt 0 ]; do
  case "$1" in
    --transport) transport="${2:?--transport needs a name}"; shift 2 ;;
    --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
    --probe) probe="${2:?--probe needs a path}"; shift 2 ;;
    *) echo "usage: Scripts/bounds.sh [--transport NAME] [--runs N] [--probe PATH]" >&2; exit 2 ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) echo "--runs must be a positive number" >&2; exit 2 ;; esac

work="$root/.build-bounds"
mkdir -p "$work"
rm -f "$work"/run-*.log

case "$probe" in '' | /*) ;; *) probe="$caller/$probe" ;; esac
if [ -z "$probe" ]; then
  echo "== building BoundsProbe"
  swift build --package-path IntegrationTests -c debug -Xswiftc -warnings-as-errors \
    --product BoundsProbe
  probe="$(swift build --package-path IntegrationTests -c debug --show-bin-path)/BoundsProbe"
fi
if [ ! -x "$probe" ]; then
  echo "no probe executable at $probe" >&2
  exit 2
fi

echo "== hostile server"
server_out="$work/server.out"
server_log="$work/server.log"
: >"$server_out"
stop_started_on_exit
python3 "$root/Scripts/hostile-server.py" 0 >"$server_out" 2>"$server_log" &
server_pid=$!
track_pid "$server_pid"

# Bounded wait (60 s): the server compresses its gzip bomb, prints its port, then must answer.
wait_until_answering --port-file "$server_out" "the hostile server" "$server_pid" "/ok?id=0" \
  "$server_log"
base="http://127.0.0.1:$(head -n 1 "$server_out")/"
echo "serving $base; probe: $probe --transport $transport"

mib=1048576
table="$work/results.txt"
: >"$table"
failures=0
count=0

# run CASE LIMIT: one probe process; appends "case limit verdict growth bound outcome" (KiB) to
# the table.
run() {
  local name=$1 limit=$2 log line verdict growth bound error
  count=$((count + 1))
  log="$work/run-$count-$name-$limit.log"
  # A hung run is a failed run: the bound is on memory, but a case must also end.
  line=$(timeout 180 "$probe" --transport "$transport" --case "$name" --base "$base" \
    --limit "$limit" 2>"$log" | grep '^RESULT ' || true) || true
  [ -n "$line" ] || line="RESULT case=$name verdict=fail error=no-result"
  echo "$line" >>"$log"
  echo "$line"
  verdict=$(field verdict "$line")
  growth=$(field growth_kib "$line")
  bound=$(field bound_kib "$line")
  error=$(field error "$line")
  # The lying and smuggle cases are about the next request's answer: show that.
  if [ "$name" = lying ]; then error="$error,next:$(field next "$line")"; fi
  if [ "$name" = smuggle ]; then error="second:$(field second "$line")"; fi
  if [ "$verdict" != pass ]; then failures=$((failures + 1)); fi
  echo "$name $limit ${verdict:-fail} ${growth:--} ${bound:--} ${error:--}" >>"$table"
  return 0
}

# field NAME LINE: the value of NAME=... in a RESULT line.
field() {
  echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

echo "== cases (each run is a fresh process)"
run baseline "$mib"
run baseline $((16 * mib))
for name in honest chunked close lying lying-huge gzip; do
  for _ in $(seq 1 "$runs"); do run "$name" "$mib"; done
done
for _ in $(seq 1 "$runs"); do run gzip $((16 * mib)); done
for _ in 1 2 3; do run smuggle "$mib"; done

echo
echo "== transport $transport: $runs runs per oversized case"
awk '
  {
    key = $1 " " $2
    if (!(key in runs)) order[n++] = key
    runs[key]++
    if ($3 != "pass") failed[key]++
    if ($4 != "-" && $5 != "-" && $4 + 0 > $5 + 0) over[key]++
    if ($4 != "-" && (!(key in peak) || $4 + 0 > peak[key])) peak[key] = $4 + 0
    if ($4 != "-" && (!(key in least) || $4 + 0 < least[key])) least[key] = $4 + 0
    if (index(" " outcomes[key] " ", " " $6 " ") == 0) outcomes[key] = outcomes[key] " " $6
  }
  END {
    printf "%-11s %7s %9s %10s %21s  %s\n", "case", "limit", "failed", "over bound", \
      "peak growth (MiB)", "outcomes"
    for (i = 0; i < n; i++) {
      key = order[i]
      split(key, part, " ")
      limit = sprintf("%d MiB", part[2] / 1048576)
      growth = (key in peak) ? sprintf("%.1f to %.1f", least[key] / 1024, peak[key] / 1024) : "-"
      printf "%-11s %7s %3d of %-3d %10d %21s %s\n", part[1], limit, failed[key] + 0, runs[key], \
        over[key] + 0, growth, outcomes[key]
    }
  }' "$table"
echo "(outcomes: the error each run ended with (none: an answer); for lying also what the next"
echo " request got, for smuggle what the second request got; logs in $work)"

if [ "$failures" -ne 0 ]; then
  echo "bounds: $failures of $count runs FAILED"
  exit 1
fi
echo "bounds: all $count runs held"
