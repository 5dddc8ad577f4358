#!/usr/bin/env python3
"""OpenSpiel's MCTS as a Gomocup (piskvork) engine, so the arena can play it (`engine` agent).

    python3 benches/openspiel_gomocup.py --setup          # create the venv with open-spiel
    python3 benches/openspiel_gomocup.py [--think-ms 1000] [--rollouts 1] [--uct-c 2]

The engine is OpenSpiel's C++ `MCTSBot` (UCT, c = 2 on rewards in [-1, 1], random rollouts
by a `RandomRolloutEvaluator`, the MCTS-solver on) on OpenSpiel's `gomoku(size, connect)`
game, whose rule is freestyle (k or more in a line wins). The bot takes a number of
simulations, not a time: each move gets as many as the measured rate of the earlier moves
says fit in --think-ms (the first move calibrates on a short search), so it thinks for about
that long; the answer must still come within the manager's `timeout_turn`, so give the arena
agent some slack, e.g.

    engine:cmd=python3,timeout_ms=3000,args=benches/openspiel_gomocup.py --think-ms 1000

It runs in the virtual environment of benches/openspiel_compare.py (target/openspiel-venv, or
$OPENSPIEL_VENV): started outside it, it starts itself again inside it; --setup creates it.
Square boards and rule 0 (freestyle) only: other games are answered with ERROR.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MARKER = "ARENA_OPENSPIEL_ENGINE_IN_VENV"


def venv_path() -> Path:
    return Path(os.environ.get("OPENSPIEL_VENV", REPO / "target" / "openspiel-venv"))


def setup(venv: Path):
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} with pip install open-spiel ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "open-spiel"],
                       check=True)


def enter_venv():
    """Runs this script inside the venv; returns only when already inside it."""
    if os.environ.get(MARKER) == "1":
        return
    python = venv_path() / "bin" / "python"
    if not python.exists():
        sys.stdout.write("ERROR no OpenSpiel venv: run benches/openspiel_gomocup.py --setup\n")
        sys.stdout.flush()
        sys.exit(1)
    env = dict(os.environ, **{MARKER: "1"})
    os.execve(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]], env)


class Engine:
    def __init__(self, pyspiel, args):
        self.pyspiel = pyspiel
        self.args = args
        self.size = None
        self.connect = 5
        self.rule = 0
        self.timeout_turn = None
        self.seed = 1
        self.rate = None  # simulations per second, measured
        self.state = None

    def say(self, line: str):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def new_game(self):
        game = self.pyspiel.load_game(f"gomoku(size={self.size},connect={self.connect})")
        self.game = game
        self.state = game.new_initial_state()

    def play(self, x: int, y: int) -> bool:
        action = y * self.size + x
        if not (0 <= x < self.size and 0 <= y < self.size) or \
                action not in self.state.legal_actions():
            return False
        self.state.apply_action(action)
        return True

    def bot(self, simulations: int):
        evaluator = self.pyspiel.RandomRolloutEvaluator(self.args.rollouts, self.seed)
        self.seed += 1
        return self.pyspiel.MCTSBot(self.game, evaluator, self.args.uct_c, max(1, simulations),
                                    1000, True, self.seed, False)

    def think_seconds(self) -> float:
        think = self.args.think_ms / 1000
        if self.timeout_turn:
            # Leave the manager's limit some room for Python and the pipe.
            think = min(think, max(0.05, self.timeout_turn / 1000 * 0.8 - 0.1))
        return think

    def best_move(self):
        if self.rule != 0:
            self.say("ERROR only rule 0 (freestyle), the rule of OpenSpiel's gomoku")
            return
        if self.rate is None:
            started = time.perf_counter()
            self.bot(200).step(self.state.clone())
            self.rate = 200 / max(1e-3, time.perf_counter() - started)
        think = self.think_seconds()
        simulations = int(self.rate * think)
        started = time.perf_counter()
        action = self.bot(simulations).step(self.state.clone())
        spent = time.perf_counter() - started
        if spent > 0.01:
            # The rate of this position, smoothed: positions differ in speed.
            self.rate = 0.5 * self.rate + 0.5 * simulations / spent
        self.state.apply_action(action)
        self.say(f"{action % self.size},{action // self.size}")

    def run(self):
        board_lines = None
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            if board_lines is not None:
                if line.upper() == "DONE":
                    self.new_game()
                    own = [(x, y) for x, y, who in board_lines if who == 1]
                    theirs = [(x, y) for x, y, who in board_lines if who == 2]
                    # Stones alternate; the side to move now had the fewer (or equal) stones.
                    first, second = (theirs, own) if len(theirs) > len(own) else (own, theirs)
                    ok = True
                    for i in range(len(first) + len(second)):
                        x, y = (first if i % 2 == 0 else second)[i // 2]
                        ok = ok and self.play(x, y)
                    board_lines = None
                    if not ok:
                        self.say("ERROR bad BOARD")
                        continue
                    self.best_move()
                else:
                    x, y, who = (int(v) for v in line.split(","))
                    board_lines.append((x, y, who))
                continue
            command, _, rest = line.partition(" ")
            command = command.upper()
            if command == "START":
                self.size = int(rest)
                self.new_game()
                self.say("OK")
            elif command == "RECTSTART":
                w, h = (int(v) for v in rest.split(","))
                if w != h:
                    self.say("ERROR only square boards")
                    continue
                self.size = w
                self.new_game()
                self.say("OK")
            elif command == "RESTART":
                self.new_game()
                self.say("OK")
            elif command == "INFO":
                key, _, value = rest.partition(" ")
                if key == "timeout_turn":
                    self.timeout_turn = int(value)
                elif key == "rule":
                    self.rule = int(value)
                elif key == "win_length":
                    self.connect = int(value)
                    self.new_game()
            elif command == "BEGIN":
                self.best_move()
            elif command == "TURN":
                x, y = (int(v) for v in rest.split(","))
                if not self.play(x, y):
                    self.say(f"ERROR illegal move {x},{y}")
                    continue
                self.best_move()
            elif command == "BOARD":
                board_lines = []
            elif command == "END":
                return
            elif command == "ABOUT":
                self.say('name="openspiel-mcts", version="1", author="OpenSpiel MCTSBot via '
                         'arena benches", country="-"')
            else:
                self.say(f"UNKNOWN {command}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--setup", action="store_true", help="create the venv and exit")
    parser.add_argument("--think-ms", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--uct-c", type=float, default=2.0)
    args = parser.parse_args()
    if args.setup:
        setup(venv_path())
        return
    enter_venv()
    import pyspiel
    Engine(pyspiel, args).run()


if __name__ == "__main__":
    main()
