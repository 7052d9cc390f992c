#!/usr/bin/env bash
# Runs the benchmark scenarios against one Switchboard instance on PostgreSQL and prints the
# RESULT lines plus the machine details to record in docs/benchmarks.md.
#
#   scripts/bench.sh
#
# Scenarios (each after an unreported warm-up of N=1000 K=50, so the JIT has compiled the hot path):
#   echo50 N=500 K=50, echo50 N=500 K=1   (SWITCHBOARD_ENGINE_ECHO_DELAY_MS=50)
#   echo0 N=5000 K=50                     (instance restarted with SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0)
#
# Environment: PGHOST / PGPORT (default 127.0.0.1:5432, user postgres, trust auth), BENCH_DB_URL
# (JDBC URL of the database to use, default jdbc:postgresql://$PGHOST:$PGPORT/switchboard_bench),
# BENCH_PORT (HTTP port of the instance, default 9280), BENCH_CONCURRENCY (default 16).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

pghost="${PGHOST:-127.0.0.1}"
pgport="${PGPORT:-5432}"
db_name=switchboard_bench
db_url="${BENCH_DB_URL:-jdbc:postgresql://$pghost:$pgport/$db_name}"
port="${BENCH_PORT:-9280}"
concurrency="${BENCH_CONCURRENCY:-16}"
instance=bench
url="http://127.0.0.1:$port"
results=$(mktemp)
log="$root/target/instances/$instance-bench.log"

echo "== building"
./mvnw -q install -DskipTests
./mvnw -q -pl ear liberty:create liberty:install-feature liberty:deploy
rm -f target/liberty/wlp/usr/servers/switchboard/configDropins/overrides/liberty-plugin-variable-config.xml

echo "== fresh database $db_name"
psql -h "$pghost" -p "$pgport" -U postgres -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db_name WITH (FORCE)"
psql -h "$pghost" -p "$pgport" -U postgres -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db_name"

start_instance() { # $1: echo delay in ms
  echo "== starting instance $instance on port $port (echo delay $1 ms)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" \
    scripts/instance.sh start "$instance" SWITCHBOARD_ENGINE_ECHO_DELAY_MS="$1"
}
stop_instance() {
  scripts/instance.sh stop "$instance"
}
trap 'stop_instance; rm -f "$results"' EXIT
stop_instance # a leftover from an interrupted run

load() { # $1: N, $2: K, $3: label
  ./mvnw -q -pl bench exec:java \
    -Dexec.args="--url $url --n $1 --k $2 --concurrency $concurrency --label '$3'"
}

status=0
scenario() { # $1: N, $2: K, $3: label
  echo "== warm-up before $3"
  mkdir -p "$(dirname "$log")"
  if ! load 1000 50 "warm-up" >"$log" 2>&1; then
    cat "$log" >&2
    echo "warm-up failed" >&2
    exit 1
  fi
  echo "== $3"
  local out
  out=$(load "$1" "$2" "$3" 2>&1) || status=1
  echo "$out"
  grep '^RESULT ' <<<"$out" >>"$results" || echo "RESULT {\"label\":\"$3\",\"error\":\"no result\"}" >>"$results"
}

start_instance 50
scenario 500 50 "echo50 N=500 K=50"
scenario 500 1 "echo50 N=500 K=1"
stop_instance
start_instance 0
scenario 5000 50 "echo0 N=5000 K=50"
stop_instance

echo
echo "== results ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
cat "$results"
echo "arch:  $(uname -m)"
echo "cpus:  $(nproc)"
echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "java:  $(java -version 2>&1 | head -1)"
echo "date:  $(date -u +%Y-%m-%d)"
exit "$status"
