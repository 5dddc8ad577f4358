# A random legal move, drawn from the generator the arena seeds for each game (`game seed=`):
# the same games replay the same way.
import random
import sys

rng, legal = random.Random(0), []
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("feature reuse")
        print("ready")
    elif w[0] == "game":
        fields = dict(f.split("=", 1) for f in w[1:] if "=" in f)
        rng = random.Random(int(fields.get("seed", "0")))
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        print("move " + rng.choice(legal))
    elif w[0] == "quit":
        break
    sys.stdout.flush()
