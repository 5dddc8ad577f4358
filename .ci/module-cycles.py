#!/usr/bin/env python3
"""Prints the circles among the modules of a crate, measured by the imports, and fails on one.

    python3 .ci/module-cycles.py crates/arena crates/agents

A module is a file of src/ (lib.rs is the crate root, `a/b.rs` and `a/b/mod.rs` are `a::b`).
Module A depends on module B when A's code names a path into B: `use crate::b::X`,
`crate::b::f()`, `super::b::X`, `self::b`, `b::X` where b is a child of A, or a name that the crate root or another module
re-exports from B (`use crate::X` where lib.rs has `pub use b::X` counts as a use of B).
Declaring a module (`mod b;`) and re-exporting from it (`pub use b::X;`) are not uses: they
are how a module shows its children. Test code (`#[cfg(test)]` items) is left out: the tests
of a module may use what sits above it. A circle is a strongly connected component of two or
more modules; each is printed with one import per edge, so it can be traced.
"""

import os
import re
import sys
from collections import defaultdict


def strip_comments_and_strings(text):
    """The text with comments, string and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{..}') or a lifetime ('a): only the former is blanked.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, at):
    """The index after the brace that closes the one at `at`."""
    depth = 0
    for j in range(at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def drop_test_items(text):
    """The text without items under `#[cfg(test)]` (a block item or a one-line item)."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]", text)
        if not m:
            return text
        j = m.end()
        brace, semi = text.find("{", j), text.find(";", j)
        if semi >= 0 and (brace < 0 or semi < brace):
            end = semi + 1
        else:
            end = matching_brace(text, brace)
        text = text[: m.start()] + "\n" * text.count("\n", m.start(), end) + text[end:]


def expand_use_tree(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (renames and globs kept as paths)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^([^{]*)\{(.*)\}$", tree)
    if not m:
        return [tree]
    prefix, inner = m.group(1), m.group(2)
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(inner):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:k])
            start = k + 1
    parts.append(inner[start:])
    out = []
    for part in parts:
        if part:
            out.extend(prefix + p for p in expand_use_tree(part))
    return out


def module_of(src, path):
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel in (["lib"], ["main"]):
        return ()
    if rel[-1] == "mod":
        rel = rel[:-1]
    return tuple(rel)


def crate_graph(crate):
    src = os.path.join(crate, "src")
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                files[module_of(src, path)] = path
    modules = set(files)
    texts = {}
    for module, path in files.items():
        with open(path, encoding="utf-8") as f:
            texts[module] = drop_test_items(strip_comments_and_strings(f.read()))

    # Each module's re-exports: name -> the path it names (relative to the module).
    reexports = defaultdict(dict)
    uses = {}
    for module, text in texts.items():
        found = []
        for m in re.finditer(r"(?m)^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
            paths = expand_use_tree(m.group(2))
            if m.group(1):
                for p in paths:
                    name = p.split("::")[-1]
                    if name not in ("*", "self"):
                        reexports[module][name] = p
                    elif name == "self":
                        reexports[module][p.split("::")[-2]] = p[: -len("::self")]
            else:
                found.extend((p, m.start()) for p in paths)
        # Paths written inline in the code (crate::a::b, super::x, self::x).
        without_uses = re.sub(r"(?m)^\s*(pub(?:\([^)]*\))?\s+)?use\s+[^;]+;", "", text)
        for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", without_uses):
            found.append((m.group(1), None))
        children = {c[-1] for c in files if len(c) == len(module) + 1 and c[:-1] == module}
        for m in re.finditer(r"(?<![\w:])(\w+)((?:::\w+)+)", without_uses):
            if m.group(1) in children:
                found.append((m.group(1) + m.group(2), None))
        uses[module] = found

    def absolute(module, path):
        parts = path.split("::")
        base = list(module)
        if tuple(base + parts[:1]) in modules:
            pass  # a child module, named from its parent (2018 paths)
        elif parts[0] == "crate":
            base, parts = [], parts[1:]
        elif parts[0] in ("super", "self"):
            while parts and parts[0] in ("super", "self"):
                if parts[0] == "super":
                    base = base[:-1]
                parts = parts[1:]
        else:
            return None  # another crate, std, or a name in scope
        return base + [p for p in parts if p != "self"]

    def resolve(parts, seen=0):
        """The module a crate-absolute path lands in (through modules, then re-exports)."""
        at = ()
        for k, part in enumerate(parts):
            if at + (part,) in modules:
                at = at + (part,)
                continue
            target = reexports[at].get(part)
            if target is not None and seen < 10:
                full = absolute(at, target)
                if full is None:  # a re-export from another crate
                    return at
                return resolve(full + parts[k + 1:], seen + 1)
            return at
        return at

    edges = defaultdict(dict)
    for module, found in uses.items():
        for path, _ in found:
            parts = absolute(module, path)
            if parts is None:
                continue
            target = resolve(parts)
            if target != module:
                edges[module].setdefault(target, path)
    return modules, edges


def circles(modules, edges):
    """The strongly connected components of two or more modules (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(modules):
        if v not in index:
            visit(v)
    return out


def name(module):
    return "::".join(module) if module else "crate"


def main(crates):
    failed = False
    for crate in crates:
        modules, edges = crate_graph(crate)
        found = circles(modules, edges)
        if not found:
            print(f"{crate}: {len(modules)} modules, no circle")
            continue
        failed = True
        print(f"{crate}: {len(found)} circle(s) of modules")
        for component in found:
            members = set(component)
            print(f"  circle: {', '.join(name(m) for m in component)}")
            for a in component:
                for b, path in sorted(edges[a].items()):
                    if b in members:
                        print(f"    {name(a)} -> {name(b)}  ({path})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["crates/arena", "crates/agents"]))
