#!/usr/bin/env bash
# Start the machine's PostgreSQL cluster and make the test role and database (idempotent).
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version main"; then pg_createcluster "$version" main >/dev/null; fi
pg_ctlcluster "$version" main start 2>/dev/null || true
for _ in $(seq 1 30); do runuser -u postgres -- pg_isready -q && break; sleep 1; done
psql_do() { runuser -u postgres -- psql -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ "$(psql_do -c "select 1 from pg_roles where rolname='sunfleet'")" != "1" ]; then
  psql_do -c "create role sunfleet login password 'sunfleet'"
fi
if [ "$(psql_do -c "select 1 from pg_database where datname='sunfleet_test'")" != "1" ]; then
  psql_do -c "create database sunfleet_test owner sunfleet"
fi
# A test database needs no durability: a commit does not wait for its WAL to reach the disk.
psql_do -c "alter database sunfleet_test set synchronous_commit = off"
echo "PostgreSQL $version ready: postgres://sunfleet:sunfleet@127.0.0.1:5432/sunfleet_test"
