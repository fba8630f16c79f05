#!/usr/bin/env bash
# `make console`: the compliance console on the demo's database (after `make demo`).
#
#   scripts/console.sh [BIN] [DB_URL]   BIN: the venv's bin folder (default .venv/bin);
#                                       DB_URL: default the demo's sqlite:///var/demo/ledger.sqlite
#
# The first time, when the database has no console user yet, it adds one named `demo`
# (compliance officer) with a random password and prints it once: the newcomer logs in
# with it at http://127.0.0.1:8080/. Add real users with `pitwatch users add`.
set -euo pipefail
BIN="${1:-.venv/bin}"
DB="${2:-sqlite:///var/demo/ledger.sqlite}"
say() { echo "console.sh: $*" >&2; }

if [[ "$DB" == sqlite:///* && ! -f "${DB#sqlite:///}" ]]; then
  say "no database at $DB yet: run \`make demo\` first"
  exit 2
fi
if [[ -z "$("$BIN/pitwatch" users list --db "$DB")" ]]; then
  password="$("$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(12))')"
  "$BIN/pitwatch" users add demo --role compliance_officer --db "$DB" --password-stdin \
    <<<"$password"
  say "log in as demo, password $password (shown once; pitwatch users add demo --role compliance_officer --db $DB sets another)"
fi
exec "$BIN/pitwatch" serve console --db "$DB"
