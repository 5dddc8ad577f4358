# Broken on purpose: its second move is a cell the board does not have (an illegal move).
import sys

legal, turn = [], 0
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("feature reuse")
        print("ready")
    elif w[0] == "game":
        turn = 0
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        turn += 1
        print("move " + (legal[-1] if turn != 2 else "z9"))
    elif w[0] == "quit":
        break
    sys.stdout.flush()
