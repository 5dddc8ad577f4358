#!/usr/bin/env python3
# Usage: python3 benches/oware_endgames.py target/debug/arena results/oware/games.csv 40 10 10,20
# For the first N games of a games.csv: the position K plies before each game's last move,
# solved by `arena solve oware` within LIMIT seconds; how many are proven and how fast.
import csv, re, subprocess, sys, statistics
A, path, N, LIMIT = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
rows = list(csv.DictReader(open(path)))[:N]
for K in [int(k) for k in sys.argv[5].split(",")]:
    solved, times, tried = 0, [], 0
    for row in rows:
        moves = row["moves"].split()
        if len(moves) <= K or row["termination"] != "win":
            continue
        tried += 1
        res = subprocess.run([A, "solve", "oware", "--moves", " ".join(moves[:len(moves) - K]),
                              "--time-limit", LIMIT, "--max-depth", "200"], capture_output=True, text=True).stdout
        value = re.search(r"^value: (.*)$", res, re.M).group(1)
        t = float(re.search(r"^time: ([\d.]+)", res, re.M).group(1))
        if "unknown" not in value:
            solved += 1
            times.append(t)
    med = statistics.median(times) if times else float("nan")
    print(f"{K} plies before the end: {solved} of {tried} proven within {LIMIT} s (median time of those {med:.3f} s, longest {max(times) if times else 0:.3f} s)", flush=True)
