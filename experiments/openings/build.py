#!/usr/bin/env python3
"""Builds the balanced opening suites of experiments/openings/ (see README.md there).

For each variant:
1. seeded random candidate openings near the centre: the first stone on the centre cell, then
   two to four more stones (alternating colours) within four cells of it;
2. every candidate where the threat solver finds a win by threats (VCT: fours and open threes)
   for either side is dropped (`arena solve VARIANT --moves ... --method vct`);
3. the `threat` agent plays the rest against itself with both colour orders at two budgets
   (stage 1: 5,000 against 7,500 nodes a move); the candidates where each colour order was won
   by the same side (the colour decided) are dropped;
4. the survivors are played again at 10,000 against 15,000 nodes (stage 2), and the suite
   keeps those whose first player scored closest to 50% over the four games, taking those
   above and below 50% in turn so that the suite as a whole sits at 50%.

Everything runs through the `arena` binary, seeded, so a rerun builds the same suites:

    python3 experiments/openings/build.py [--arena target/release/arena] [--candidates 300]
        [--keep 50] [--threads 2] [--variants gomoku caro mnk-9x9k5] [--seed 19] [--suite NAME]

Writes experiments/openings/<variant>.txt and build-<variant>.log (every candidate and its
fate); the self-play runs go to results/openings-build/<variant>/. With `--suite NAME` the
files are <variant>-NAME.txt and build-<variant>-NAME.log, and the runs go to
results/openings-build/<variant>-NAME/: the wide suites for sequential tests
(`arena sprt --openings`), whose agents replay a game exactly when a node budget makes them
deterministic, so a test needs as many openings as pairs:

    python3 experiments/openings/build.py --variants gomoku caro --candidates 3000 --keep 1000 \
        --suite wide --seed 29
"""
import argparse
import csv
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

BOARDS = {"gomoku": (15, 15), "caro": (15, 15), "mnk-9x9k5": (9, 9)}
STAGES = [("threat:nodes=5000", "threat:nodes=7500"), ("threat:nodes=10000", "threat:nodes=15000")]


def cell(row, col):
    return f"{chr(ord('a') + col)}{row + 1}"


def candidates(variant, count, rng):
    rows, cols = BOARDS[variant]
    centre = ((rows - 1) // 2, (cols - 1) // 2)
    reach = min(4, centre[0], centre[1])
    seen = set()
    out = []
    while len(out) < count:
        plies = rng.choice([3, 4, 4, 5])
        stones = [centre]
        while len(stones) < plies:
            stone = (centre[0] + rng.randint(-reach, reach), centre[1] + rng.randint(-reach, reach))
            if stone not in stones:
                stones.append(stone)
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


def self_play(arena, variant, lines, stage, threads, seed, name):
    """Plays every line with both colour orders at the stage's budgets; returns, per line, the
    first player's score in each of the two games."""
    a, b = STAGES[stage]
    out_dir = os.path.join(ROOT, "results", "openings-build", name)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"stage-{stage}.txt"), "w") as f:
        f.write(f"[{variant}]\n" + "\n".join(lines) + "\n")
    exp = os.path.join(out_dir, f"stage-{stage}.toml")
    with open(exp, "w") as f:
        f.write(f'name = "openings-build-{variant}-{stage}"\nseed = {seed}\n'
                f'games_per_pair = {2 * len(lines)}\nopenings = "stage-{stage}.txt"\n'
                f'variants = ["{variant}"]\n\n[[agents]]\nname = "a"\nspec = "{a}"\n\n'
                f'[[agents]]\nname = "b"\nspec = "{b}"\n')
    run = subprocess.run([arena, "run", exp, "--out", os.path.join(out_dir, f"stage-{stage}"),
                          "--threads", str(threads), "--fresh"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"arena run failed: {run.stderr}")
    scores = {line: [] for line in lines}
    with open(os.path.join(out_dir, f"stage-{stage}", "games.csv")) as f:
        for row in csv.DictReader(f):
            line = lines[(int(row["game"]) // 2) % len(lines)]
            scores[line].append({"1-0": 1.0, "0-1": 0.0}.get(row["result"], 0.5))
    return scores


def pick(lines, score, keep):
    """Up to `keep` lines, closest to 50% first, taking lines above and below 50% in turn."""
    exact = [l for l in lines if score[l] == 0.5]
    above = sorted((l for l in lines if score[l] > 0.5), key=lambda l: score[l])
    below = sorted((l for l in lines if score[l] < 0.5), key=lambda l: -score[l])
    kept = exact[:keep]
    while len(kept) < keep and (above or below):
        for side in (above, below):
            if side and len(kept) < keep:
                kept.append(side.pop(0))
    return kept


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--arena", default=os.path.join(ROOT, "target", "release", "arena"))
    parser.add_argument("--candidates", type=int, default=300)
    parser.add_argument("--keep", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--variants", nargs="+", default=list(BOARDS))
    parser.add_argument("--suite", default="", help="a name for the suite: <variant>-NAME.txt")
    args = parser.parse_args()
    for variant in args.variants:
        name = f"{variant}-{args.suite}" if args.suite else variant
        rng = random.Random(f"{args.seed}-{variant}")
        suite = f" --suite {args.suite}" if args.suite else ""
        log = [f"# build.py --seed {args.seed} --candidates {args.candidates} --keep {args.keep}"
               f"{suite}",
               f"# stages: {STAGES}"]
        pool = candidates(variant, args.candidates, rng)
        quiet = []
        for line in pool:
            ok, verdicts = no_threat_win(args.arena, variant, line)
            if ok:
                quiet.append(line)
            else:
                log.append(f"dropped, a threat win: {line}: {'; '.join(verdicts)}")
        log.append(f"{len(quiet)} of {len(pool)} candidates have no VCT for either side")
        first = self_play(args.arena, variant, quiet, 0, args.threads, args.seed, name)
        split = [l for l in quiet if sum(first[l]) == 1.0]
        for line in quiet:
            if line not in split:
                log.append(f"dropped, stage 1 first player {sum(first[line])}/2: {line}")
        log.append(f"{len(split)} of {len(quiet)} split their stage-1 games")
        second = self_play(args.arena, variant, split, 1, args.threads, args.seed, name)
        score = {l: (sum(first[l]) + sum(second[l])) / 4 for l in split}
        kept = pick(split, score, args.keep)
        for line in split:
            mark = "kept" if line in kept else "left"
            log.append(f"{mark}, first player {4 * score[line]}/4: {line}")
        mean = sum(score[l] for l in kept) / max(1, len(kept))
        log.append(f"kept {len(kept)}: the first player's mean score over their self-play "
                   f"games is {100 * mean:.1f}%")
        with open(os.path.join(HERE, f"{name}.txt"), "w") as f:
            f.write(f"# {variant}: {len(kept)} openings, the first player scoring "
                    f"{100 * mean:.1f}% in self-play; built by experiments/openings/build.py "
                    f"(see README.md)\n[{variant}]\n" + "\n".join(kept) + "\n")
        with open(os.path.join(HERE, f"build-{name}.log"), "w") as f:
            f.write("\n".join(log) + "\n")
        print(f"{name}: {log[-1]}", flush=True)


if __name__ == "__main__":
    main()
