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
and before any game:
  refuse    answers `error` to every `game`
  noready   never answers `arena 1`
MARKER is ignored; tests use it to find leftover processes.
"""
import sys
import time

mode = sys.argv[1]
position = []
legal = []


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def go():
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
        say("ready")
    elif word == "game":
        say("error I only play chess" if mode == "refuse" else "ok")
    elif word == "position":
        position = words[1:]
    elif word == "legal":
        legal = words[1:]
    elif word == "go":
        go()
    elif word == "quit":
        break
