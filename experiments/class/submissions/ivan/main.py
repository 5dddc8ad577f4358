# Broken on purpose: tries to read another student's program at its first move. In the
# sandbox the read is refused (PermissionError) and the game is lost as a crash; where the
# sandbox is off it would succeed, and the agent then stops just the same, so the results are
# the same on every machine.
import sys

legal = []
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    if w[0] == "arena":
        print("ready")
    elif w[0] == "game":
        print("ok")
    elif w[0] == "legal":
        legal = w[1:]
    elif w[0] == "go":
        secret = open("../alice/main.py").read()
        raise SystemExit("read %d bytes of alice's program: the sandbox is off" % len(secret))
    elif w[0] == "quit":
        break
    sys.stdout.flush()
