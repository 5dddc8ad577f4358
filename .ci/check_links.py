#!/usr/bin/env python3
"""Checks every link of a built mdBook: each relative href or src of every HTML page must name a
file of the book, and each #fragment an id (or a name) on the page it points to. Links to other
sites are not followed (CI has no network but the package registries); they are counted.

    python3 .ci/check_links.py target/book
"""

import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "img", "link", "script"):
                self.links.append((tag, attrs[key], self.getpos()[0]))


def parse(path):
    page = Page()
    with open(path, encoding="utf-8") as file:
        page.feed(file.read())
    return page


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/book")
    pages = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                pages[path] = parse(path)
    if not pages:
        print(f"check_links: no HTML pages under {root}", file=sys.stderr)
        return 1
    broken, checked, outside = [], 0, 0
    for path, page in sorted(pages.items()):
        where = os.path.relpath(path, root)
        # print.html repeats every page; its links are those of the pages.
        if where == "print.html":
            continue
        for tag, link, line in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                outside += 1
                continue
            checked += 1
            target = path
            if parts.path:
                target = os.path.normpath(os.path.join(os.path.dirname(path), unquote(parts.path)))
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
                if not os.path.exists(target):
                    broken.append(f"{where}:{line}: <{tag}> {link}: no such file in the book")
                    continue
            if parts.fragment and target.endswith(".html"):
                ids = (pages.get(target) or parse(target)).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where}:{line}: <{tag}> {link}: no id `{parts.fragment}` there")
    for line in broken:
        print(f"check_links: {line}", file=sys.stderr)
    print(f"check_links: {len(pages)} pages, {checked} links inside the book checked, "
          f"{len(broken)} broken; {outside} links to other sites not followed")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
