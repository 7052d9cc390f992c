#!/usr/bin/env bash
# Runs the benchmark scenarios against one Switchboard instance on PostgreSQL and prints the
# RESULT lines plus the machine details to record in docs/benchmarks.md.
#
#   scripts/bench.sh          all scenarios
#   scripts/bench.sh runs     only the echo scenarios (messages in, runs out)
#   scripts/bench.sh notify   only the notification scenarios (WebSocket)
#   scripts/bench.sh ingress  only the webhook ingress scenario
#
# Scenarios (each after an unreported warm-up of N=1000 K=50, so the JIT has compiled the hot path):
#   echo50 N=500 K=50, echo50 N=500 K=1   (SWITCHBOARD_ENGINE_ECHO_DELAY_MS=50)
#   echo0 N=5000 K=50                     (instance restarted with SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0)
# Each also reports its cost per run (ServerCost): CPU ms of the server's JVM and the share of it
# its JIT compilers took, CPU ms of all PostgreSQL processes, the load generator's own CPU ms,
# commits, rows inserted/updated/deleted and WAL KiB — and statement executions where the server
# preloads pg_stat_statements. Measured in the scenario's window, 11 s after the load on each side
# (PostgreSQL publishes a backend's counters once it has been idle), so nothing else may run.
# Notification scenarios (NotifyBench; instance restarted with SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0,
# warm-up: 4000 runs at 100 runs/s with one subscriber, so the JIT has compiled the hot paths):
#   notify latency: 1 WebSocket subscriber, 100 and then 200 runs/s for 20 s over 50 threads;
#                   latency from completed_at to receipt of each turn/completed
#   subscribers:    1000 WebSocket subscribers, 10 runs/s for 20 s (60 000 frames/s out); every
#                   subscriber must receive every turn/completed; server heap (jcmd, after full GC)
#                   before and after
# Ingress scenario (IngressBench; instance with SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0, after an
# unreported warm-up of 3000 deliveries, so the JIT has compiled the ingest and lane paths):
#   ingress D=2000: 2000 GitHub deliveries, 20 % of them resends, to 50 repositories from 16
#                   senders (each repository in order from one sender); every unique delivery must
#                   run exactly once, in its lane's arrival order; deliveries/s accepted and
#                   ingest-to-run-start latency (event received_at to run started_at)
#
# Database: by default a PostgreSQL server of the benchmark's own (BenchPostgres: a fresh cluster
# on port BENCH_PG_PORT, default 5497, under target/bench-pg, with pg_stat_statements preloaded so
# statements per run are counted; stopped and removed at the end). With BENCH_DB_URL (a JDBC URL)
# the database switchboard_bench on PGHOST / PGPORT (user postgres, trust auth) is recreated and
# used instead, and statements are counted only if that server preloads pg_stat_statements.
# Environment: BENCH_PORT (HTTP port of the instance, default 9280), BENCH_CONCURRENCY (default 16),
# BENCH_NOTIFY_RATE (default 200), BENCH_SUBSCRIBERS (default 1000), BENCH_SUBSCRIBER_RATE (default 10).
set -euo pipefail

what="${1:-all}"
case "$what" in
  all|runs|echo0|notify|ingress) ;;
  *) echo "usage: scripts/bench.sh [all|runs|echo0|notify|ingress]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

pghost="${PGHOST:-127.0.0.1}"
pgport="${PGPORT:-5432}"
pg_own_port="${BENCH_PG_PORT:-5497}"
db_name=switchboard_bench
db_url="${BENCH_DB_URL:-}"
port="${BENCH_PORT:-9280}"
concurrency="${BENCH_CONCURRENCY:-16}"
notify_rate="${BENCH_NOTIFY_RATE:-200}"
subscribers="${BENCH_SUBSCRIBERS:-1000}"
subscriber_rate="${BENCH_SUBSCRIBER_RATE:-10}"
instance=bench
pidfile="$root/target/instances/$instance/.pid/${SERVER_NAME:-switchboard}.pid" # where Liberty's start records it
url="http://127.0.0.1:$port"
results=$(mktemp)
log="$root/target/instances/$instance-bench.log"

# Each WebSocket is a file descriptor in the server and one in the load generator (same user, same
# limit); the instance inherits this shell's limit.
nofile=$(ulimit -n)
if [ "$nofile" != unlimited ] && [ "$nofile" -lt 65536 ]; then
  ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
  if [ "$(ulimit -n)" != "$nofile" ]; then
    echo "== open files limit raised from $nofile to $(ulimit -n)"
  fi
fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((subscribers + 1024)) ]; then
  echo "open files limit $(ulimit -n) is too low for $subscribers subscribers" >&2
  exit 1
fi

echo "== building"
./mvnw -q install -DskipTests
./mvnw -q -pl ear liberty:create liberty:install-feature liberty:deploy
rm -f target/liberty/wlp/usr/servers/switchboard/configDropins/overrides/liberty-plugin-variable-config.xml

