#!/usr/bin/env bash
# The Prometheus server and promtool, from Debian's `prometheus` package.
#
# The integration test that proves every dashboard query returns data starts its own
# Prometheus on a free loopback port with its own config and data directory; the
# package's system service (port 9090, /var/lib/prometheus) is never used, so it must not
# be running.
#
#   scripts/prometheus.sh install   apt-get install prometheus if missing; make sure the
#                                   package's service is stopped and not started at boot;
#                                   check that `prometheus` and `promtool` run
#   scripts/prometheus.sh check     only the last part: both binaries present and running
#
# Must run as root (or with sudo) to install.
set -euo pipefail

say() { echo "prometheus.sh: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

as_root() {
  if [[ "$(id -u)" == 0 ]]; then "$@"; else sudo "$@"; fi
}

# Installs Debian packages without letting their maintainer scripts start the daemons
# they ship: the packages' default services are not what the tests use, and a daemon
# started behind our back would hold ports and memory on a 2-core CI machine.
apt_install_without_autostart() {
  local policy=/usr/sbin/policy-rc.d backup=""
  if [[ -e "$policy" ]]; then
    backup="$(mktemp)"
    as_root cp -p "$policy" "$backup"
  fi
  printf '#!/bin/sh\nexit 101\n' | as_root tee "$policy" >/dev/null
  as_root chmod 755 "$policy"
  local rc=0
  {
    as_root apt-get update -q &&
      as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
        -o DPkg::Lock::Timeout=600 --no-install-recommends "$@"
  } || rc=$?
  if [[ -n "$backup" ]]; then as_root mv "$backup" "$policy"; else as_root rm -f "$policy"; fi
  return "$rc"
}

# The package's own service: stopped now and disabled for the next boot, under whichever
# init system the machine has (CI machines here have none; a developer's may have systemd).
keep_service_off() {
  if [[ -d /run/systemd/system ]] && command -v systemctl >/dev/null; then
    as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
  fi
  if [[ -x /etc/init.d/prometheus ]]; then
    as_root /etc/init.d/prometheus stop >/dev/null 2>&1 || true
    if command -v update-rc.d >/dev/null; then
      as_root update-rc.d prometheus disable >/dev/null 2>&1 || true
    fi
  fi
  local pidfile=/run/prometheus/prometheus.pid
  if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    die "the prometheus package's service still runs (pid $(cat "$pidfile")); stop it by hand"
  fi
}

cmd_check() {
  command -v prometheus >/dev/null || die "prometheus is not installed (run: scripts/prometheus.sh install)"
  command -v promtool >/dev/null || die "promtool is not installed (run: scripts/prometheus.sh install)"
  local version
  version="$(prometheus --version 2>&1 | head -n1)" || die "prometheus --version failed: $version"
  promtool --version >/dev/null 2>&1 || die "promtool --version failed"
  say "$version; promtool present"
}

cmd_install() {
  if ! command -v prometheus >/dev/null || ! command -v promtool >/dev/null; then
    say "installing Debian package prometheus"
    apt_install_without_autostart prometheus
  fi
  keep_service_off
  cmd_check
}

case "${1:-}" in
  install) cmd_install ;;
  check) cmd_check ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
