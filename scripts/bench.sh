#!/usr/bin/env bash
# Runs the benchmark scenarios against one Switchboard instance on PostgreSQL and prints the
# RESULT lines plus the machine details to record in docs/benchmarks.md.
#
#   scripts/bench.sh          all scenarios
#   scripts/bench.sh runs     only the echo scenarios (messages in, runs out)
#   scripts/bench.sh notify   only the notification scenarios (WebSocket)
#   scripts/bench.sh crowd    only the crowd of subscribers: 11,000 WebSocket subscribers each on a
#                             thread of its own, 1,000 of them live at 200 runs/s (BENCH_CROWD_IDLE,
#                             BENCH_CROWD_LIVE, BENCH_CROWD_RATE: 10000, 1000, 200), the server's heap
#   scripts/bench.sh ingress  only the webhook ingress scenario
#   scripts/bench.sh echo0    only the echo0 scenario (CPU-bound; for A/B comparisons)
#   scripts/bench.sh batch    only the batch scenarios: the echo scenarios' messages sent 50 at a
#                             time to POST /v1/messages/batch
#   scripts/bench.sh two      echo0 on two instances sharing the database: two load generators at
#                             once, one per instance, each warming up (5000 runs) and then posting
#                             N=2500 over K=25 keys
#   scripts/bench.sh responses  only the Open Responses scenario: POST /v1/responses streamed,
#                             N=2000 over K=50 concurrent clients (echo engine, 50 ms), after 1000
#                             unmeasured; responses/s, time to first byte and to [DONE], p50/p99;
#                             then N=500 over K=4, below saturation
#   scripts/bench.sh scale    not part of "all": history at scale (issue 38). echo0 on the empty
#                             database; then ScaleSeed fills it with BENCH_SCALE_RUNS finished runs
#                             (default 10,000,000) over BENCH_SCALE_THREADS threads (100,000), spread
#                             over 60 days, each with its turn and two items; then echo0 on it with
#                             retention off; then, on an instance pruning with retention (runs and
#                             items after 30 days: half the seed, one pass every 10 s), echo0
#                             again and ReadBench (the read and list
#                             routes on seeded runs and threads, p50/p99), with the rows retention
#                             deleted meanwhile
#   scripts/bench.sh webhooks only outgoing webhooks (WebhookBench): one endpoint on a loopback receiver
#                             hearing turn.completed, N=2000 messages over K=50 threads after 500
#                             unmeasured (echo engine, 0 ms), posted as fast as 16 clients go; then
#                             N=1500 at 50 messages/s (below saturation); deliveries/s and the lag from
#                             commit to arrival, p50/p99; every webhook must arrive once
#   scripts/bench.sh db       only the database ceiling: the hot path's statements replayed by
#                             pgbench, without Liberty (bench/pgbench)
#   scripts/bench.sh delegation  only the sub-agent delegation trees (DelegationBench, one tree at a
#                             time after 20 unmeasured): a fork of 50 echo children from one outer run,
#                             and a chain of 16 paths (scripted agents calling the next), 20 trees each
#   scripts/bench.sh turns    only one user's bursts (TurnBurstBench): 30 JSON-RPC turn/start at once, each
#                             on a new thread, against 30 POST /v1/messages at once, 20 rounds of each
#                             after 5 unmeasured (echo engine, 50 ms); p50/p99 of each kind
#   scripts/bench.sh workspace  only the per-turn workspaces (WorkspaceBench; no server, no database):
#                             a thread repository of 1,000 files under target/, then 200 worktree
#                             set-ups + tear-downs (from the thread's cached checkout), 20 cold ones
#                             (no cache: a whole checkout) and 200 turns (set-up, one file changed,
#                             its commit, tear-down), each kind after 20 unmeasured; fails when the
#                             set-up + tear-down p50 is over 200 ms
#
# Scenarios (each after an unreported warm-up in the same client, 1000 runs over 50 other keys, 5000
# for echo0, so the server's and the client's JIT have compiled their hot paths):
#   echo50 N=500 K=50, echo50 N=500 K=1   (SWITCHBOARD_ENGINE_ECHO_DELAY_MS=50)
#   echo0 N=5000 K=50                     (instance restarted with SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0)
#   batch: echo50 N=2000 K=50 B=50, echo0 N=5000 K=50 B=50 (the same, 50 messages per POST)
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
# Environment: BENCH_JFR (a file: the instance records 20 s of JFR profile into it, settings=profile,
# from BENCH_JFR_DELAY after its start, default 50s: about the end of the echo0 warm-up),
# BENCH_PORT (HTTP port of the instance, default 9280), BENCH_CONCURRENCY (default 16),
# BENCH_NOTIFY_RATE (default 200), BENCH_SUBSCRIBERS (default 1000), BENCH_SUBSCRIBER_RATE (default 10).
set -euo pipefail