pg_pid=
stop_postgres() {
  if [ -n "$pg_pid" ]; then
    kill "$pg_pid" 2>/dev/null || true
    for _ in $(seq 1 120); do kill -0 "$pg_pid" 2>/dev/null || break; sleep 0.5; done
    pg_pid=
  fi
}
if [ -z "$db_url" ]; then
  # A PostgreSQL of the benchmark's own, with pg_stat_statements preloaded (BenchPostgres).
  echo "== PostgreSQL of the benchmark's own on port $pg_own_port"
  pg_out="$root/target/bench-pg.out"
  mkdir -p "$root/target"
  ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.BenchPostgres \
    -Dexec.args="$pg_own_port $root/target/bench-pg $db_name" >"$pg_out" 2>&1 &
  for _ in $(seq 1 240); do
    if grep -q '^ready ' "$pg_out"; then break; fi
    if ! kill -0 $! 2>/dev/null; then cat "$pg_out" >&2; exit 1; fi
    sleep 0.5
  done
  grep -q '^ready ' "$pg_out" || { cat "$pg_out" >&2; echo "the benchmark's PostgreSQL did not start" >&2; exit 1; }
  pg_pid=$(awk '/^ready /{print $2}' "$pg_out")
  db_url=$(awk '/^ready /{print $3}' "$pg_out")
else
  echo "== fresh database $db_name on $pghost:$pgport"
  psql -h "$pghost" -p "$pgport" -U postgres -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $db_name WITH (FORCE)"
  psql -h "$pghost" -p "$pgport" -U postgres -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE $db_name"
fi

start_instance() { # $1: echo delay in ms
  echo "== starting instance $instance on port $port (echo delay $1 ms)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" \
    scripts/instance.sh start "$instance" SWITCHBOARD_ENGINE_ECHO_DELAY_MS="$1"
}
stop_instance() {
  scripts/instance.sh stop "$instance"
}
trap 'stop_instance; stop_postgres; rm -f "$results"' EXIT
stop_instance # a leftover from an interrupted run

load() { # $1: N, $2: K, $3: label; then further LoadGenerator options
  local n=$1 k=$2 label=$3
  shift 3
  ./mvnw -q -pl bench exec:java \
    -Dexec.args="--url $url --n $n --k $k --concurrency $concurrency --label '$label' $*"
}

notify_load() { # $1: label, then NotifyBench options
  local label=$1
  shift
  ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.NotifyBench \
    -Dexec.args="--url $url --concurrency $concurrency --label '$label' $*"
}

ingress_load() { # $1: label, then IngressBench options
  local label=$1
  shift
  ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.IngressBench \
    -Dexec.args="--url $url --concurrency $concurrency --label '$label' $*"
}

status=0
warm_up() { # $1: what follows; then the load command and its arguments. Fails if the warm-up fails.
  echo "== warm-up before $1"
  shift
  mkdir -p "$(dirname "$log")"
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "warm-up failed" >&2
    return 1
  fi
}
record() { # $1: label; then the load command and its arguments
  local label=$1 out
  shift
  echo "== $label"
  out=$("$@" 2>&1) || status=1
  echo "$out"
  grep '^RESULT ' <<<"$out" >>"$results" || echo "RESULT {\"label\":\"$label\",\"error\":\"no result\"}" >>"$results"
}
scenario() { # $1: N, $2: K, $3: label, $4: warm-up runs (default 1000)
  # The warm-up runs in the measuring client's own JVM: it warms the server and the client's JIT.
  record "$3" load "$1" "$2" "$3" --warm-up "${4:-1000}" --pid-file "$pidfile" --db-url "$db_url"
}

if [ "$what" = all ] || [ "$what" = runs ]; then
  start_instance 50
  scenario 500 50 "echo50 N=500 K=50"
  scenario 500 1 "echo50 N=500 K=1"
  stop_instance
fi
if [ "$what" = all ] || [ "$what" = runs ] || [ "$what" = echo0 ]; then
  # CPU-bound: a longer warm-up, so that the window measures compiled code, not the JIT.
  start_instance 0
  scenario 5000 50 "echo0 N=5000 K=50" 5000
  stop_instance
fi

if [ "$what" = all ] || [ "$what" = ingress ]; then
  start_instance 0
  if warm_up "the ingress scenario" ingress_load "warm-up" --deliveries 3000; then
    record "ingress D=2000" ingress_load "ingress D=2000" --deliveries 2000 --duplicates 0.2 --repos 50
  else
    status=1
    echo "RESULT {\"label\":\"ingress D=2000\",\"error\":\"warm-up failed\"}" >>"$results"
  fi
  stop_instance
fi

if [ "$what" != all ] && [ "$what" != notify ]; then
  echo
  echo "== results ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  cat "$results"
  echo "cpus:  $(nproc)"
  echo "date:  $(date -u +%Y-%m-%d)"
  exit "$status"
fi

# Notifications at echo 0: the engine delay is not part of the measured latency (completed_at to
# receipt), and without it the lanes do not cap the run rate, so 200 runs/s is the server's to reach.
# A failed warm-up here keeps the results above and records the two scenarios as failed.
start_instance 0
if warm_up "the notification scenarios" notify_load "warm-up" --scenario latency --rate 100 --duration-s 40 --k 50; then
  record "notify latency R=100 K=50" \
    notify_load "notify latency R=100 K=50" --scenario latency --rate 100 --duration-s 20 --k 50
  record "notify latency R=$notify_rate K=50" \
    notify_load "notify latency R=$notify_rate K=50" --scenario latency --rate "$notify_rate" --duration-s 20 --k 50
  record "subscribers S=$subscribers R=$subscriber_rate" \
    notify_load "subscribers S=$subscribers R=$subscriber_rate" --scenario subscribers \
    --subscribers "$subscribers" --rate "$subscriber_rate" --duration-s 20 --k 50 --pid-file "$pidfile"
else
  status=1
  for label in "notify latency R=100 K=50" "notify latency R=$notify_rate K=50" "subscribers S=$subscribers R=$subscriber_rate"; do
    echo "RESULT {\"label\":\"$label\",\"error\":\"warm-up failed\"}" >>"$results"
  done
fi
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
