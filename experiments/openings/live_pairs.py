#!/usr/bin/env python3
"""Splits the game pairs of a committed two-agent run by opening: those from the openings of
VARIANT-live.txt (which the colour does not decide at a time control, see live.py) and the
rest, and prints each part's pentanomial (pairs scored 0, 0.5, 1, 1.5 and 2 for AGENT), score
and the Elo the score gives (logistic, no error bars: `arena report` gives those for the whole).

    python3 experiments/openings/live_pairs.py VARIANT RUN AGENT
    python3 experiments/openings/live_pairs.py caro results/strength/f7ca693-caro-d417f06 threat

A view of games already played, not a measurement of its own: the part from the live openings
is the part a stronger side can win whatever colour it draws.
"""
import argparse
import csv
import math
import os

from live import HERE, opening_of, read_suite


def main():
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("variant", help="gomoku or caro: reads VARIANT.txt and VARIANT-live.txt")
    parser.add_argument("run", help="a results folder whose games.csv has pairs (games 2i, 2i+1)")
    parser.add_argument("agent", help="the agent whose score is printed")
    args = parser.parse_args()
    suite = read_suite(os.path.join(HERE, f"{args.variant}.txt"))
    live = {tuple(o) for o in read_suite(os.path.join(HERE, f"{args.variant}-live.txt"))}
    pairs = {}
    with open(os.path.join(args.run, "games.csv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            pairs.setdefault(int(row["game"]) // 2, []).append(row)
    parts = {"live": [0] * 5, "other": [0] * 5}
    for games in pairs.values():
        if len(games) != 2:
            continue
        moves = games[0]["moves"].split()
        # `h8 f11 l4` and `h8 f11 l4 j9` are both gomoku openings: the longest one counts.
        found = opening_of(moves, suite)
        if found is None:
            raise SystemExit(f"{args.run}: game {games[0]['game']} starts with no opening of {args.variant}.txt")
        part = "live" if tuple(found) in live else "other"
        points = 0.0
        for row in games:
            won = row["first"] if row["result"] == "1-0" else row["second"]
            points += 0.5 if row["result"] == "1/2-1/2" else float(won == args.agent)
        parts[part][int(points * 2)] += 1
    for part, pent in parts.items():
        n = sum(pent)
        if n == 0:
            print(f"{part:5}: no pairs")
            continue
        score = sum(i * c for i, c in enumerate(pent)) / (4 * n)
        elo = -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.copysign(math.inf, score - 0.5)
        print(f"{part:5}: {n:3} pairs, pentanomial {'-'.join(map(str, pent))}, {score:.1%}, Elo {elo:+.0f}")


if __name__ == "__main__":
    main()
