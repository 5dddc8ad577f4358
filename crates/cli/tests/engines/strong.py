#!/usr/bin/env python3
"""A Gomocup engine that behaves like the strongest open-source engine did when tried with the
arena, for the arena's tests. Usage: strong.py [MARKER].

- An INFO key it does not know (the arena's private `arena_rng`, `win_length`) is parsed as a
  command: it answers `ERROR Unknown command: ...`.
- It has no caro rule: `INFO rule 8` gets `ERROR Unsupported rule 8`.
- Its first move in a process takes about 240 ms (a one-off set-up); later moves are quick.
- It keeps to its board between games: RESTART is answered OK.
It plays the empty cell nearest the centre, then nearest its last stone.
"""
import sys
import time

size = (15, 15)
taken = set()
mine = []
first_move = True
KNOWN = {"timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
         "folder", "evaluate"}


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def move():
    global first_move
    if first_move:
        time.sleep(0.24)
        first_move = False
    w, h = size
    anchor = mine[-1] if mine else (w // 2, h // 2)
    best = min(
        ((x, y) for x in range(w) for y in range(h) if (x, y) not in taken),
        key=lambda c: (abs(c[0] - anchor[0]) + abs(c[1] - anchor[1]), c),
    )
    taken.add(best)
    mine.append(best)
    say(f"{best[0]},{best[1]}")


def new_game():
    taken.clear()
    mine.clear()


for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word, _, rest = line.partition(" ")
    word = word.upper()
    if word == "START":
        n = int(rest)
        size = (n, n)
        new_game()
        say("OK")
    elif word == "RECTSTART":
        w, h = rest.split(",")
        size = (int(w), int(h))
        new_game()
        say("OK")
    elif word == "RESTART":
        new_game()
        say("OK")
    elif word == "INFO":
        key, _, value = rest.partition(" ")
        if key not in KNOWN:
            say("ERROR Unknown command: " + value.split(":")[0][:20])
        elif key == "rule" and int(value) not in (0, 1):
            say("ERROR Unsupported rule " + value)
    elif word == "BEGIN":
        move()
    elif word == "TURN":
        x, y = (int(v) for v in rest.split(","))
        taken.add((x, y))
        move()
    elif word == "BOARD":
        new_game()
        for entry in sys.stdin:
            entry = entry.strip()
            if entry.upper() == "DONE":
                break
            x, y, field = (int(v) for v in entry.split(","))
            taken.add((x, y))
            if field == 1:
                mine.append((x, y))
        move()
    elif word == "ABOUT":
        say('name="strong-like", version="1.0"')
    elif word == "END":
        break
    else:
        say("UNKNOWN " + word)