what="${1:-all}"
case "$what" in
  all|runs|echo0|batch|two|notify|crowd|ingress|responses|turns|db|delegation|workspace|scale|webhooks) ;;
  *) echo "usage: scripts/bench.sh [all|runs|echo0|batch|two|notify|crowd|ingress|responses|turns|db|delegation|workspace|scale|webhooks]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

pghost="${PGHOST:-127.0.0.1}"
pgport="${PGPORT:-5432}"
pg_own_port="${BENCH_PG_PORT:-5497}"
db_name=switchboard_bench
port="${BENCH_PORT:-9280}"
concurrency="${BENCH_CONCURRENCY:-16}"
notify_rate="${BENCH_NOTIFY_RATE:-200}"
subscribers="${BENCH_SUBSCRIBERS:-1000}"
subscriber_rate="${BENCH_SUBSCRIBER_RATE:-10}"
crowd_idle="${BENCH_CROWD_IDLE:-10000}"
crowd_live="${BENCH_CROWD_LIVE:-1000}"
crowd_rate="${BENCH_CROWD_RATE:-200}"
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
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((crowd_idle + crowd_live + 1024)) ]; then
  echo "open files limit $(ulimit -n) is too low for $((crowd_idle + crowd_live)) subscribers" >&2
  exit 1
fi

echo "== building"
./mvnw -q install -DskipTests

