# shellcheck shell=bash
# What the scripts that start servers share (issue 40): free ports chosen by the kernel, starting
# a process that is stopped by its PID on exit, a bounded wait until a started server answers,
# a Python virtualenv kept for a requirements file, and the release build of the blog that the
# benchmarks measure. Sourced, not run, from the repository's root:
#
#   source Scripts/lib/servers.sh
#
# Needs python3. Every wait here is bounded but make_venv's (pip's own timeouts bound it). Errors
# end the script (exit 1) with what failed on stderr; nothing here changes the shell's options.

# free_ports N: prints N different free TCP ports of 127.0.0.1 on one line, chosen by the kernel
# (all bound at once, so they differ; closed again before it returns, for the servers started
# next to bind).   read -r a b < <(free_ports 2)      port=$(free_ports 1)
free_ports() {
  python3 -c '
import socket, sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in sockets])
for s in sockets: s.close()' "$1"
}

# The PIDs the EXIT trap of stop_started_on_exit stops: track_pid and start_logged add to them,
# stop_pid takes out.
started_pids=()

# track_pid PID: PID (a process this shell started with &) is stopped on exit.
track_pid() {
  started_pids+=("$1")
}

# start_logged LOG COMMAND...: starts COMMAND in the background, its stdout and stderr appended
# to LOG, and tracks it (track_pid); its PID is in started_pid. Environment variables for it go
# through env:   start_logged "$log" env PORT="$port" "$server_bin"
start_logged() {
  local log=$1
  shift
  "$@" >>"$log" 2>&1 &
  started_pid=$!
  track_pid "$started_pid"
}

# stop_pid PID...: stops each PID that is still a running child of this shell: SIGTERM, at most
# 10 s for it to end (a look every 0.25 s), then SIGKILL; reaps it and stops tracking it. An
# empty PID, or one that has ended (its number may since be another process's), is left alone.
stop_pid() {
  local stopping kept tracked children _
  for stopping in "$@"; do
    [ -n "$stopping" ] || continue
    children=" $(jobs -p | tr '\n' ' ') "
    if [[ $children == *" $stopping "* ]] && kill -0 "$stopping" 2>/dev/null; then
      kill "$stopping" 2>/dev/null || true
      for _ in $(seq 1 40); do
        kill -0 "$stopping" 2>/dev/null || break
        sleep 0.25
      done
      kill -9 "$stopping" 2>/dev/null || true
      wait "$stopping" 2>/dev/null || true
    fi
    kept=()
    for tracked in "${started_pids[@]}"; do
      [ "$tracked" = "$stopping" ] || kept+=("$tracked")
    done
    started_pids=("${kept[@]}")
  done
}

# stop_started_on_exit [HOOK]: sets the traps. On EXIT, every tracked PID still running is
# stopped (stop_pid, the last started first), then HOOK (a function) runs with the exit status
# as its argument, and the script exits with that status. INT and TERM exit 130 (through EXIT).
stop_started_on_exit() {
  servers_exit_hook=${1:-}
  trap servers_on_exit EXIT
  trap 'exit 130' INT TERM
}

