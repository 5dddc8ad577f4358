#!/usr/bin/env python3
"""Runs a program and writes what passes both ways to a transcript file: `> line` from the
arena, `< line` from the program. docs/src/reference/protocol.md's Gomocup transcript was made with it:

    engine:cmd=python3,args=transcript.py game.txt arena engine --agent alphabeta:depth=3

Usage: transcript.py FILE COMMAND [ARG...]
"""
import subprocess
import sys
import threading

path, command = sys.argv[1], sys.argv[2:]
log = open(path, "a", buffering=1)
lock = threading.Lock()
child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                         bufsize=1)


def write(mark, line):
    with lock:
        log.write(f"{mark} {line.rstrip()}\n")


def answers():
    for line in child.stdout:
        write("<", line)
        sys.stdout.write(line)
        sys.stdout.flush()


reader = threading.Thread(target=answers)
reader.start()
for line in sys.stdin:
    write(">", line)
    try:
        child.stdin.write(line)
        child.stdin.flush()
    except BrokenPipeError:
        break
child.stdin.close()
child.wait()
reader.join()
