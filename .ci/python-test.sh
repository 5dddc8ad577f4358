#!/usr/bin/env bash
# The Python package (crates/python): a virtual environment under target/, the package built
# and installed with pip (maturin comes from PyPI as the build backend), then its pytest suite,
# checked against the `arena` binary of this checkout (the one `cargo test --workspace` built).
#
# pip's cache goes to target/pip-cache unless PIP_CACHE_DIR says otherwise (CI's run sets it).
# The wheel is built with the dev profile (optimised: see [profile.dev] of Cargo.toml) in a
# target folder of its own, target/python-ci-build: maturin builds the crate alone, so its
# dependencies' features differ from `cargo test --workspace`'s and would rebuild them in
# target/debug; apart, it never waits for the tests' build lock, and CI's .ci/prepare.sh builds
# it in the background while the tests run. `pip install ./crates/python` alone builds the
# release one.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/python-ci-venv
PYTHON="$VENV/bin/python"
export PIP_CACHE_DIR="${PIP_CACHE_DIR:-$PWD/target/pip-cache}"
if [ ! -x "$PYTHON" ]; then
  # Debian's python3 has no venv module (nor ensurepip) without python3-venv.
  if ! python3 -m venv "$VENV"; then
    rm -rf "$VENV"
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$VENV"
  fi
fi
# Pinned, so that every CI run tests against the same packages (bump them here on purpose).
"$PYTHON" -m pip install --quiet --disable-pip-version-check maturin==1.16.0 numpy==2.4.6 \
  pytest==9.2.0 pettingzoo==1.27.0 gymnasium==1.4.0 pandas==3.1.1 mypy==2.4.1
# --no-build-isolation: the build uses the pinned maturin above, not whatever PyPI has today
# (its build backend runs the `maturin` command, so the environment's bin/ goes first on PATH).
export PATH="$PWD/$VENV/bin:$PATH"
CARGO_TARGET_DIR="$PWD/target/python-ci-build" MATURIN_PEP517_ARGS="--profile dev" \
  "$PYTHON" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps --no-build-isolation ./crates/python
[ -z "${INSTALL_ONLY:-}" ] || exit 0
# The binary of this checkout (a no-op after `cargo test --workspace`; never a stale one).
if [ -z "${ARENA_BIN:-}" ]; then
  cargo build --quiet --locked -p cli --bin arena
  export ARENA_BIN="$PWD/target/debug/arena"
fi
"$PYTHON" -m pytest crates/python/tests -q -p no:cacheprovider
# The types: the stub matches the module, and the package checks under --strict (from inside
# the environment's folder, so that no file of the checkout shadows a module).
(cd "$VENV" && bin/python -m mypy.stubtest arenagames._arenagames \
  && bin/python -m mypy -p arenagames --strict --ignore-missing-imports)
