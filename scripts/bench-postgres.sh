# Sourced by scripts/bench.sh and scripts/soak.sh: a PostgreSQL of the benchmark's own (BenchPostgres:
# a fresh cluster on port $pg_own_port under target/bench-pg, with pg_stat_statements preloaded), or
# with BENCH_DB_URL the database $db_name recreated on PGHOST / PGPORT. Sets db_url (JDBC) and pg_pid;
# stop_postgres stops the cluster of its own. Expects root, db_name, pg_own_port, pghost, pgport.
pg_pid=
db_url="${BENCH_DB_URL:-}"
stop_postgres() {
  if [ -n "$pg_pid" ]; then
    kill "$pg_pid" 2>/dev/null || true
    for _ in $(seq 1 120); do kill -0 "$pg_pid" 2>/dev/null || break; sleep 0.5; done
    pg_pid=
  fi
}
start_postgres() {
  if [ -z "$db_url" ]; then
    echo "== PostgreSQL of the benchmark's own on port $pg_own_port"
    local pg_out="$root/target/bench-pg.out"
    mkdir -p "$root/target"
    ./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.BenchPostgres \
      -Dexec.args="$pg_own_port $root/target/bench-pg $db_name" >"$pg_out" 2>&1 &
    local starter=$!
    for _ in $(seq 1 240); do
      if grep -q '^ready ' "$pg_out"; then break; fi
      if ! kill -0 "$starter" 2>/dev/null; then cat "$pg_out" >&2; exit 1; fi
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
}
