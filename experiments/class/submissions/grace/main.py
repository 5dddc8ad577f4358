# Broken on purpose: crashes on its third move of a game (an IndexError), which loses the game
# as a crash; its traceback is in its log.
import sys

legal, turn = [], 0
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("ready")
    elif w[0] == "game":
        turn = 0
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        turn += 1
        print("move " + legal[0 if turn < 3 else 99])
    elif w[0] == "quit":
        break
    sys.stdout.flush()
