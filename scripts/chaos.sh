#!/usr/bin/env bash
# The chaos run: three instances on a PostgreSQL server of the run's own (port 5498, under
# target/chaos; never the machine's shared one), reached through a fault proxy, under 1000
# messages of mixed load (POST /v1/messages and RPC turn/start, over 40 threads, 150 s) with four
# WebSocket subscribers that resume after every disconnect — while, every 4 to 7 s, an instance
# is killed (kill -9) and restarted, or frozen (SIGSTOP) past its lease and let go on, or every
# database connection is cut; PostgreSQL itself is restarted once. Then it checks and prints:
# acknowledged messages lost, turns ended twice, overlapping engine executions per thread, runs
# not terminal 30 s after the last fault, subscriber notifications missing or duplicated against
# the log, lanes out of FIFO order — each must be 0, or the script exits 1. About 5 minutes;
# loopback only. Needs the build of the README's test command (./mvnw verify) or at least
# ./mvnw install -DskipTests, and PostgreSQL's server binaries (scripts/ensure-postgres.sh).
#
#   scripts/chaos.sh [--messages N] [--threads K] [--load-seconds S] [--instances I]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

echo "== building"
./mvnw -q install -DskipTests
mkdir -p target/chaos
./mvnw -q -pl bench exec:java -Dexec.mainClass=dev.switchboard.bench.chaos.ChaosRun \
  -Dexec.args="--root $root $*" 2>target/chaos/run.err
