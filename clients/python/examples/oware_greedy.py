"""A greedy Oware agent: sows each legal move on a copy of the board with the abapa rules
(docs/oware.md) and plays the one that captures the most (ties at random).

    proc:cmd=python3,args=clients/python/examples/oware_greedy.py

The rules below are the client's own copy, for judging moves; the move always comes from the
arena's legal list, so feeding needs no code here (the arena lists only feeding moves).
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arena_agent  # noqa: E402


def captures(seeds, house, seat):
    """The seeds sowing `house` captures for `seat` (1 = South, houses 0-5; 2 = North, 6-11)."""
    seeds = list(seeds)
    hand, seeds[house] = seeds[house], 0
    at = house
    while hand > 0:
        at = (at + 1) % 12
        if at != house:  # a lap of 12 or more passes over the house it started from
            seeds[at] += 1
            hand -= 1
    theirs = range(6, 12) if seat == 1 else range(0, 6)
    taken = 0
    while at in theirs and seeds[at] in (2, 3):
        taken += seeds[at]
        at -= 1
    # A grand slam, taking every seed the opponent has, takes nothing.
    return 0 if taken == sum(seeds[i] for i in theirs) else taken


def choose(position):
    gains = {move: captures(position.seeds, position.index(move), position.seat)
             for move in position.legal}
    best = max(gains.values())
    position.info(nodes=len(gains), depth=1, text="captures %d" % best)
    return position.rng.choice([move for move in position.legal if gains[move] == best])


if __name__ == "__main__":
    arena_agent.play(choose, name="greedy Oware, in Python",
                     accepts=lambda variant: variant == "oware")
