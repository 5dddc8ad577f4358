# Broken on purpose: a syntax error, so it never answers the arena's handshake; the pre-flight
# check excludes it before the first game.
import sys

for raw in sys.stdin
    print("ready")
