#!/usr/bin/env python3
"""A Gomocup engine that misbehaves on purpose, for the arena's tests.

Usage: misbehave.py MODE [MARKER]. It answers START with OK like a real engine, then on its
first move request (BEGIN, TURN or BOARD ... DONE):
  silent   never answers
  crash    exits with status 3
  garbage  answers a line that is not a move
  illegal  answers a cell off the board
  occupied answers the cell the opponent just took (or 0,0 twice)
  slow     sleeps 2 s, then answers a legal-looking move
  error    answers ERROR
  badutf8  answers a line with a byte that is not UTF-8
  longline answers a line of 2 MiB
  fine     answers the first empty cell, scanning row by row (a legal, dull engine)
MARKER is ignored; tests use it to find leftover processes.
"""
import sys
import time

mode = sys.argv[1]
size = (15, 15)
taken = set()


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def first_empty():
    for y in range(size[1]):
        for x in range(size[0]):
            if (x, y) not in taken:
                return x, y
    return 0, 0


def move(last):
    if mode == "silent":
        time.sleep(3600)
    elif mode == "crash":
        sys.exit(3)
    elif mode == "garbage":
        say("I think I will play somewhere nice")
    elif mode == "illegal":
        say("99,99")
    elif mode == "occupied":
        x, y = last if last else (0, 0)
        taken.add((x, y))
        say(f"{x},{y}")
    elif mode == "slow":
        time.sleep(2)
        x, y = first_empty()
        taken.add((x, y))
        say(f"{x},{y}")
    elif mode == "error":
        say("ERROR something went wrong inside")
    elif mode == "badutf8":
        sys.stdout.buffer.write(b"1,\xff\n")
        sys.stdout.flush()
    elif mode == "longline":
        say("7" * (2 << 20))
    else:
        x, y = first_empty()
        taken.add((x, y))
        say(f"{x},{y}")


for raw in sys.stdin:
    line = raw.strip()
    word = line.split(" ")[0].upper() if line else ""
    if word == "START":
        n = int(line.split()[1])
        size = (n, n)
        say("OK")
    elif word == "RECTSTART":
        w, h = line.split()[1].split(",")
        size = (int(w), int(h))
        say("OK")
    elif word == "BEGIN":
        say("MESSAGE thinking hard")
        move(None)
    elif word == "TURN":
        x, y = (int(v) for v in line.split()[1].split(","))
        taken.add((x, y))
        move((x, y))
    elif word == "BOARD":
        for entry in sys.stdin:
            entry = entry.strip()
            if entry.upper() == "DONE":
                break
            x, y, _ = (int(v) for v in entry.split(","))
            taken.add((x, y))
        move(None)
    elif word == "END":
        break
    elif word in ("INFO", ""):
        pass
    else:
        say("UNKNOWN " + word)
