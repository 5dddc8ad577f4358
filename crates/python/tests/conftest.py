"""Shared helpers: the `arena` binary the package is checked against.

The binary is `$ARENA_BIN`, else `target/debug/arena` or `target/release/arena` of this
checkout (CI's `cargo test` builds the debug one), else it is built with cargo.
"""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def _find_arena() -> Path:
    given = os.environ.get("ARENA_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("debug", "release"):
        candidate = target / profile / "arena"
        if candidate.exists():
            return candidate
    subprocess.run(["cargo", "build", "--quiet", "-p", "cli", "--bin", "arena"], cwd=REPO,
                   check=True)
    return target / "debug" / "arena"


@pytest.fixture(scope="session")
def arena_bin() -> Path:
    return _find_arena()


@pytest.fixture(scope="session")
def cli(arena_bin):
    """Runs `arena ARGS...`: (exit code, stdout, stderr)."""

    def run(*args, cwd=None):
        done = subprocess.run([str(arena_bin), *map(str, args)], capture_output=True, text=True,
                              cwd=cwd, timeout=600)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture(scope="session")
def cli_error(cli):
    """The message `arena ARGS...` fails with, without its `error: ` prefix."""

    def run(*args):
        code, _, err = cli(*args)
        assert code != 0, f"arena {' '.join(map(str, args))} did not fail"
        lines = [line for line in err.splitlines() if line.startswith("error: ")]
        assert lines, err
        return lines[-1][len("error: "):]

    return run
