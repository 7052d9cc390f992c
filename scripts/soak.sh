#!/usr/bin/env bash
# The soak: one instance on PostgreSQL (echo engine, 50 ms) under steady mixed load — messages, waits
# for their runs, /v1/responses plain and streamed, chat turns followed on their event stream,
# JSON-RPC turn/start, short NDJSON streams, reads, and one NDJSON subscriber throughout — printing
# each minute its requests, failures, p99 latency and the server's heap after a full GC, threads,
# open files and database connections. Exits non-zero when a request failed or a figure grew after
# the warm-up (a fifth of the minutes). Not part of ./mvnw verify; record its figures in
# docs/reliability.md.
#
#   scripts/soak.sh            30 minutes at 20 requests/s
#   scripts/soak.sh 10         10 minutes
#   SOAK_RATE=40 scripts/soak.sh 5
#
# Database and environment as scripts/bench.sh (a PostgreSQL of its own unless BENCH_DB_URL is set);
# SOAK_PORT (default 9290).
set -euo pipefail

minutes="${1:-30}"
rate="${SOAK_RATE:-20}"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pghost="${PGHOST:-127.0.0.1}"
pgport="${PGPORT:-5432}"
pg_own_port="${BENCH_PG_PORT:-5497}"
db_name=switchboard_soak
port="${SOAK_PORT:-9290}"
instance=soak
pidfile="$root/target/instances/$instance/.pid/${SERVER_NAME:-switchboard}.pid"

echo "== building"
./mvnw -q install -DskipTests
./mvnw -q -pl ear liberty:create liberty:install-feature liberty:deploy
rm -f target/liberty/wlp/usr/servers/switchboard/configDropins/overrides/liberty-plugin-variable-config.xml

# shellcheck source=scripts/bench-postgres.sh
. "$root/scripts/bench-postgres.sh"
trap 'scripts/instance.sh stop "$instance" >/dev/null 2>&1 || true; stop_postgres' EXIT
scripts/instance.sh stop "$instance" >/dev/null 2>&1 || true # a leftover from an interrupted run
start_postgres

echo "== starting instance $instance on port $port"
DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" \
  scripts/instance.sh start "$instance" SWITCHBOARD_ENGINE_ECHO_DELAY_MS=50

echo "== soak: $minutes minutes at $rate requests/s"
status=0
./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.SoakBench \
  -Dexec.args="--url http://127.0.0.1:$port --pid $(cat "$pidfile") --db-url $db_url --minutes $minutes --rate $rate" || status=$?
echo "cpus:  $(nproc)"
echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "java:  $(java -version 2>&1 | head -1)"
echo "date:  $(date -u +%Y-%m-%d)"
exit "$status"
