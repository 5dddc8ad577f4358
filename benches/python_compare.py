#!/usr/bin/env python3
"""The Python package's speed, next to OpenSpiel's Python bindings and to `arena bench`, in one run.

    python3 benches/python_compare.py              # five rounds, about two minutes
    python3 benches/python_compare.py --quick      # one short round
    python3 benches/python_compare.py --markdown   # the table as Markdown (the book's benchmarks page)

It runs in a virtual environment of its own, as benches/openspiel_compare.py does: the first
run creates `target/python-bench-venv` (or --venv, or $PYTHON_BENCH_VENV) with
`pip install open-spiel numpy`, every run installs the package from this checkout with
`pip install ./crates/python` (a release build; quick when nothing changed; --no-install
skips it), then runs this script again inside it.

Two figures, each the median of the rounds, the sides taking turns within each round (a
shared machine's speed drifts by tens of per cent over seconds); a ratio is the median of the
rounds' ratios:

- Random playouts on 15x15 k=5 (and tic-tac-toe, for scale) driven move by move from Python:
  the same loop on both sides, `legal_moves` and `push` on ours, `legal_actions` and
  `apply_action` on OpenSpiel's `gomoku(size=15,connect=5)` (`tic_tac_toe`), a move chosen
  with `random.choice(moves)` of a `random.Random(1)`, and again with the cheaper
  `moves[int(random() * len(moves))]`; from a fresh start position every playout
  (`Game.clone()` of the start, `game.new_initial_state()`). Nanoseconds per ply and the ratio.
- Whole random playouts in one Rust call, `Game.random_playouts(n)` from Python, against
  `arena bench --filter playouts.mnk-15x15k5` of the release binary: the same loop and the same
  generator, so the two should agree within noise (the goal: within 10%).
"""

import argparse
import datetime
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MARKER = "ARENA_PYTHON_COMPARE_IN_VENV"
BOARDS = [
    ("mnk-15x15k5", "gomoku(size=15,connect=5)", "15x15 k=5", 5.0),
    ("tictactoe", "tic_tac_toe", "tic-tac-toe", None),
]
# How the loop picks a move among the legal ones (the same on both sides).
IDIOMS = {"choice": "random.choice(moves)", "index": "moves[int(random() * len(moves))]"}
ROUND_SECONDS = 1.0
QUICK_SECONDS = 0.3


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one short round")
    parser.add_argument("--rounds", type=int, help="rounds (default 5; 1 with --quick)")
    parser.add_argument("--venv", type=Path,
                        default=Path(os.environ.get("PYTHON_BENCH_VENV",
                                                    REPO / "target" / "python-bench-venv")),
                        help="the virtual environment (default: $PYTHON_BENCH_VENV or "
                             "target/python-bench-venv)")
    parser.add_argument("--no-install", action="store_true",
                        help="use the arenagames already installed in the environment")
    parser.add_argument("--arena", type=Path,
                        help="our binary for `arena bench` (default: build the release one)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    if args.rounds is None:
        args.rounds = 1 if args.quick else 5
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def ensure_venv(args):
    """Runs this script inside the environment (created when missing, the package installed
    from this checkout); returns only when already inside it."""
    if os.environ.get(MARKER) == "1":
        return
    venv = args.venv.resolve()
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with pip install open-spiel numpy ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import pyspiel, numpy"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "open-spiel", "numpy"],
                       check=True)
    if not args.no_install:
        print("pip install ./crates/python ...", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--force-reinstall",
                        "--no-deps", str(REPO / "crates" / "python")], check=True)
    env = dict(os.environ, **{MARKER: "1"})
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


# --- the loops ------------------------------------------------------------------------------


def ours_loop(variant, idiom):
    import arenagames

    start = arenagames.Game(variant)

    def with_choice(count, rng):
        choice = rng.choice
        plies = 0
        for _ in range(count):
            game = start.clone()
            while not game.is_over():
                game.push(choice(game.legal_moves()))
            plies += game.ply
        return plies

    def with_index(count, rng):
        uniform = rng.random
        plies = 0
        for _ in range(count):
            game = start.clone()
            while not game.is_over():
                moves = game.legal_moves()
                game.push(moves[int(uniform() * len(moves))])
            plies += game.ply
        return plies

    return with_choice if idiom == "choice" else with_index


def openspiel_loop(game_string, idiom):
    import pyspiel

    game = pyspiel.load_game(game_string)

    def with_choice(count, rng):
        choice = rng.choice
        plies = 0
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
            plies += state.move_number()
        return plies

    def with_index(count, rng):
        uniform = rng.random
        plies = 0
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                moves = state.legal_actions()
                state.apply_action(moves[int(uniform() * len(moves))])
            plies += state.move_number()
        return plies

    return with_choice if idiom == "choice" else with_index


