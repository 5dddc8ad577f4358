#!/usr/bin/env python3
"""A strict Gomocup engine for the arena's tests, written from piskvork's manager, the pisqpipe
skeleton most engines are built on, and the protocol's text, and made to behave as the
strongest open-source engine did when tried with the arena:

- A reader thread takes lines as they come (as pisqpipe's does); a command that arrives within
  DROP_MS of its last move loses its first word, as that engine's did while still finishing
  its move (`INFO timeout_turn 1000` is then read as the command `timeout_turn`, which gets
  `ERROR Unknown command`).
- BOARD is replayed in order: the first stone is the first player's, the colours alternate,
  and its own colour is the side to move. A block that is not in the order played (a stone
  whose field does not fit its colour) is a violation.
- Its first move after START or RESTART sets up its hash table: it takes a second when
  `INFO max_memory` is 0 or was never sent (no limit: it takes a large table).
- It answers at once otherwise: the empty cell nearest its last stone (the centre first).

Every violation of the protocol as piskvork drives an engine is written to stderr as a line
starting `VIOLATION` (the arena puts stderr in the engine's log): `time_left` other than
2147483647 without a game clock, an INFO that repeats the value already sent in the game, BOARD on a board
that is not empty (piskvork sends RESTART first). Each game's colour is written as
`colour black` or `colour white`.

Usage: pisq.py [--refuse-info KEY] [--no-restart] [MARKER]   (--refuse-info: answer `ERROR` to
INFO KEY; --no-restart: answer `UNKNOWN` to RESTART, an optional command that pbrain-figrid 1.2.0
does not have)
"""
import queue
import sys
import threading
import time

DROP_MS = 8
UNLIMITED = 2147483647
KNOWN = {"timeout_turn", "timeout_match", "time_left", "max_memory", "game_type", "rule",
         "folder", "evaluate"}

args = sys.argv[1:]
refuse = None
if len(args) >= 2 and args[0] == "--refuse-info":
    refuse = args[1]
    args = args[2:]
no_restart = bool(args) and args[0] == "--no-restart"
if no_restart:
    args = args[1:]

lines = queue.Queue()


def reader():
    for raw in sys.stdin:
        lines.put((time.monotonic(), raw.strip()))
    lines.put((time.monotonic(), None))


threading.Thread(target=reader, daemon=True).start()

size = (15, 15)
taken = {}
mine = []
info = {}
answered = None
first_move = True
colour = None


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def violation(text):
    sys.stderr.write("VIOLATION " + text + "\n")
    sys.stderr.flush()


def new_game():
    global first_move, colour
    taken.clear()
    mine.clear()
    first_move = True
    colour = None
    # A new game's set-up sends the game's INFO block again (piskvork does at each game's
    # start): only a repeat within a game is a violation.
    info.pop("timeout_turn", None)
    info.pop("time_left", None)


def move():
    global first_move, answered
    if first_move:
        if info.get("max_memory", 0) == 0:
            time.sleep(1.0)
        first_move = False
    w, h = size
    anchor = mine[-1] if mine else (w // 2, h // 2)
    best = min(
        ((x, y) for x in range(w) for y in range(h) if (x, y) not in taken),
        key=lambda c: (abs(c[0] - anchor[0]) + abs(c[1] - anchor[1]), c),
    )
    taken[best] = colour
    mine.append(best)
    # The time it starts answering: taken after the line is written, a pause of this process
    # under load would date the answer after a command the arena sent a quiet time later.
    answered = time.monotonic()
    say(f"{best[0]},{best[1]}")


def set_colour(own):
    global colour
    if colour is None:
        colour = own
        sys.stderr.write(f"colour {own}\n")
        sys.stderr.flush()


def next_line():
    arrived, line = lines.get()
    if line is not None and answered is not None and arrived - answered < DROP_MS / 1000:
        # Still finishing its move: the first word is lost.
        line = line.partition(" ")[2]
    return line


while True:
    line = next_line()
    if line is None:
        break
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
    elif word == "RESTART" and no_restart:
        say("UNKNOWN")
    elif word == "RESTART":
        new_game()
        say("OK")
    elif word == "INFO":
        key, _, value = rest.partition(" ")
        if key == refuse:
            say("ERROR unsupported INFO " + key)
            continue
        if key not in KNOWN:
            continue
        if key == "rule":
            if int(value) not in (0, 1):
                say("ERROR Unsupported rule " + value)
            continue
        if key in ("folder", "evaluate"):
            continue
        number = int(value)
        if key in info and info[key] == number and key in ("timeout_turn", "time_left"):
            violation(f"INFO {key} {value} repeats the value already sent")
        info[key] = number
        if key == "max_memory":
            sys.stderr.write(f"max_memory {number}\n")
            sys.stderr.flush()
        if key == "time_left" and info.get("timeout_match", 0) == 0 and number != UNLIMITED:
            violation(f"INFO time_left {value} without a game clock (timeout_match 0)")
    elif word == "BEGIN":
        if taken:
            violation("BEGIN on a board that is not empty")
        set_colour("black")
        move()
    elif word == "TURN":
        x, y = (int(v) for v in rest.split(","))
        if not taken:
            set_colour("white")
        taken[(x, y)] = "white" if colour == "black" else "black"
        move()
    elif word == "BOARD":
        if taken:
            violation("BOARD on a board that is not empty (no RESTART)")
        stones = []
        while True:
            entry = next_line()
            if entry is None or entry.upper() == "DONE":
                break
            x, y, field = (int(v) for v in entry.split(","))
            stones.append((x, y, field))
        new_game()
        own = "black" if len(stones) % 2 == 0 else "white"
        set_colour(own)
        for i, (x, y, field) in enumerate(stones):
            played_by = "black" if i % 2 == 0 else "white"
            if (field == 1) != (played_by == own):
                violation(f"BOARD not in the order played: stone {i + 1} ({x},{y}) has "
                          f"field {field}, but the {played_by} player played it")
            taken[(x, y)] = played_by
            if field == 1:
                mine.append((x, y))
        move()
    elif word == "ABOUT":
        say('name="pisq-strict", version="1.0", author="arena tests"')
    elif word == "END":
        break
    else:
        say("ERROR Unknown command: " + word[:20])
