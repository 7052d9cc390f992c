#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 for the tests, as on a fresh machine:
# use the running one; else start an installed but stopped cluster; else install PostgreSQL with
# apt-get and start it; else initialise a throwaway cluster on loopback (under target/pg, or
# /var/tmp/switchboard-pg as root).
# The tests connect as postgres/postgres (trust or password authentication both work).
set -euo pipefail
host=127.0.0.1 port=5432
root=$(cd "$(dirname "$0")/.." && pwd)

ready() {
  if command -v pg_isready >/dev/null 2>&1; then pg_isready -q -h "$host" -p "$port"; return; fi
  (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
}
wait_ready() { for _ in $(seq 1 60); do ready && return 0; sleep 0.5; done; return 1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
set_password() { as_postgres psql -q -h "$host" -p "$port" -U postgres -d postgres \
  -c "ALTER USER postgres PASSWORD 'postgres'" >/dev/null 2>&1 || true; }

if ready; then echo "PostgreSQL is up on $host:$port"; exit 0; fi

if command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$(ls /etc/postgresql 2>/dev/null)" ]; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "Starting the installed PostgreSQL $version cluster"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  if wait_ready; then exit 0; fi
fi

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  echo "Installing PostgreSQL with apt-get"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  if [ -n "$version" ]; then
    pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    if wait_ready; then
      # Debian's cluster asks loopback clients for a password: give the test user one.
      (cd / && runuser -u postgres -- psql -q -c "ALTER USER postgres PASSWORD 'postgres'" >/dev/null)
      exit 0
    fi
  fi
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] || { echo "PostgreSQL is not available and could not be installed" >&2; exit 1; }
# As root the cluster belongs to the postgres user, who must reach its directory: not under the
# checkout, which may sit in a directory only root can read. Otherwise under target/.
if [ "$(id -u)" = 0 ]; then pgdir=/var/tmp/switchboard-pg; else pgdir="$root/target/pg"; fi
data="$pgdir/data"
echo "Initialising a throwaway PostgreSQL cluster in $data"
mkdir -p "$pgdir"
[ "$(id -u)" = 0 ] && chown -R postgres "$pgdir"
if [ ! -f "$data/PG_VERSION" ]; then
  as_postgres "$bin/initdb" -D "$data" -A trust -U postgres >/dev/null
fi
as_postgres "$bin/pg_ctl" -D "$data" -l "$pgdir/log" -w \
  -o "-p $port -c listen_addresses=$host -k $pgdir" start >/dev/null
wait_ready && set_password && echo "Throwaway PostgreSQL up on $host:$port"
