#!/usr/bin/env python3
"""Our throughput figures next to OpenSpiel's, measured on this machine in one run.

    python3 benches/openspiel_compare.py             # three rounds, about three minutes
    python3 benches/openspiel_compare.py --quick     # one short round, under a minute
    python3 benches/openspiel_compare.py --markdown  # the table as Markdown (the book's benchmarks page)

OpenSpiel runs in a virtual environment of its own: the first run creates it with
`python3 -m venv` and `pip install open-spiel` (about 30 s) in `target/openspiel-venv` of the
repository, or in the folder given by --venv or by the environment variable OPENSPIEL_VENV,
then runs this script again inside it. Ours are the lines of `arena bench --filter ...` of the
release binary, built first with `cargo build --release` (a no-op when it is up to date) unless
--arena names a binary.

Same settings on both sides, single-threaded, from the empty board:

- MCTS: UCT with c = 2 on rewards in [-1, 1], one uniformly random playout per simulation,
  10,000 simulations per search, every one run (OpenSpiel's `MCTSBot` with `solve=False` and a
  `RandomRolloutEvaluator(1)`; ours `mcts:...,solver=false`). Simulations per second.
- Random playouts per second from the start, entirely in C++ for OpenSpiel: a
  `RandomRolloutEvaluator(n)` evaluating the start (one search of one simulation) plays n
  playouts in its C++ loop of `Clone`, `LegalActions` and `ApplyAction`.
- TD4 (5x5, k = 4, after b3 c3 c2 d1 b2 a2): flat Monte Carlo, 1,000 random playouts after
  each of the 19 moves, 19,000 playouts, against our `mc-flat:rollouts=1000`. OpenSpiel twice:
  with its C++ playouts (as above, 1,000 per candidate) and with a Python loop over its C++
  state (`clone`, `legal_actions`, `apply_action`), the way a Python user of OpenSpiel writes it.

OpenSpiel's m,n,k games are `tic_tac_toe` and `gomoku(size, connect)` (k or more in a line
wins, as our freestyle rule): its generic `mnk` game plays the same games 4 to 30 times slower,
so it would flatter us. Rates are the median of several rounds, as `arena bench` takes them.

A shared machine's speed drifts by tens of per cent over seconds (other tenants of the host),
so the two sides take turns: each round measures OpenSpiel and then runs `arena bench`, and
each figure is the median over the rounds (--rounds).
"""

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MARKER = "ARENA_OPENSPIEL_COMPARE_IN_VENV"

# (our variant id, OpenSpiel game string, label)
BOARDS = [
    ("tictactoe", "tic_tac_toe", "tic-tac-toe"),
    ("mnk-5x5k4", "gomoku(size=5,connect=4)", "5x5 k=4"),
    ("mnk-15x15k5", "gomoku(size=15,connect=5)", "15x15 k=5"),
]
TD4_MOVES = "b3 c3 c2 d1 b2 a2"
SIMULATIONS = 10_000
UCT_C = 2.0
TD4_ROLLOUTS = 1_000
# OpenSpiel playouts per call (one C++ loop), about 50 ms each.
PLAYOUTS_PER_CALL = {"tic_tac_toe": 20_000, "gomoku(size=5,connect=4)": 5_000,
                     "gomoku(size=15,connect=5)": 300}
# Goals of issue 6: figure key -> (minimum ratio, what it says).
GOALS = {
    "mcts.tictactoe": 3.0,
    "mcts.mnk-5x5k4": 3.0,
    "mcts.mnk-15x15k5": 3.0,
    "playouts.mnk-15x15k5": 5.0,
    "td4.cpp": 20.0,
    "td4.mc-par-speedup": 1.8,
}


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="shorter rounds on both sides (arena bench --quick)")
    parser.add_argument("--venv", type=Path,
                        default=Path(os.environ.get("OPENSPIEL_VENV",
                                                    REPO / "target" / "openspiel-venv")),
                        help="the virtual environment for OpenSpiel "
                             "(default: $OPENSPIEL_VENV or target/openspiel-venv)")
    parser.add_argument("--arena", type=Path,
                        help="our binary (default: build and use the release build)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--rounds", type=int,
                        help="rounds of both sides, each figure the median (default 3; 1 "
                             "with --quick)")
    args = parser.parse_args()
    if args.rounds is None:
        args.rounds = 1 if args.quick else 3
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


# --- the virtual environment -------------------------------------------------------------


def ensure_venv(venv: Path):
    """Runs this script inside `venv` (created with OpenSpiel when missing); returns only
    when already inside it."""
    if os.environ.get(MARKER) == "1":
        return
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with pip install open-spiel ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "open-spiel"],
                       check=True)
    env = dict(os.environ, **{MARKER: "1"})
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


