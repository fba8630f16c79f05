#!/usr/bin/env bash
# Everything pitwatch's integration and end-to-end tests need on this machine, from the
# repo's own files and the package registries only.
#
#   scripts/services.sh up       install what is missing (PostgreSQL and Prometheus from
#                                Debian, the Kafka broker's jars from Maven Central), start
#                                Kafka and PostgreSQL, wait until both answer
#                                (what is already up stays up: safe to run twice)
#   scripts/services.sh down     stop Kafka and PostgreSQL (data stays)
#   scripts/services.sh status   exit 0 if both answer
#
# Debian's chromium and chromium-driver are installed for the console's browser tests.
# Prometheus is only installed: the test that needs it starts its own server on a free
# loopback port. Ports and paths: see scripts/kafka.sh and scripts/postgres.sh
# (PITWATCH_VAR, PITWATCH_KAFKA_PORT, PITWATCH_PG_PORT, ...).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

say() { echo "services.sh: $*" >&2; }

# Java 17+ and Maven are on the project's machines already; install them from Debian
# where they are not, so that `up` works on a bare Debian 12 too.
ensure_java_and_maven() {
  local missing=()
  command -v java >/dev/null || [[ -x "${JAVA_HOME:-/nonexistent}/bin/java" ]] ||
    missing+=(openjdk-17-jre-headless)
  command -v mvn >/dev/null || missing+=(maven)
  if ((${#missing[@]})); then
    say "installing ${missing[*]} from Debian"
    apt_install "${missing[@]}"
  fi
}

# WeasyPrint (PDF reports) needs Pango and HarfBuzz's subsetter from Debian; without the
# subsetter the PDF bytes differ from run to run.
ensure_report_libs() {
  local missing=() pkg
  for pkg in libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 poppler-utils; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    say "installing ${missing[*]} from Debian"
    apt_install "${missing[@]}"
  fi
}

# The console's browser tests (tests/browser) drive Debian's own chromium through its
# chromedriver (Selenium): no browser is downloaded from anywhere else.
ensure_browser() {
  local missing=() pkg
  for pkg in chromium chromium-driver; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    say "installing ${missing[*]} from Debian (the console's browser tests)"
    apt_install "${missing[@]}"
  fi
}

cmd_up() {
  local started=$SECONDS
  ensure_java_and_maven
  ensure_report_libs
  ensure_browser
  # Kafka (Maven resolve, storage format, JVM start) runs while apt installs the Debian
  # packages: on a fresh machine the two are the slow parts and need different things.
  "$HERE/kafka.sh" start &
  local kafka_pid=$!
  local rc=0
  "$HERE/postgres.sh" start || rc=$?
  if ((rc == 0)); then "$HERE/prometheus.sh" install || rc=$?; fi
  wait "$kafka_pid" || rc=$?
  if ((rc != 0)); then
    say "FAILED (exit $rc) after $((SECONDS - started))s"
    return "$rc"
  fi
  say "up in $((SECONDS - started))s: kafka $("$HERE/kafka.sh" bootstrap), postgres $("$HERE/postgres.sh" url)"
}

cmd_down() {
  local rc=0
  "$HERE/kafka.sh" stop || rc=$?
  "$HERE/postgres.sh" stop || rc=$?
  return "$rc"
}

cmd_status() {
  local rc=0 out
  out="$("$HERE/kafka.sh" status)" || rc=1
  echo "kafka: $out"
  out="$("$HERE/postgres.sh" status)" || rc=1
  echo "postgres: $out"
  return "$rc"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
