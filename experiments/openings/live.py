#!/usr/bin/env python3
"""Builds experiments/openings/VARIANT-live.txt: the openings of VARIANT.txt (gomoku.txt,
caro.txt) that `threat` does not decide by colour at a time control.

The suites were balanced at 5,000 to 15,000 nodes a move (build.py). At 0.2 to 1 s a move
(200,000 to 1,000,000 nodes) `threat` against itself wins about half of those openings with
the same colour nearly every time: a game pair from such an opening scores 1-1 whichever side
is stronger, and tells an SPRT nothing. This script reads the games of committed `arena sprt`
and `arena run` runs between versions of `threat` (results/strength/, all at a time control),
scores each opening by its first player's result over every game played from it, and keeps
the openings whose first player scored from LOW to HIGH (15% to 85%), in the suite's order.

    python3 experiments/openings/live.py [--variant gomoku|caro] [--low 0.15] [--high 0.85]
                                         [RESULTS...]

Reads only committed files, draws nothing at random: a rerun on the same results writes the same
suite. Prints each opening's score and games, and the suite's first-player score.
"""
import argparse
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The runs between `threat` versions at a time control on each suite (results/strength/).
RUNS = {
    "gomoku": [
        "dfd274a-gomoku",
        "4eacc1d-gomoku",
        "vct-gomoku",
        "root24-gomoku",
        "combo-gomoku-stc",
        "narrow-gomoku-stc",
        "keep-gomoku-stc",
    ],
    "caro": [
        "main-caro-stc",
        "f7ca693-caro-4253899",
    ],
}


def read_suite(path):
    # One opening a line; `#` starts a comment; a `[variant]` line opens the (only) section.
    lines = (line.split("#")[0].strip() for line in open(path, encoding="utf-8"))
    return [line.split() for line in lines if line and not line.startswith("[")]


def opening_of(moves, suite):
    """The longest opening of `suite` the move list starts with (one opening may begin
    another), or None."""
    return max((o for o in suite if moves[: len(o)] == o), key=len, default=None)


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--variant", choices=sorted(RUNS), default="gomoku",
                        help="the suite: reads VARIANT.txt, writes VARIANT-live.txt (default gomoku)")
    parser.add_argument("--low", type=float, default=0.15)
    parser.add_argument("--high", type=float, default=0.85)
    parser.add_argument("runs", nargs="*",
                        help="results folders of threat-against-threat runs at a time control (default: the variant's RUNS)")
    args = parser.parse_args()
    variant = args.variant
    runs = args.runs or [os.path.join(ROOT, "results", "strength", r) for r in RUNS[variant]]
    suite = read_suite(os.path.join(HERE, f"{variant}.txt"))
    score = {tuple(o): [0.0, 0] for o in suite}
    for run in runs:
        with open(os.path.join(run, "games.csv"), newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                moves = row["moves"].split()
                found = opening_of(moves, suite)
                if found is None:
                    raise SystemExit(f"{run}: game {row['game']} starts with no opening of {variant}.txt")
                points = {"1-0": 1.0, "0-1": 0.0}.get(row["result"], 0.5)
                score[tuple(found)][0] += points
                score[tuple(found)][1] += 1
    kept = []
    for o in suite:
        points, games = score[tuple(o)]
        share = points / games if games else 0.5
        keep = games > 0 and args.low <= share <= args.high
        print(f"{share:6.1%} of {games:4} games  {'kept' if keep else '    '}  {' '.join(o)}")
        if keep:
            kept.append((o, share))
    if not kept:
        raise SystemExit(f"no opening's first player scored {args.low:.0%} to {args.high:.0%}: nothing written")
    mean = sum(s for _, s in kept) / len(kept)
    games = sum(score[tuple(o)][1] for o in suite)
    out = os.path.join(HERE, f"{variant}-live.txt")
    with open(out, "w", encoding="utf-8") as f:
        f.write(
            f"# {variant}: the {len(kept)} openings of {variant}.txt whose first player scored "
            f"{args.low:.0%} to {args.high:.0%} in {games} games of threat against threat "
            f"({mean:.1%} on average); built by experiments/openings/live.py from\n"
            f"# {', '.join(os.path.basename(os.path.normpath(r)) for r in runs)}\n"
        )
        f.write(f"[{variant}]\n")
        for o, _ in kept:
            f.write(" ".join(o) + "\n")
    print(f"{out}: {len(kept)} of {len(suite)} openings, the first player scoring {mean:.1%} on average")


if __name__ == "__main__":
    main()