# --- measuring -----------------------------------------------------------------------------


class Budget:
    def __init__(self, quick: bool):
        # The same rounds as `arena bench` (crates/cli/src/bench_cmd.rs).
        self.rounds = 3 if quick else 5
        self.round = 0.1 if quick else 0.4
        self.td4_searches = 3 if quick else 7
        self.td4_python_searches = 1 if quick else 3


def median_rate(budget: Budget, work) -> float:
    """Units of work per second: each round calls `work` (which returns its units) until the
    round's time has passed, at least once; the median of the rounds."""
    rates = []
    for _ in range(budget.rounds):
        started = time.perf_counter()
        units = 0
        while True:
            units += work()
            elapsed = time.perf_counter() - started
            if elapsed >= budget.round:
                break
        rates.append(units / elapsed)
    return statistics.median(rates)


def openspiel_mcts(pyspiel, game_string: str, budget: Budget) -> float:
    game = pyspiel.load_game(game_string)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 1)
    # solve=False: every simulation runs; 1000 MiB so that no garbage collection interrupts.
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, SIMULATIONS, 1000, False, 1, False)
    start = game.new_initial_state()

    def search():
        root = bot.mcts_search(start)
        assert root.explore_count == SIMULATIONS, root.explore_count
        return SIMULATIONS

    return median_rate(budget, search)


def rollout_bot(pyspiel, game, playouts: int):
    """A bot whose one-simulation search of a position is `playouts` C++ random playouts."""
    evaluator = pyspiel.RandomRolloutEvaluator(playouts, 1)
    return pyspiel.MCTSBot(game, evaluator, UCT_C, 1, 1000, False, 1, False)


def openspiel_playouts(pyspiel, game_string: str, budget: Budget) -> float:
    game = pyspiel.load_game(game_string)
    count = PLAYOUTS_PER_CALL[game_string]
    bot = rollout_bot(pyspiel, game, count)
    start = game.new_initial_state()

    def playouts():
        bot.mcts_search(start)
        return count

    return median_rate(budget, playouts)


def td4_state(pyspiel):
    game = pyspiel.load_game("gomoku(size=5,connect=4)")
    state = game.new_initial_state()
    for move in TD4_MOVES.split():
        col, row = ord(move[0]) - ord("a"), int(move[1:]) - 1
        state.apply_action(row * 5 + col)
    return game, state


def move_name(action: int) -> str:
    return f"{chr(ord('a') + action % 5)}{action // 5 + 1}"


def openspiel_td4_cpp(pyspiel, budget: Budget):
    """Flat Monte Carlo with OpenSpiel's C++ playouts: median seconds and the move."""
    game, state = td4_state(pyspiel)
    me = state.current_player()
    bot = rollout_bot(pyspiel, game, TD4_ROLLOUTS)

    def search():
        best = None
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                score = child.returns()[me]
            else:
                # The mean return of the side to move there, the opponent (zero-sum).
                score = -bot.mcts_search(child).total_reward
            if best is None or score > best[0]:
                best = (score, action)
        return best[1]

    times, move = [], None
    for _ in range(budget.td4_searches):
        started = time.perf_counter()
        move = search()
        times.append(time.perf_counter() - started)
    return statistics.median(times), move_name(move)


def openspiel_td4_python(pyspiel, budget: Budget):
    """Flat Monte Carlo as a Python loop over OpenSpiel's C++ state."""
    import random
    _, state = td4_state(pyspiel)
    me = state.current_player()
    rng = random.Random(1)

    def search():
        best = None
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            total = 0.0
            for _ in range(TD4_ROLLOUTS):
                game = child.clone()
                while not game.is_terminal():
                    actions = game.legal_actions()
                    game.apply_action(actions[rng.randrange(len(actions))])
                total += game.returns()[me]
            if best is None or total > best[0]:
                best = (total, action)
        return best[1]

    times, move = [], None
    for _ in range(budget.td4_python_searches):
        started = time.perf_counter()
        move = search()
        times.append(time.perf_counter() - started)
    return statistics.median(times), move_name(move)


# --- ours ----------------------------------------------------------------------------------


def arena_binary(args) -> Path:
    if args.arena:
        return args.arena
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    print("cargo build --release -p cli ...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "cli", "--bin", "arena"],
                   cwd=REPO, check=True)
    return target / "release" / "arena"


LINE = re.compile(r"^(\S+): (\S+) (\S+)(?: \((.*)\))?$")


