#!/usr/bin/env bash
# The Python package (crates/python): a virtual environment under target/, the package built
# and installed with pip (maturin comes from PyPI as the build backend), then its pytest suite,
# checked against the `arena` binary that `cargo test --workspace` built.
#
# The wheel is built with the dev profile (optimised: see [profile.dev] of Cargo.toml), which
# reuses the workspace crates `cargo test` compiled; `pip install ./crates/python` alone builds
# the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/python-ci-venv
PYTHON="$VENV/bin/python"
if [ ! -x "$PYTHON" ]; then
  python3 -m venv "$VENV"
fi
"$PYTHON" -m pip install --quiet --disable-pip-version-check maturin numpy pytest pettingzoo pandas mypy
MATURIN_PEP517_ARGS="--profile dev" "$PYTHON" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps ./crates/python
export ARENA_BIN="${ARENA_BIN:-$PWD/target/debug/arena}"
if [ ! -x "$ARENA_BIN" ]; then
  cargo build --quiet -p cli --bin arena
fi
"$PYTHON" -m pytest crates/python/tests -q -p no:cacheprovider
# The types: the stub matches the module, and the package checks under --strict (from inside
# the environment's folder, so that no file of the checkout shadows a module).
(cd "$VENV" && bin/python -m mypy.stubtest arenagames._arenagames \
  && bin/python -m mypy -p arenagames --strict --ignore-missing-imports)