def ns_per_ply(loop, seconds):
    """Nanoseconds per ply of `loop`, run in batches until `seconds` have passed."""
    rng = random.Random(1)
    plies, started = 0, time.perf_counter()
    while True:
        plies += loop(10, rng)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return elapsed / plies * 1e9


def one_call_rate(variant, seconds):
    """`Game.random_playouts` in playouts per second: the median of five rounds of calls of
    100 playouts, as `arena bench` measures its own.

    Every call has a seed of its own, as `arena bench` draws all its playouts from one
    generator: calls with one seed would replay the same 100 games, whose ~10,000 plies the
    CPU's branch predictor learns (the loop then measured 40-50% faster than the same loop on
    fresh games, in Python and in Rust alike).
    """
    import arenagames

    start = arenagames.Game(variant)
    rates = []
    calls = 0
    for _ in range(5):
        count, started = 0, time.perf_counter()
        while True:
            calls += 1
            count += start.random_playouts(100, seed=calls)["playouts"]
            elapsed = time.perf_counter() - started
            if elapsed >= seconds / 5:
                break
        rates.append(count / elapsed)
    return statistics.median(rates)


def arena_binary(args) -> Path:
    if args.arena:
        return args.arena
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    print("cargo build --release -p cli ...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "cli", "--bin", "arena"],
                   cwd=REPO, check=True)
    return target / "release" / "arena"


def arena_bench_rate(binary, variant, quick):
    command = [str(binary), "bench", *(["--quick"] if quick else []),
               "--filter", f"playouts.{variant}"]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    match = re.search(rf"^playouts\.{re.escape(variant)}: (\S+) playouts/s", output, re.M)
    if not match:
        raise SystemExit(f"no playouts figure in the output of {' '.join(command)}:\n{output}")
    return float(match.group(1))


# --- the table ------------------------------------------------------------------------------


def main():
    args = parse_args()
    ensure_venv(args)
    from importlib.metadata import version

    seconds = QUICK_SECONDS if args.quick else ROUND_SECONDS
    binary = arena_binary(args)
    loops = {(board, idiom): (ours_loop(board, idiom), openspiel_loop(game_string, idiom))
             for board, game_string, _, _ in BOARDS for idiom in IDIOMS}
    ours_ns = {key: [] for key in loops}
    theirs_ns = {key: [] for key in loops}
    call_rates, bench_rates = [], []
    for round_number in range(args.rounds):
        print(f"round {round_number + 1} of {args.rounds} ...", file=sys.stderr)
        for key, (ours, theirs) in loops.items():
            ours_ns[key].append(ns_per_ply(ours, seconds))
            theirs_ns[key].append(ns_per_ply(theirs, seconds))
        call_rates.append(one_call_rate("mnk-15x15k5", seconds * 2))
        bench_rates.append(arena_bench_rate(binary, "mnk-15x15k5", args.quick))

    rows = []
    for board, _, label, goal in BOARDS:
        for idiom, how in IDIOMS.items():
            key = (board, idiom)
            mine = statistics.median(ours_ns[key])
            other = statistics.median(theirs_ns[key])
            # The ratio of each round (the two sides a second apart), then their median:
            # steadier than the ratio of the medians when the machine's speed drifts.
            ratio = statistics.median(t / o for o, t in zip(ours_ns[key], theirs_ns[key]))
            verdict = ("" if goal is None else
                       f">= {goal:g}x: {'met' if ratio >= goal else 'MISSED'}")
            rows.append((f"Python loop, ns per ply, {label}, {how}",
                         f"{mine:,.0f}", f"{other:,.0f}", f"{ratio:.2f}x", verdict))
    call = statistics.median(call_rates)
    bench = statistics.median(bench_rates)
    gap = statistics.median(c / b for c, b in zip(call_rates, bench_rates)) - 1
    rows.append(("random playouts/s, 15x15 k=5, one call: Game.random_playouts vs arena bench",
                 f"{call:,.0f}", f"{bench:,.0f} (arena bench)", f"{gap + 1:.2f}",
                 f"within 10%: {'met' if abs(gap) <= 0.10 else 'MISSED'} ({gap:+.1%})"))

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(l.split(":", 1)[1].strip() for l in info if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"{datetime.date.today()}: arenagames {version('arenagames')}, OpenSpiel "
          f"{version('open-spiel')} (pip), Python {platform.python_version()}; median of "
          f"{args.rounds} round(s); {cpu}, {os.cpu_count()} threads")
    header = ("figure", "arenagames", "OpenSpiel / other", "ratio", "goal")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("| --- | ---: | ---: | ---: | --- |")
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(5)]
        for row in [header] + rows:
            print("  ".join(str(cell).ljust(widths[i]) if i in (0, 4) else
                            str(cell).rjust(widths[i]) for i, cell in enumerate(row)).rstrip())


if __name__ == "__main__":
    main()
