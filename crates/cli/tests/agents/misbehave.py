#!/usr/bin/env python3
"""An arena-protocol agent that misbehaves on purpose, for the arena's tests.

Usage: misbehave.py MODE [MARKER]. It answers `arena 1` and `game` like a good agent, then on its
first `go`:
  silent    never answers
  crash     exits with status 3
  exit      exits with status 0 (an early exit)
  garbage   answers a line that is not a line of the protocol
  illegal   answers a move that is not on the board
  occupied  answers the first move of the position (a taken cell); on an empty board it first
            plays a legal move
  slow      sleeps 2 s, then answers a legal move
  error     answers `error ...` (gives up)
  badutf8   answers `move ` and a byte that is not UTF-8
  longline  answers a line of 2 MiB
  badinfo   sends `info nodes=-1`, then a legal move
  fine      answers the first legal move, with an info line
  helper    starts a helper process that keeps stdout open, then exits (status 0)
  flood     writes `x` to stdout without end and without a newline
  escape    writes a terminal escape sequence to stderr and in its `error` line
  hang      starts a helper, then never answers
  noisy     writes 5 MB to stderr before each (first legal) move
  setsid    starts two helpers outside its process group (one in a session of its own, one
            that leaves its process tree too: its parent exits at once), then plays legal moves
  setsidhang  starts those helpers, then never answers
  closeout  closes its standard output and keeps running
and before any game:
  refuse    answers `error` to every `game`
  gamememory  asks for 8 GB when told of a game to play (before it answers `ok`; the
            pre-flight check's game, seed 0, it accepts)
  noready   never answers `arena 1`
It announces `feature clock` in every mode but `fine`, so that tests may run it under a game
clock (`fine` stands for an agent that keeps no clock).
MARKER is ignored; tests use it to find leftover processes (the helpers carry it too). With
ARENA_TEST_GROUPS set to a folder, the agent writes its process group id to a file there.
"""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
marker = sys.argv[2] if len(sys.argv) > 2 else "misbehave"
if os.environ.get("ARENA_TEST_GROUPS"):
    with open(os.path.join(os.environ["ARENA_TEST_GROUPS"], str(os.getpid())), "w") as f:
        f.write(str(os.getpgid(0)))


def start_helper():
    # Inherits stdout and stderr: holds the agent's output open after the agent exits.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])


def start_detached_helpers():
    # Stopping the agent's process group cannot reach these: one is the agent's child in a
    # session of its own, the other a grandchild whose parent exits at once (a daemon).
    sleeper = [sys.executable, "-c", "import time; time.sleep(60)", marker]
    subprocess.Popen(sleeper, start_new_session=True)
    subprocess.Popen([sys.executable, "-c",
                      "import subprocess, sys; subprocess.Popen(sys.argv[1:], start_new_session=True)"]
                     + sleeper).wait()


position = []
legal = []
detached = False


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def go():
    global detached
    if mode in ("setsid", "setsidhang") and not detached:
        detached = True
        start_detached_helpers()
    if mode == "silent":
        time.sleep(3600)
    elif mode == "crash":
        print("Traceback: something broke", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "exit":
        sys.exit(0)
    elif mode == "garbage":
        say("I think b2 is nice")
    elif mode == "illegal":
        say("move z99")
    elif mode == "occupied":
        say("move " + (position[0] if position else legal[0]))
    elif mode == "slow":
        time.sleep(2)
        say("move " + legal[0])
    elif mode == "error":
        say("error something went wrong inside")
    elif mode == "badutf8":
        sys.stdout.buffer.write(b"move \xff\n")
        sys.stdout.flush()
    elif mode == "longline":
        sys.stdout.write("move " + "x" * (2 << 20) + "\n")
        sys.stdout.flush()
    elif mode == "helper":
        start_helper()
        os._exit(0)
    elif mode == "flood":
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    elif mode == "escape":
        print("\x1b[2J\x1b[31mred", file=sys.stderr, flush=True)
        say("error \x1b[2J\x1b[31m boom")
    elif mode == "hang":
        start_helper()
        time.sleep(3600)
    elif mode == "setsidhang":
        time.sleep(3600)
    elif mode == "closeout":
        os.close(1)
        time.sleep(3600)
    elif mode == "noisy":
        sys.stderr.write(("debug " + "x" * 94 + "\n") * 50000)
        sys.stderr.flush()
        say("move " + legal[0])
    elif mode == "badinfo":
        say("info nodes=-1")
        say("move " + legal[0])
    else:
        say("info nodes=1 depth=0 text=the first legal move")
        say("move " + legal[0])


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    word = words[0]
    if word == "arena":
        if mode == "noready":
            continue
        say("id name misbehave " + mode)
        say("feature reuse")
        if mode != "fine":
            say("feature clock")
        say("ready")
    elif word == "game":
        if mode == "gamememory" and "seed=0" not in words:
            hog = bytearray(8 << 30)
        say("error I only play chess" if mode == "refuse" else "ok")
    elif word == "position":
        position = words[1:]
    elif word == "legal":
        legal = words[1:]
    elif word == "go":
        go()
    elif word == "quit":
        break
