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
#   scripts/prometheus.sh run CONFIG DATA_DIR [PORT]
#                                   run a server in the foreground (it replaces this shell,
#                                   so its pid is the caller's child) on 127.0.0.1:PORT
#                                   (default: a free port), with CONFIG and its storage in
#                                   DATA_DIR; the URL is printed on stderr first. Stop it
#                                   with SIGTERM.
#
# Must run as root (or with sudo) to install.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

say() { echo "prometheus.sh: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

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

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cmd_run() {
  (($# >= 2 && $# <= 3)) || die "usage: scripts/prometheus.sh run CONFIG DATA_DIR [PORT]"
  local config="$1" data="$2" port="${3:-}"
  command -v prometheus >/dev/null || die "prometheus is not installed (run: scripts/prometheus.sh install)"
  [[ -f "$config" ]] || die "no config file $config"
  [[ -z "$port" ]] && port="$(free_port)"
  [[ "$port" =~ ^[0-9]+$ ]] || die "port must be a number, not $port"
  mkdir -p "$data"
  say "serving http://127.0.0.1:$port (config $config, data $data)"
  # Loopback only; short retention: these servers hold a test's or a demo's data.
  exec prometheus \
    --config.file="$config" \
    --storage.tsdb.path="$data" \
    --storage.tsdb.retention.time=1d \
    --web.listen-address="127.0.0.1:$port" \
    --log.level=warn
}

case "${1:-}" in
  install) cmd_install ;;
  check) cmd_check ;;
  run) shift; cmd_run "$@" ;;
  *)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
