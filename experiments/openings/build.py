#!/usr/bin/env python3
"""Builds the balanced opening suites of experiments/openings/ (see README.md there).

For each variant: seeded random candidate openings near the centre (the first stone on the
centre, the others within a few cells of it); those where the threat solver finds a win by
threats (VCT) for either side are dropped; the rest are played by the `threat` agent against
itself at two pairs of node budgets, both colour orders, and the openings where the first
player's score is closest to 50% are kept. Everything runs through the `arena` binary:

    python3 experiments/openings/build.py [--arena target/release/arena] [--candidates 80]
        [--keep 50] [--threads 2] [--variants gomoku caro mnk-9x9k5] [--seed 19]

Writes experiments/openings/<variant>.txt and a summary in build-<variant>.log; the self-play
runs go to results/openings-build/.
"""
import argparse
import csv
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# (rows, cols) of each variant's board and the number of plies of its openings.
BOARDS = {"gomoku": (15, 15), "caro": (15, 15), "mnk-9x9k5": (9, 9)}
PAIRS = [("threat:nodes=10000", "threat:nodes=15000"), ("threat:nodes=20000", "threat:nodes=30000")]


def cell(row, col):
    return f"{chr(ord('a') + col)}{row + 1}"


def candidates(variant, count, rng):
    rows, cols = BOARDS[variant]
    centre = ((rows - 1) // 2, (cols - 1) // 2)
    seen = set()
    out = []
    while len(out) < count:
        plies = rng.choice([3, 3, 4])
        stones = [centre]
        while len(stones) < plies:
            r = centre[0] + rng.randint(-3, 3)
            c = centre[1] + rng.randint(-3, 3)
            if (r, c) not in stones:
                stones.append((r, c))
        line = " ".join(cell(r, c) for r, c in stones)
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


def no_threat_win(arena, variant, line):
    """Whether neither side has a VCT after the opening (by `arena solve --method vct`)."""
    result = subprocess.run(
        [arena, "solve", variant, "--moves", line, "--method", "vct", "--time-limit", "3"],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"arena solve failed on {variant} `{line}`: {result.stderr}")
    verdicts = [l for l in result.stdout.splitlines() if l.startswith("VCT for")]
    return len(verdicts) == 2 and all(l.endswith(": none") for l in verdicts), verdicts


def self_play(arena, variant, lines, threads, seed):
    """Plays every line with both colour orders for each pair of budgets; returns, per line,
    the first player's scores."""
    out_dir = os.path.join(ROOT, "results", "openings-build", variant)
    os.makedirs(out_dir, exist_ok=True)
    suite = os.path.join(out_dir, "candidates.txt")
    with open(suite, "w") as f:
        f.write(f"[{variant}]\n" + "\n".join(lines) + "\n")
    scores = {line: [] for line in lines}
    for i, (a, b) in enumerate(PAIRS):
        exp = os.path.join(out_dir, f"selfplay-{i}.toml")
        with open(exp, "w") as f:
            f.write(f'name = "openings-build-{variant}-{i}"\nseed = {seed}\n'
                    f'games_per_pair = {2 * len(lines)}\nopenings = "candidates.txt"\n'
                    f'variants = ["{variant}"]\n\n[[agents]]\nname = "a"\nspec = "{a}"\n\n'
                    f'[[agents]]\nname = "b"\nspec = "{b}"\n')
        run = subprocess.run([arena, "run", exp, "--out", os.path.join(out_dir, f"run-{i}"),
                              "--threads", str(threads)], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"arena run failed: {run.stderr}")
        with open(os.path.join(out_dir, f"run-{i}", "games.csv")) as f:
            for row in csv.DictReader(f):
                block = int(row["game"]) // 2
                first = {"1-0": 1.0, "0-1": 0.0}.get(row["result"], 0.5)
                scores[lines[block % len(lines)]].append(first)
    return scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target", "release", "arena"))
    parser.add_argument("--candidates", type=int, default=80)
    parser.add_argument("--keep", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--variants", nargs="+", default=list(BOARDS))
    args = parser.parse_args()
    for variant in args.variants:
        rng = random.Random(f"{args.seed}-{variant}")
        log = [f"# build.py --seed {args.seed} --candidates {args.candidates} --keep {args.keep}"]
        quiet = []
        for line in candidates(variant, args.candidates, rng):
            ok, verdicts = no_threat_win(args.arena, variant, line)
            if ok:
                quiet.append(line)
            else:
                log.append(f"dropped (a threat win): {line}: {'; '.join(verdicts)}")
        log.append(f"{len(quiet)} of {args.candidates} candidates have no VCT for either side")
        scores = self_play(args.arena, variant, quiet, args.threads, args.seed)
        ranked = sorted(quiet, key=lambda l: (abs(sum(scores[l]) / len(scores[l]) - 0.5),
                                              quiet.index(l)))
        kept = ranked[:args.keep]
        total = [s for l in kept for s in scores[l]]
        for line in quiet:
            s = scores[line]
            mark = "kept" if line in kept else "    "
            log.append(f"{mark} {line}: first player {sum(s)}/{len(s)}")
        log.append(f"kept {len(kept)}: first player's score over their self-play games "
                   f"{sum(total)}/{len(total)} = {100 * sum(total) / max(1, len(total)):.1f}%")
        with open(os.path.join(HERE, f"{variant}.txt"), "w") as f:
            f.write(f"# {variant}: {len(kept)} openings, built by experiments/openings/build.py "
                    f"(see README.md)\n[{variant}]\n" + "\n".join(kept) + "\n")
        with open(os.path.join(HERE, f"build-{variant}.log"), "w") as f:
            f.write("\n".join(log) + "\n")
        print(log[-1])


if __name__ == "__main__":
    main()
