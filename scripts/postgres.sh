#!/usr/bin/env bash
# Local PostgreSQL for pitwatch's integration tests, from Debian's `postgresql` package.
#
# It runs as its own Debian cluster named `pitwatch` (pg_createcluster / pg_ctlcluster),
# on 127.0.0.1 only, on its own port, so it neither clashes with nor touches the
# distribution's default `main` cluster on 5432.
#
#   scripts/postgres.sh install   apt-get install postgresql if it is missing
#   scripts/postgres.sh start     install, create the cluster, role and database if missing,
#                                 start the cluster, wait until it accepts connections
#                                 (already running: no-op apart from the checks)
#   scripts/postgres.sh stop      stop the cluster (its data stays)
#   scripts/postgres.sh status    exit 0 if the cluster accepts connections
#   scripts/postgres.sh wait      wait until it accepts connections (fails after the timeout)
#   scripts/postgres.sh url       print the SQLAlchemy URL of the pitwatch database
#
# Environment:
#   PITWATCH_PG_PORT          port (default 5433)
#   PITWATCH_PG_USER          login role (default pitwatch); it may create databases, so
#                             tests can make a fresh database per session
#   PITWATCH_PG_PASSWORD      its password (default pitwatch); host auth is scram-sha-256
#   PITWATCH_PG_DB            database (default pitwatch)
#   PITWATCH_PG_WAIT_SECONDS  how long start/wait wait (default 60)
#
# Must run as root (or with sudo): the server runs as the `postgres` user.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PORT="${PITWATCH_PG_PORT:-5433}"
PG_USER="${PITWATCH_PG_USER:-pitwatch}"
PG_PASSWORD="${PITWATCH_PG_PASSWORD:-pitwatch}"
PG_DB="${PITWATCH_PG_DB:-pitwatch}"
WAIT_SECONDS="${PITWATCH_PG_WAIT_SECONDS:-60}"
CLUSTER="pitwatch"

say() { echo "postgres.sh: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

as_postgres() {
  if [[ "$(id -u)" == 0 ]]; then
    runuser -u postgres -- "$@"
  elif [[ "$(id -un)" == postgres ]]; then
    "$@"
  else
    sudo -u postgres "$@"
  fi
}

# The newest PostgreSQL major version whose server is installed, e.g. 15.
server_version() {
  local bin
  for bin in /usr/lib/postgresql/*/bin/postgres; do
    [[ -x "$bin" ]] && basename "$(dirname "$(dirname "$bin")")"
  done | sort -n | tail -n1
}

cmd_install() {
  if [[ -n "$(server_version)" ]] && command -v pg_createcluster >/dev/null; then
    return 0
  fi
  say "installing Debian package postgresql"
  apt_install_without_autostart postgresql
  [[ -n "$(server_version)" ]] || die "postgresql installed but no server binary under /usr/lib/postgresql"
}

cluster_exists() {
  pg_lsclusters --no-header 2>/dev/null |
    awk -v v="$1" -v c="$CLUSTER" '$1 == v && $2 == c {found=1} END {exit !found}'
}

ensure_cluster() {
  local version="$1" confd="/etc/postgresql/$1/$CLUSTER/conf.d"
  if ! cluster_exists "$version"; then
    # pg_dropcluster leaves behind the conf.d file written below; without a
    # postgresql.conf beside it that directory is no cluster, but it would make
    # pg_createcluster refuse to create one.
    if [[ -d "/etc/postgresql/$version/$CLUSTER" && ! -e "/etc/postgresql/$version/$CLUSTER/postgresql.conf" ]]; then
      as_root rm -rf "/etc/postgresql/$version/$CLUSTER"
    fi
    say "creating cluster $version/$CLUSTER on port $PORT"
    as_root pg_createcluster --port="$PORT" --locale=C.UTF-8 --encoding=UTF8 \
      "$version" "$CLUSTER" -- --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  fi
  # conf.d is read last, so these win over postgresql.conf; rewritten each time so a
  # changed PITWATCH_PG_PORT takes effect on the next start.
  as_root tee "$confd/pitwatch.conf" >/dev/null <<EOF
# Written by scripts/postgres.sh: loopback only, on the port the tests expect.
listen_addresses = '127.0.0.1'
port = $PORT
max_connections = 200
EOF
}

online() {
  pg_lsclusters --no-header 2>/dev/null |
    awk -v v="$1" -v c="$CLUSTER" '$1 == v && $2 == c && $4 == "online" {found=1} END {exit !found}'
}

accepts_connections() {
  pg_isready -q -h 127.0.0.1 -p "$PORT" -t 2
}

cmd_wait() {
  local deadline=$((SECONDS + WAIT_SECONDS))
  while ((SECONDS < deadline)); do
    if accepts_connections; then
      return 0
    fi
    sleep 0.5
  done
  die "PostgreSQL did not accept connections on 127.0.0.1:$PORT within ${WAIT_SECONDS}s (log: /var/log/postgresql/postgresql-$(server_version)-$CLUSTER.log)"
}

psql_admin() {
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" -d postgres "$@"
}

# The login role and database the app and tests use; created once, password kept in sync.
ensure_role_and_database() {
  psql_admin -v user="$PG_USER" -v password="$PG_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN CREATEDB', :'user')
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'user') \gexec
SELECT format('ALTER ROLE %I WITH LOGIN CREATEDB PASSWORD %L', :'user', :'password') \gexec
SQL
  psql_admin -v user="$PG_USER" -v db="$PG_DB" <<'SQL'
SELECT format('CREATE DATABASE %I OWNER %I', :'db', :'user')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
SQL
}

cmd_start() {
  cmd_install
  local version; version="$(server_version)"
  ensure_cluster "$version"
  if ! online "$version"; then
    say "starting cluster $version/$CLUSTER on 127.0.0.1:$PORT"
    as_root pg_ctlcluster "$version" "$CLUSTER" start
  elif accepts_connections; then
    say "cluster $version/$CLUSTER already running on 127.0.0.1:$PORT"
  else
    # Running, but not where we want it (PITWATCH_PG_PORT changed): the new conf.d
    # settings only take effect on a restart.
    say "cluster $version/$CLUSTER runs but not on 127.0.0.1:$PORT: restarting it there"
    as_root pg_ctlcluster "$version" "$CLUSTER" restart -m fast
  fi
  cmd_wait
  ensure_role_and_database
  say "ready: $(cmd_url)"
}

cmd_stop() {
  local version; version="$(server_version)"
  if [[ -z "$version" ]] || ! cluster_exists "$version" || ! online "$version"; then
    say "not running"
    return 0
  fi
  as_root pg_ctlcluster "$version" "$CLUSTER" stop -m fast
  say "stopped cluster $version/$CLUSTER"
}

cmd_status() {
  if accepts_connections; then
    echo "running on 127.0.0.1:$PORT"
    return 0
  fi
  echo "stopped"
  return 1
}

cmd_url() {
  python3 - "$PG_USER" "$PG_PASSWORD" "$PORT" "$PG_DB" <<'PY'
import sys
from urllib.parse import quote

user, password, port, db = sys.argv[1:]
print(f"postgresql+psycopg://{quote(user, safe='')}:{quote(password, safe='')}@127.0.0.1:{port}/{quote(db, safe='')}")
PY
}

case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  wait) cmd_wait ;;
  url) cmd_url ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