# The EXIT trap of stop_started_on_exit.
servers_on_exit() {
  local code=$? i
  set +e
  for ((i = ${#started_pids[@]} - 1; i >= 0; i--)); do
    stop_pid "${started_pids[$i]}"
  done
  if [ -n "$servers_exit_hook" ]; then "$servers_exit_hook" "$code"; fi
  exit "$code"
}

# wait_until_answering [--any-status] [--port-file FILE] NAME PID URL [LOG...]: returns once a
# GET of URL answers within 2 s with a 2xx or 3xx status (with --any-status: any HTTP status).
# Bounded: tries 0.5 s apart for 60 s by the clock (the last one may take its 2 s more). When
# PID (the server) has ended, or the 60 s passed, it says so on stderr with NAME ("the server",
# "instance A"), prints every LOG there, and exits 1. With --port-file FILE, the server chooses
# its port and writes it as FILE's first line once it listens: URL is then a path (/ok?id=0) on
# http://127.0.0.1:PORT, and FILE is read again on each try until then.
wait_until_answering() {
  local any=no port_file='' name pid url target port deadline
  while [ $# -gt 0 ]; do
    case "$1" in
      --any-status) any=yes; shift ;;
      --port-file) port_file=$2; shift 2 ;;
      *) break ;;
    esac
  done
  name=$1 pid=$2 url=$3
  shift 3
  deadline=$((SECONDS + 60))
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      servers_not_answering "$name exited before answering" "$@"
    fi
    target=$url
    if [ -n "$port_file" ]; then
      port=$(head -n 1 "$port_file" 2>/dev/null || true)
      target="http://127.0.0.1:$port$url"
    fi
    if [ -z "$port_file" ] || [ -n "$port" ]; then
      if python3 -c '
import sys, urllib.error, urllib.request
try:
    urllib.request.urlopen(sys.argv[1], timeout=2)
except urllib.error.HTTPError:
    sys.exit(sys.argv[2] != "yes")' "$target" "$any" >/dev/null 2>&1; then
        return 0
      fi
    fi
    sleep 0.5
  done
  servers_not_answering "$name did not answer within 60 s" "$@"
}

# servers_not_answering MESSAGE [LOG...]: wait_until_answering's failure.
servers_not_answering() {
  local message=$1
  shift
  if [ $# -gt 0 ]; then message="$message; its log:"; fi
  echo "$message" >&2
  if [ $# -gt 0 ]; then cat "$@" >&2 || true; fi
  exit 1
}

# make_venv DIR REQUIREMENTS [PYTHON]: a virtualenv at DIR, made by PYTHON (default python3), with
# REQUIREMENTS installed by pip; made again from nothing only when REQUIREMENTS changed since (a
# copy is kept as DIR/requirements.installed) or DIR has no bin/python. The caller prints its
# own header line before.
make_venv() {
  if [ ! -x "$1/bin/python" ] || ! cmp -s "$2" "$1/requirements.installed"; then
    rm -rf "$1"
    "${3:-python3}" -m venv "$1"
    "$1/bin/pip" install --quiet --disable-pip-version-check -r "$2"
    cp "$2" "$1/requirements.installed"
  fi
}

# The benchmarks' server (Scripts/bench-server.sh, Scripts/bench-transports.sh).

# release_blog_server: sets server_bin to SERVER_BIN when that is set (a binary built before:
# another commit's, to compare two in turn), else builds Examples/HummingbirdServer in release
# mode (header "== release build of Examples/HummingbirdServer") and sets it to that build.
release_blog_server() {
  if [ -n "${SERVER_BIN:-}" ]; then
    server_bin="$SERVER_BIN"
    return 0
  fi
  echo "== release build of Examples/HummingbirdServer"
  swift build -c release --package-path Examples/HummingbirdServer
  server_bin="$(swift build -c release --package-path Examples/HummingbirdServer --show-bin-path)/HummingbirdServer"
}

# start_new_blog: starts $server_bin on a free port of 127.0.0.1 with a new database (the server
# seeds it) in a new temporary directory, its log there; sets port, server_pid and work (that
# directory). On exit the server is stopped and the directory removed. Waits until GET /people/1
# answers (wait_until_answering: at most 60 s, the log on failure).
start_new_blog() {
  work=$(mktemp -d)
  stop_started_on_exit remove_new_blog_work
  port=$(free_ports 1)
  start_logged "$work/server.log" env PORT="$port" DATABASE_PATH="$work/blog.sqlite" \
    LOG_LEVEL=error "$server_bin"
  server_pid=$started_pid
  wait_until_answering "the server" "$server_pid" "http://127.0.0.1:$port/people/1" \
    "$work/server.log"
}

# start_new_blog's EXIT hook.
remove_new_blog_work() {
  rm -rf "$work"
}
