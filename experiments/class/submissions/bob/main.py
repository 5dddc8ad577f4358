# Plays the first legal move the arena lists.
import sys

legal = []
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("feature reuse")
        print("ready")
    elif w[0] == "game":
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        print("move " + legal[0])
    elif w[0] == "quit":
        break
    sys.stdout.flush()