def ours(binary: Path, quick: bool) -> dict:
    """`arena bench` figures by name: (value, unit, details)."""
    filters = [f"playouts.{board}" for board, _, _ in BOARDS]
    filters += [f"mcts.{board}" for board, _, _ in BOARDS]
    filters += ["td4."]
    command = [str(binary), "bench", *(["--quick"] if quick else [])]
    for text in filters:
        command += ["--filter", text]
    print(" ".join(command), file=sys.stderr)
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    figures = {}
    for line in output.splitlines():
        match = LINE.match(line)
        if match:
            name, value, unit, details = match.groups()
            figures[name] = (float(value), unit, details or "")
    return figures


# --- the table -----------------------------------------------------------------------------


def verdict(key: str, ratio: float) -> str:
    goal = GOALS.get(key)
    if goal is None:
        return ""
    return f">= {goal:g}x: {'met' if ratio >= goal else 'MISSED'}"


def measure_openspiel(pyspiel, budget: Budget) -> dict:
    """One round of OpenSpiel's figures, by the names of `arena bench`'s."""
    figures = {}
    for board, game_string, _ in BOARDS:
        figures[f"mcts.{board}"] = openspiel_mcts(pyspiel, game_string, budget)
    for board, game_string, _ in BOARDS:
        figures[f"playouts.{board}"] = openspiel_playouts(pyspiel, game_string, budget)
    figures["td4.cpp"] = openspiel_td4_cpp(pyspiel, budget)
    figures["td4.python"] = openspiel_td4_python(pyspiel, budget)
    return figures


def median_of(rounds: list, key: str, pick=lambda value: value):
    return statistics.median(pick(figures[key]) for figures in rounds)


def main():
    args = parse_args()
    ensure_venv(args.venv.resolve())
    import pyspiel  # noqa: E402  (only inside the virtual environment)
    from importlib.metadata import version

    budget = Budget(args.quick)
    binary = arena_binary(args)
    theirs, mine = [], []
    for round_number in range(args.rounds):
        print(f"round {round_number + 1} of {args.rounds}: OpenSpiel ...", file=sys.stderr)
        theirs.append(measure_openspiel(pyspiel, budget))
        mine.append(ours(binary, args.quick))

    rows = []  # (label, ours, theirs, ratio, goal)

    def rate_row(key, label):
        value = median_of(mine, key, lambda figure: figure[0])
        other = median_of(theirs, key)
        ratio = value / other
        rows.append((label, f"{value:,.0f}", f"{other:,.0f}", f"{ratio:.1f}x",
                     verdict(key, ratio)))

    for board, _, label in BOARDS:
        rate_row(f"mcts.{board}", f"MCTS simulations/s, {label}")
    for board, _, label in BOARDS:
        rate_row(f"playouts.{board}", f"random playouts/s, {label}")
    flat_ms = median_of(mine, "td4.mc-flat", lambda figure: figure[0])
    our_move = re.search(r"plays (\S+),", mine[-1]["td4.mc-flat"][2])
    our_move = our_move.group(1) if our_move else "?"
    for key, how in [("td4.cpp", "C++ playouts"), ("td4.python", "Python loop")]:
        seconds = median_of(theirs, key, lambda figure: figure[0])
        move = theirs[-1][key][1]
        ratio = seconds * 1e3 / flat_ms
        rows.append((f"TD4 flat MC, 19,000 playouts, ms (OpenSpiel: {how})",
                     f"{flat_ms:.1f} ({our_move})", f"{seconds * 1e3:.1f} ({move})",
                     f"{ratio:.1f}x", verdict(key, ratio)))
    speedup = median_of(mine, "td4.mc-par-speedup", lambda figure: figure[0])
    rows.append(("mc-par over mc-near on TD4 (1,000 playouts per move)", f"{speedup:.2f}x",
                 "", "", verdict("td4.mc-par-speedup", speedup)))
    for kind in ["mc-near", "mc-par"]:
        value = median_of(mine, f"td4.{kind}", lambda figure: figure[0])
        details = mine[-1][f"td4.{kind}"][2]
        rows.append((f"TD4 {kind}, ms ({details})", f"{value:.1f}", "", "", ""))

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(l.split(":", 1)[1].strip() for l in info if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    command = "arena bench --quick" if args.quick else "arena bench"
    print(f"{datetime.date.today()}: OpenSpiel {version('open-spiel')} (pip), Python "
          f"{platform.python_version()}; ours: {command}; median of {args.rounds} round(s); "
          f"{cpu}, {os.cpu_count()} threads")
    header = ("figure", "ours", "OpenSpiel", "ratio", "goal")
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
