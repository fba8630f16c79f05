#!/usr/bin/env bash
# The project's virtual environment, made with the machine's own Python 3.11.
#
#   scripts/venv.sh [PYTHON] [VENV]   make VENV (default .venv) with PYTHON (default
#                                     python3.11) unless it is already a working 3.11 venv
#
# Why a venv: Debian's Python refuses `pip install` outside one (PEP 668, "externally
# managed environment"), and the project must not depend on what happens to be installed
# globally. On Debian the venv module is a separate package (python3.11-venv): installed
# here when running as root (or with sudo), else named in one line.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PYTHON="${1:-python3.11}"
VENV="${2:-.venv}"

say() { echo "venv.sh: $*" >&2; }

is_python311() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; }

if [[ -x "$VENV/bin/python" ]] && is_python311 "$VENV/bin/python" &&
  "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  exit 0 # already there
fi

if ! command -v "$PYTHON" >/dev/null; then
  say "no $PYTHON on PATH: install Python 3.11 (Debian 12: apt-get install python3.11) or run make PYTHON=/path/to/python3.11"
  exit 2
fi
if ! is_python311 "$PYTHON"; then
  say "$PYTHON is not Python 3.11 (pitwatch needs 3.11): run make PYTHON=/path/to/python3.11"
  exit 2
fi
if ! "$PYTHON" -c 'import ensurepip, venv' 2>/dev/null; then
  if [[ "$(id -u)" == 0 ]] || command -v sudo >/dev/null; then
    say "installing python3.11-venv from Debian (the venv module of Debian's Python)"
    apt_install python3.11-venv
  else
    say "$PYTHON has no venv module: install python3.11-venv (sudo apt-get install python3.11-venv), then run make again"
    exit 2
  fi
fi

say "creating $VENV with $PYTHON ($("$PYTHON" -c 'import sys; print(sys.version.split()[0])'))"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
