#!/usr/bin/env bash
# Starts, stops or kills one Switchboard instance of the server laid down by the build
# (./mvnw verify, or ./mvnw liberty:create liberty:deploy). Several instances of the one server
# configuration run side by side: each has its own output directory (logs, workarea, embedded
# database) under target/instances/<name>, and its own settings from the environment.
#
#   scripts/instance.sh start <name> [VAR=value ...]   start and wait until /health/ready answers 200
#   scripts/instance.sh stop  <name>                   graceful stop (in-flight runs finish or are handed back)
#   scripts/instance.sh stop-now <name>                the same without Liberty's 30 s wait for open requests
#   scripts/instance.sh kill  <name>                   kill -9, to test crash recovery
#   scripts/instance.sh pause <name>                   SIGSTOP: frozen, alive, holding its leases (a late owner)
#   scripts/instance.sh resume <name>                  SIGCONT: a paused instance goes on
#
# Settings are environment variables: HTTP_PORT (default 9080), DB_URL / DB_USER / DB_PASSWORD,
# SWITCHBOARD_* (see README). Example:
#   DB_URL=jdbc:postgresql://127.0.0.1:5432/switchboard DB_USER=postgres HTTP_PORT=9181 \
#     scripts/instance.sh start a SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
wlp="${WLP_HOME:-$root/target/liberty/wlp}"
server="${SERVER_NAME:-switchboard}"
cmd="${1:-}"; name="${2:-}"
[ -n "$cmd" ] && [ -n "$name" ] || { sed -n '2,19p' "$0"; exit 2; }
shift 2
for assignment in "$@"; do export "${assignment?}"; done

export WLP_OUTPUT_DIR="$root/target/instances/$name"
# Liberty's own metrics endpoint listens on a loopback port of its own (server.xml): one per instance.
export SWITCHBOARD_INTERNAL_PORT="${SWITCHBOARD_INTERNAL_PORT:-$(( ${HTTP_PORT:-9080} + 10000 ))}"
pidfile="$WLP_OUTPUT_DIR/.pid/$server.pid"
[ -x "$wlp/bin/server" ] || { echo "no Liberty runtime at $wlp: run ./mvnw verify -DskipTests first" >&2; exit 1; }

case "$cmd" in
  start)
    mkdir -p "$WLP_OUTPUT_DIR"
    "$wlp/bin/server" start "$server" >"$WLP_OUTPUT_DIR/start.out" 2>&1 || { cat "$WLP_OUTPUT_DIR/start.out" >&2; exit 1; }
    port="${HTTP_PORT:-9080}"
    for _ in $(seq 1 240); do
      if curl -sf -o /dev/null "http://127.0.0.1:$port/health/ready"; then
        echo "instance $name ready on port $port (pid $(cat "$pidfile" 2>/dev/null))"
        exit 0
      fi
      sleep 0.5
    done
    echo "instance $name did not become ready; see $WLP_OUTPUT_DIR/$server/logs/messages.log" >&2
    exit 1 ;;
  stop)
    "$wlp/bin/server" stop "$server" >/dev/null 2>&1 || true ;;
  stop-now)
    # Runs still finish or are handed back (that is the application's stop); requests still open —
    # a stalled client's, a stream nobody closed — are cut instead of waited for up to 30 s.
    "$wlp/bin/server" stop "$server" --force >/dev/null 2>&1 || true ;;
  kill)
    if [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill -9 "$pid" 2>/dev/null || true
      # Returns once the process is gone, its port and files released, as after a real crash.
      # (A zombie left unreaped by a container's init counts as gone.)
      for _ in $(seq 1 300); do
        state=$(awk '/^State:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        [ -n "$state" ] && [ "$state" != Z ] || break
        sleep 0.1
      done
      rm -f "$pidfile"
    fi ;;
  pause|resume)
    [ -f "$pidfile" ] || { echo "instance $name is not running (no $pidfile)" >&2; exit 1; }
    kill "-$([ "$cmd" = pause ] && echo STOP || echo CONT)" "$(cat "$pidfile")" ;;
  *)
    echo "unknown command $cmd" >&2; exit 2 ;;
esac
