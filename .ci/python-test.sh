#!/usr/bin/env bash
# The Python package (crates/python): a virtual environment under target/, the package built
# and installed with pip (maturin comes from PyPI as the build backend), then its pytest suite,
# checked against the `arena` binary of this checkout (the one `cargo test --workspace` built).
#
# The wheel is built with the dev profile (optimised: see [profile.dev] of Cargo.toml), which
# reuses the workspace crates `cargo test` compiled; `pip install ./crates/python` alone builds
# the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/python-ci-venv
PYTHON="$VENV/bin/python"
if [ ! -x "$PYTHON" ]; then
  # Debian's python3 has no venv module (nor ensurepip) without python3-venv.
  if ! python3 -m venv "$VENV"; then
    rm -rf "$VENV"
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$VENV"
  fi
fi
"$PYTHON" -m pip install --quiet --disable-pip-version-check maturin numpy pytest pettingzoo pandas mypy
MATURIN_PEP517_ARGS="--profile dev" "$PYTHON" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps ./crates/python
# The binary of this checkout (a no-op after `cargo test --workspace`; never a stale one).
if [ -z "${ARENA_BIN:-}" ]; then
  cargo build --quiet -p cli --bin arena
  export ARENA_BIN="$PWD/target/debug/arena"
fi
"$PYTHON" -m pytest crates/python/tests -q -p no:cacheprovider
# The types: the stub matches the module, and the package checks under --strict (from inside
# the environment's folder, so that no file of the checkout shadows a module).
(cd "$VENV" && bin/python -m mypy.stubtest arenagames._arenagames \
  && bin/python -m mypy -p arenagames --strict --ignore-missing-imports)
