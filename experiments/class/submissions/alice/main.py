# Tic-tac-toe for the arena protocol: win if it can, block if it must, else the centre, a
# corner, a side. Standard library only; the arena gives the legal moves every turn.
import sys


def lines(cells):
    cols = sorted({c[0] for c in cells})
    rows = sorted({c[1:] for c in cells}, key=int)
    out = [[c + r for c in cols] for r in rows] + [[c + r for r in rows] for c in cols]
    out.append([cols[i] + rows[i] for i in range(len(cols))])
    out.append([cols[i] + rows[len(rows) - 1 - i] for i in range(len(cols))])
    return out


def choose(moves, legal):
    mine, theirs = set(moves[len(moves) % 2::2]), set(moves[1 - len(moves) % 2::2])
    cells = moves + legal
    for side in (mine, theirs):
        for line in lines(cells):
            free = [c for c in line if c in legal]
            if len(free) == 1 and sum(c in side for c in line) == len(line) - 1:
                return free[0]
    for cell in ("b2", "a1", "c3", "a3", "c1"):
        if cell in legal:
            return cell
    return legal[0]


moves, legal = [], []
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("id name alice")
        print("feature reuse")
        print("ready")
    elif w[0] == "game":
        print("ok")
    elif w[0] == "position":
        moves = w[1:]
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        print("move " + choose(moves, legal))
    elif w[0] == "quit":
        break
    sys.stdout.flush()
