#!/usr/bin/env python3
"""A generated round robin for timing `arena report` against the number of agents.

    python3 benches/report_scale.py AGENTS [GAMES_PER_PAIR] > games.csv

AGENTS agents rated 0, 10, 20, ... Elo play GAMES_PER_PAIR games (2 by default, colours
alternating) against every other agent; results follow the logistic Elo model with about a
third of the games drawn near equal strength. Seeded: the same arguments give the same file.
"""
import random
import sys

agents = int(sys.argv[1])
per_pair = int(sys.argv[2]) if len(sys.argv) > 2 else 2
rng = random.Random(agents * 1000 + per_pair)
names = [f"a{k:04}" for k in range(agents)]
elo = [10.0 * k for k in range(agents)]
print(
    "experiment,variant,game,seed,first,second,result,termination,plies,first_score,"
    "second_score,first_ms,second_ms,first_max_ms,second_max_ms,first_nodes,second_nodes,"
    "moves,first_spec,second_spec"
)
game = 0
for i in range(agents):
    for j in range(i + 1, agents):
        for g in range(per_pair):
            first, second = (i, j) if g % 2 == 0 else (j, i)
            p = 1.0 / (1.0 + 10 ** ((elo[second] - elo[first]) / 400.0))
            draw = (1.0 - abs(2.0 * p - 1.0)) / 3.0
            u = rng.random()
            if u < draw:
                result, termination = "1/2-1/2", "draw"
            elif u < draw + (1.0 - draw) * p:
                result, termination = "1-0", "win"
            else:
                result, termination = "0-1", "win"
            print(
                f"scale,mnk-3x3k3,{game},{game + 1},{names[first]},{names[second]},{result},"
                f"{termination},9,,,0.1,0.1,0.1,0.1,10,10,a1 b1 a2 b2 c1 b3 c2 c3 a3,random,random"
            )
            game += 1
