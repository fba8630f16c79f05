#!/usr/bin/env bash
# The Rust toolchain the native core (native/) builds with.
#   bash scripts/native.sh ensure   cargo and rustc on PATH (Debian's packages if missing)
#   bash scripts/native.sh env      exports for this cargo (eval "$(bash scripts/native.sh env)")
#   bash scripts/native.sh test     cargo test, then clippy -D warnings (core and binding)
# Crate versions are pinned in native/Cargo.lock to build with rustc >= 1.63 (Debian 12)
# and with the rustup toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
    echo "pitwatch's native core needs Rust's cargo and rustc >= 1.63: install rustup" \
         "(https://rustup.rs) or your distribution's 'cargo' and 'rustc' packages" >&2
    exit 1
}

cargo_minor() { cargo --version 2>/dev/null | sed -E 's/^cargo 1\.([0-9]+).*/\1/'; }

case "${1:-}" in
ensure)
    if ! command -v cargo >/dev/null 2>&1; then
        if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
            echo "no cargo on PATH: installing Debian's cargo, rustc and rust-clippy" >&2
            apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cargo rustc rust-clippy >/dev/null
        fi
    fi
    command -v cargo >/dev/null 2>&1 || need
    minor="$(cargo_minor)"
    [ -n "$minor" ] && [ "$minor" -ge 63 ] || need
    ;;
env)
    # Cargo before 1.68 reads crates.io's index only through git (github.com); its sparse
    # protocol (the registry itself) is there behind an unstable flag.
    minor="$(cargo_minor)"
    if [ -n "$minor" ] && [ "$minor" -lt 68 ]; then
        echo "export RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_SPARSE_REGISTRY=true"
    fi
    ;;
test)
    eval "$("$0" env)"
    cd native
    cargo test --locked
    if cargo clippy --version >/dev/null 2>&1; then
        cargo clippy --locked --all-targets -- -D warnings
        cargo clippy --locked --features python -- -D warnings
    else
        echo "cargo clippy is not installed (rustup component add clippy, or Debian's rust-clippy)" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: bash scripts/native.sh ensure|env|test" >&2
    exit 2
    ;;
esac
