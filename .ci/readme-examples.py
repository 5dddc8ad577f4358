#!/usr/bin/env python3
"""Runs every example of README.md as written, in order, as a reader would type them.

Every fenced block of the README is one of:

- ```sh: each line runs in one bash session from the root of the checkout (so `. .venv/bin/activate`
  holds for what follows), stdin closed, stopping at the first failure. A line whose comment
  says `Ctrl-C stops it` is a server: it runs for a few seconds and must still be running then.
- ```python: run by the session's `python3` (the virtual environment's once it is activated).
- a block after `<!-- file: PATH -->`: written to PATH, as the README asks the reader to.
- a block after `<!-- not run: REASON -->`, and ```text, ```toml and the other blocks:
  shown, not run; after `<!-- except: LINE (REASON) -->`, every line of the block runs but LINE.

`cargo install` puts `arena` into target/readme-examples/bin (CARGO_INSTALL_ROOT), which goes first
on the PATH, and pip's cache goes under target/: nothing outside the checkout changes. The
examples create `mine/`, `results/mine/`, `results/td4/` and `.venv/`; the script refuses to start
if any of them exists (a reader's own work), checks at the end that `git status` shows nothing new
(all of them are ignored), then removes them.

    python3 .ci/readme-examples.py [--list]
"""

import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CREATED = ["mine", "results/mine", "results/td4", ".venv"]
SERVER_SECONDS = 8


def blocks(text):
    """(line number, info string, directive, lines) of every fenced block."""
    found = []
    lines = text.split("\n")
    directive = None
    i = 0
    while i < len(lines):
        line = lines[i]
        match = re.match(r"^<!--\s*(file|not run|except):\s*(.*?)\s*-->$", line)
        if match:
            directive = (match.group(1), match.group(2))
        elif line.startswith("```"):
            info = line[3:].strip()
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            found.append((start, info, directive, lines[start:i]))
            directive = None
        elif line.strip():
            directive = None
        i += 1
    return found


def script(readme):
    """The bash script that runs the README's examples."""
    out = ["set -euo pipefail", "exec </dev/null"]
    for number, info, directive, body in blocks(readme):
        if directive and directive[0] == "not run":
            out.append(f"echo '== README line {number}: not run here ({directive[1]})'")
            continue
        if directive and directive[0] == "file":
            path = directive[1]
            out.append(f"echo '== README line {number}: writing {path}'")
            out.append(f"cat > {shlex.quote(path)} <<'README_EOF'")
            out.extend(body)
            out.append("README_EOF")
            continue
        if info == "sh":
            for offset, line in enumerate(body):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                where = f"README line {number + offset}"
                if directive and directive[0] == "except" and directive[1].startswith(
                    "`" + line.strip() + "`"
                ):
                    out.append(f"echo {shlex.quote('== ' + where + ': not run here: ' + directive[1])}")
                    continue
                out.append(f"echo {shlex.quote('== ' + where + ': ' + line.strip())}")
                if "Ctrl-C stops it" in line:
                    command = line.split("#", 1)[0].strip()
                    out.append(
                        f"status=0; timeout -s INT {SERVER_SECONDS} {command} || status=$?; "
                        f'if [ "$status" != 124 ]; then echo "{where}: the server stopped by itself '
                        f'(exit status $status)"; exit 1; fi'
                    )
                else:
                    out.append(line)
        elif info == "python":
            out.append(f"echo '== README line {number}: the Python example'")
            out.append("python3 - <<'README_EOF'")
            out.extend(body)
            out.append("README_EOF")
    return "\n".join(out) + "\n"


def main():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as file:
        readme = file.read()
    text = script(readme)
    if "--list" in sys.argv[1:]:
        print(text)
        return 0
    there = [path for path in CREATED if os.path.exists(os.path.join(ROOT, path))]
    if there:
        print(
            "readme-examples: the examples would write over "
            + ", ".join(there)
            + "; move them away first (this script removes what it creates)",
            file=sys.stderr,
        )
        return 1
    env = dict(os.environ)
    tools = os.path.join(ROOT, "target", "readme-examples")
    env["CARGO_INSTALL_ROOT"] = tools
    env["PATH"] = os.path.join(tools, "bin") + os.pathsep + env["PATH"]
    env["PIP_CACHE_DIR"] = os.path.join(tools, "pip-cache")
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env.pop("VIRTUAL_ENV", None)
    try:
        status = subprocess.run(["bash", "-c", text], cwd=ROOT, env=env).returncode
        if status != 0:
            print(f"readme-examples: FAILED (exit status {status})", file=sys.stderr)
            return 1
        new = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout
        if new.strip():
            print("readme-examples: the examples left files git does not ignore:\n" + new,
                  file=sys.stderr)
            return 1
        print("readme-examples: every example ran as written; git status is clean")
        return 0
    finally:
        for path in CREATED:
            subprocess.run(["rm", "-rf", os.path.join(ROOT, path)], check=False)


if __name__ == "__main__":
    sys.exit(main())