workspace_load() { # WorkspaceBench: the workspace core in the bench's own JVM, on the disk of target/
  ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.WorkspaceBench \
    -Dexec.args="--files 1000 --n 200 --warm-up 20 --dir '$root/target' --label 'workspace F=1000'"
}
if [ "$what" = workspace ]; then
  # No server and no database to start: the scenario runs alone and reports like the others.
  echo "== workspace F=1000"
  status=0
  out=$(workspace_load 2>&1) || status=1
  echo "$out"
  echo
  echo "== results ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  grep '^RESULT ' <<<"$out" || echo "RESULT {\"label\":\"workspace F=1000\",\"error\":\"no result\"}"
  rm -f "$results"
  echo "cpus:  $(nproc)"
  echo "cpu:   $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "java:  $(java -version 2>&1 | head -1)"
  echo "disk:  $(df -PT "$root/target" | awk 'NR == 2 { print $2 " (" $1 ")" }')"
  echo "date:  $(date -u +%Y-%m-%d)"
  exit "$status"
fi
./mvnw -q -pl ear liberty:create liberty:install-feature liberty:deploy
rm -f target/liberty/wlp/usr/servers/switchboard/configDropins/overrides/liberty-plugin-variable-config.xml

# shellcheck source=scripts/bench-postgres.sh
. "$root/scripts/bench-postgres.sh"
start_postgres

start_instance() { # $1: echo delay in ms; $2, $3: another instance name and port (default: the benchmark's)
  echo "== starting instance ${2:-$instance} on port ${3:-$port} (echo delay $1 ms)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="${3:-$port}" \
    JVM_ARGS="${BENCH_JFR:+-XX:StartFlightRecording=delay=${BENCH_JFR_DELAY:-50s},duration=20s,filename=$BENCH_JFR,settings=profile}" \
    scripts/instance.sh start "${2:-$instance}" SWITCHBOARD_ENGINE_ECHO_DELAY_MS="$1"
}
stop_instance() { # $1: another instance name (default: the benchmark's)
  scripts/instance.sh stop "${1:-$instance}"
}
second="$instance-2"
trap 'stop_instance; stop_instance "$second" >/dev/null 2>&1 || true; stop_postgres; rm -f "$results"' EXIT
stop_instance # a leftover from an interrupted run

if [ "$what" = db ]; then
  # The database ceiling: pgbench replays one run's statements (bench/pgbench/run.sql: the ingest
  # that claims its idle lane, then the finish) from 16 clients over 50 lanes, and one more client
  # runs the sequencer's passes back to back (stamp.sql; one stamper, as one instance has), on the
  # schema the migrations create. Measured over a 30 s window after 10 s: runs/s, commits, WAL and the CPU of
  # PostgreSQL and of pgbench.
  if [ -n "${BENCH_DB_URL:-}" ]; then db_host=$pghost db_port=$pgport; else db_host=127.0.0.1 db_port=$pg_own_port; fi
  pg_bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -1)")
  pgbench_cmd=$(command -v pgbench || echo "$pg_bin/pgbench")
  sql() { psql -h "$db_host" -p "$db_port" -U postgres -d "$db_name" -q -v ON_ERROR_STOP=1 "$@"; }
  # Portable migrations and PostgreSQL's own, in version order (as Flyway applies them).
  for migration in $(ls persistence/src/main/resources/db/{migration,postgresql}/V*__*.sql \
      | awk -F/ '{ print $NF "\t" $0 }' | sort -V | cut -f2); do
    sql -f "$migration"
  done
  sql -v threads=50 -f bench/pgbench/seed.sql
  cpu_ticks() { # utime + stime of every process named $1, in clock ticks
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v name="($1)" '$2 == name { sum += $14 + $15 } END { print sum + 0 }'
  }
  snapshot() { # succeeded runs, commits, WAL bytes, time (s), PostgreSQL ticks, pgbench ticks
    echo "$(sql -At -F' ' -c "SELECT (SELECT count(*) FROM runs WHERE state = 'succeeded'),
      (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),
      pg_current_wal_lsn() - '0/0', extract(epoch FROM clock_timestamp())") $(cpu_ticks postgres) $(cpu_ticks pgbench)"
  }
  echo "== database ceiling: pgbench, 16 clients, 50 lanes, 10 s warm-up + 30 s window"
  "$pgbench_cmd" -h "$db_host" -p "$db_port" -U postgres -n -M prepared -c 16 -j 2 -T 42 -D threads=50 \
    -f bench/pgbench/run.sql "$db_name" >"$root/target/bench-pgbench.log" 2>&1 &
  pgbench_pid=$!
  "$pgbench_cmd" -h "$db_host" -p "$db_port" -U postgres -n -M prepared -c 1 -T 42 \
    -f bench/pgbench/stamp.sql "$db_name" >"$root/target/bench-pgbench-stamper.log" 2>&1 &
  stamper_pid=$!
  sleep 10
  before=$(snapshot)
  sleep 30
  after=$(snapshot)
  wait "$pgbench_pid" || { cat "$root/target/bench-pgbench.log" >&2; exit 1; }
  wait "$stamper_pid" || { cat "$root/target/bench-pgbench-stamper.log" >&2; exit 1; }
  read -r runs0 commits0 wal0 t0 pg0 client0 <<<"$before"
  read -r runs1 commits1 wal1 t1 pg1 client1 <<<"$after"
  tick=$(getconf CLK_TCK)
  awk -v r="$((runs1 - runs0))" -v c="$((commits1 - commits0))" -v w="$((wal1 - wal0))" -v t0="$t0" -v t1="$t1" \
      -v pg="$((pg1 - pg0))" -v cl="$((client1 - client0))" -v tick="$tick" 'BEGIN {
    s = t1 - t0
    printf "runs/s      %.0f (%d runs in %.1f s)\n", r / s, r, s
    printf "commits     %.0f/s, %.2f per run\n", c / s, c / r
    printf "WAL         %.2f MB/s, %.1f KiB per run\n", w / s / 1e6, w / r / 1024
    printf "CPU         PostgreSQL %.2f cores, %.3f ms per run; pgbench %.2f cores\n", pg / tick / s, pg * 1000 / tick / r, cl / tick / s
    printf "RESULT {\"label\":\"db ceiling C=16 K=50\",\"runs_per_s\":%.1f,\"commits_per_s\":%.0f,\"commits_per_run\":%.2f,\"wal_mb_per_s\":%.2f,\"wal_kb_per_run\":%.2f,\"postgres_cores\":%.2f,\"postgres_cpu_ms_per_run\":%.3f,\"pgbench_cores\":%.2f}\n", r / s, c / s, c / r, w / s / 1e6, w / r / 1024, pg / tick / s, pg * 1000 / tick / r, cl / tick / s
  }'
  if [ -z "${BENCH_DB_URL:-}" ]; then
    echo "statements by execution time (whole run; ms per run, mean us, share):"
    sql -At -F'  ' -c "SELECT round((total_exec_time / $((runs1 > 0 ? runs1 : 1)))::numeric, 3),
        round((total_exec_time * 1000 / calls)::numeric), round((100 * total_exec_time / sum(total_exec_time) OVER ())::numeric, 1) || ' %',
        left(regexp_replace(query, '\s+', ' ', 'g'), 110)
      FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      ORDER BY total_exec_time DESC LIMIT 12" | sed 's/^/  /'
  fi
  echo "cpus:  $(nproc)"
  echo "date:  $(date -u +%Y-%m-%d)"
  exit 0
