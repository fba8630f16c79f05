# Shared by scripts/postgres.sh, prometheus.sh and services.sh (sourced, not run): root
# and Debian package helpers, one copy.

as_root() {
  if [[ "$(id -u)" == 0 ]]; then "$@"; else sudo "$@"; fi
}

# Debian packages, no recommends, waiting for a held dpkg lock rather than failing.
apt_install() {
  as_root apt-get update -q &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      -o DPkg::Lock::Timeout=600 --no-install-recommends "$@"
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
  apt_install "$@" || rc=$?
  if [[ -n "$backup" ]]; then as_root mv "$backup" "$policy"; else as_root rm -f "$policy"; fi
  return "$rc"
}