fi

load() { # $1: N, $2: K, $3: label; then further LoadGenerator options (a later --url wins)
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
scenario() { # $1: N, $2: K, $3: label, $4: warm-up runs (default 1000); then further LoadGenerator options
  # The warm-up runs in the measuring client's own JVM: it warms the server and the client's JIT.
  local n=$1 k=$2 label=$3 warm=${4:-1000}
  shift $(($# < 4 ? $# : 4))
  record "$label" load "$n" "$k" "$label" --warm-up "$warm" --pid-file "$pidfile" --db-url "$db_url" "$@"
}

if [ "$what" = scale ]; then
  scale_runs="${BENCH_SCALE_RUNS:-10000000}"
  scale_threads="${BENCH_SCALE_THREADS:-100000}"
  if [ -z "${BENCH_SCALE_SKIP_EMPTY:-}" ]; then # set it to try the seeding and the reads alone
    start_instance 0
    scenario 5000 50 "scale: echo0 N=5000 K=50, empty database" 5000
    stop_instance
  else
    start_instance 0 # the schema: the instance migrates it
    stop_instance
  fi
  echo "== seeding $scale_runs runs over $scale_threads threads"
  ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.ScaleSeed \
    -Dexec.args="--db-url $db_url --runs $scale_runs --threads $scale_threads --days 60"
  rows() { # runs and thread items in the database
    ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.ScaleSeed \
      -Dexec.args="--db-url $db_url --count" | tail -1
  }
  echo "== before the load: $(rows)"
  echo "== starting instance $instance on port $port (echo delay 0 ms, retention off)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" scripts/instance.sh start "$instance" \
    SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0 SWITCHBOARD_RETENTION_RUNS_DAYS=0
  scenario 5000 50 "scale: echo0 N=5000 K=50, $scale_runs runs seeded, retention off" 5000
  stop_instance
  echo "== starting instance $instance on port $port (echo delay 0 ms, retention: runs and items after 30 days)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" scripts/instance.sh start "$instance" \
    SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0 SWITCHBOARD_RETENTION_RUNS_DAYS=30 SWITCHBOARD_RETENTION_ITEMS_DAYS=30 \
    SWITCHBOARD_RETENTION_EVERY_MS=10000
  scenario 5000 50 "scale: echo0 N=5000 K=50, $scale_runs runs seeded, retention pruning" 5000
  record "scale: reads" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.ReadBench \
    -Dexec.args="--url $url --runs $scale_runs --threads $scale_threads --n 2000 --concurrency 4 --label 'scale: reads, $scale_runs runs seeded, retention pruning'"
  echo "== after the load: $(rows)"
  grep -h "Retention deleted" "$root/target/instances/$instance/switchboard/logs/messages.log" | tail -5 || true
  stop_instance
fi
if [ "$what" = all ] || [ "$what" = webhooks ]; then
  echo "== starting instance $instance on port $port (echo delay 0 ms, webhooks may reach 127.0.0.1)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" scripts/instance.sh start "$instance" \
    SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0 SWITCHBOARD_WEBHOOKS_ALLOWED_NETWORKS=127.0.0.1/32
  record "webhooks N=2000 K=50" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.WebhookBench \
    -Dexec.args="--url $url --n 2000 --k 50 --concurrency $concurrency --warm-up 500 --label 'webhooks N=2000 K=50'"
  record "webhooks N=1500 K=50 at 50/s" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.WebhookBench \
    -Dexec.args="--url $url --n 1500 --k 50 --concurrency $concurrency --rate 50 --warm-up 0 --label 'webhooks N=1500 K=50 at 50/s'"
  stop_instance
fi
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
if [ "$what" = all ] || [ "$what" = batch ]; then
  start_instance 50
  scenario 2000 50 "echo50 N=2000 K=50 B=50" 1000 --batch 50
  stop_instance
  start_instance 0
  scenario 5000 50 "echo0 N=5000 K=50 B=50" 5000 --batch 50
  stop_instance
fi

if [ "$what" = all ] || [ "$what" = two ]; then
  # Two instances on one database, on the same two cores: what the design's sharing costs
  # (lanes move between instances, both poll the same tables), not more CPU. No per-run cost here:
  # the CPU and database counters would be shared by both generators' windows.
  start_instance 0
  start_instance 0 "$second" $((port + 1))
  second_url="http://127.0.0.1:$((port + 1))"
  # Each generator warms its instance and its own JIT first (5000 runs), both at once, so that
  # their measured windows overlap.
  if true; then
    echo "== echo0 two instances N=2x2500 K=2x25"
    out1=$(mktemp) out2=$(mktemp)
    load 2500 25 "echo0 two instances, first" --warm-up 5000 >"$out1" 2>&1 & first=$!
    load 2500 25 "echo0 two instances, second" --warm-up 5000 --url "$second_url" >"$out2" 2>&1 & other=$!
    wait "$first" || status=1
    wait "$other" || status=1
    cat "$out1" "$out2"
    for out in "$out1" "$out2"; do
      grep '^RESULT ' "$out" >>"$results" || echo "RESULT {\"label\":\"echo0 two instances\",\"error\":\"no result\"}" >>"$results"
    done
    grep -h '^RESULT ' "$out1" "$out2" | sed -E 's/.*"runs_per_s":([0-9.]+).*/\1/' \
      | awk '{ sum += $1 } END { printf "== both instances together: %.1f runs/s (the two generators ran at once)\n", sum }'
    rm -f "$out1" "$out2"
  else
    status=1
  fi
  stop_instance "$second"
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

if [ "$what" = all ] || [ "$what" = responses ]; then
  start_instance 50
  record "responses stream N=2000 K=50" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.ResponsesBench \
    -Dexec.args="--url $url --n 2000 --k 50 --warm-up 1000 --label 'responses stream N=2000 K=50'"
  # Below saturation: what a response costs when it does not queue behind 49 others on two cores.
  record "responses stream N=500 K=4" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.ResponsesBench \
    -Dexec.args="--url $url --n 500 --k 4 --warm-up 0 --label 'responses stream N=500 K=4'"
  stop_instance
fi

if [ "$what" = all ] || [ "$what" = turns ]; then
  start_instance 50
  record "turn bursts C=30" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.TurnBurstBench \
    -Dexec.args="--url $url --concurrency 30 --rounds 20 --warm-up 5 --label 'turn bursts C=30'"
  stop_instance
fi

if [ "$what" = all ] || [ "$what" = delegation ]; then
  # The outer runs and the chain's links run the scripted engine (its call directives); the fork's
  # children the echo engine without delay.
  echo "== starting instance $instance on port $port (scripted engine, agents worker and link)"
  DB_URL="$db_url" DB_USER=postgres DB_PASSWORD=unused HTTP_PORT="$port" \
    scripts/instance.sh start "$instance" SWITCHBOARD_ENGINE=scripted SWITCHBOARD_ENGINE_ECHO_DELAY_MS=0 \
    'SWITCHBOARD_AGENTS=[{"name":"worker","engine":"echo"},{"name":"link","engine":"scripted"}]'
  for shape in "fork 50" "chain 16"; do
    set -- $shape
    record "delegation $1 $2" ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.DelegationBench \
      -Dexec.args="--url $url --shape $1 --size $2 --n 20 --warm-up 20 --label 'delegation $1 $2'"
  done
  stop_instance
fi

if [ "$what" = all ]; then
  record "workspace F=1000" workspace_load
fi

if [ "$what" != all ] && [ "$what" != notify ] && [ "$what" != crowd ]; then
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
crowd_label="crowd S=$((crowd_idle + crowd_live)) live=$crowd_live R=$crowd_rate"
if [ "$what" = crowd ]; then
  if warm_up "the crowd" notify_load "warm-up" --scenario latency --rate 100 --duration-s 40 --k 50; then
    record "$crowd_label" notify_load "$crowd_label" --scenario crowd --subscribers $((crowd_idle + crowd_live)) \
      --live "$crowd_live" --rate "$crowd_rate" --duration-s 20 --connect-concurrency 64 --pid-file "$pidfile"
  else
    status=1
    echo "RESULT {\"label\":\"$crowd_label\",\"error\":\"warm-up failed\"}" >>"$results"
  fi
elif warm_up "the notification scenarios" notify_load "warm-up" --scenario latency --rate 100 --duration-s 40 --k 50; then
  record "notify latency R=100 K=50" \
    notify_load "notify latency R=100 K=50" --scenario latency --rate 100 --duration-s 20 --k 50
  record "notify latency R=$notify_rate K=50" \
    notify_load "notify latency R=$notify_rate K=50" --scenario latency --rate "$notify_rate" --duration-s 20 --k 50
  record "subscribers S=$subscribers R=$subscriber_rate" \
    notify_load "subscribers S=$subscribers R=$subscriber_rate" --scenario subscribers \
    --subscribers "$subscribers" --rate "$subscriber_rate" --duration-s 20 --k 50 --pid-file "$pidfile"
  record "$crowd_label" notify_load "$crowd_label" --scenario crowd --subscribers $((crowd_idle + crowd_live)) \
    --live "$crowd_live" --rate "$crowd_rate" --duration-s 20 --connect-concurrency 64 --pid-file "$pidfile"
else
  status=1
  for label in "notify latency R=100 K=50" "notify latency R=$notify_rate K=50" "subscribers S=$subscribers R=$subscriber_rate" "$crowd_label"; do
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
