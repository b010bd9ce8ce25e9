#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generate the single header single_include/onnxmicro/onnxmicro.hpp from include/onnxmicro/onnxmicro.hpp.

Every `#include "onnxmicro/..."` is replaced, recursively and in place, by the text of that file the first time it
is seen (so files appear in dependency order) and dropped afterwards. Where a file is inlined, the original
include line stays as a comment, followed by `// begin of file ...` / `// end of file ...`, so any line of the
single header can be traced back to its source. `#pragma once` appears once, at the top. System includes are
kept in place; a repeat of one that was already included outside any #if block is dropped.

Usage:
  python3 tools/amalgamate.py                  # rewrite single_include/onnxmicro/onnxmicro.hpp
  python3 tools/amalgamate.py --output FILE    # write the single header to FILE instead
  python3 tools/amalgamate.py --check          # exit 1 when the committed single header is out of date
  python3 tools/amalgamate.py --output DIR/onnxmicro/onnxmicro.hpp --stub-dir DIR
      # also write DIR/onnxmicro/<path> for every inlined header, each just including the single header
      # (the single-header test build uses this so tests that include an internal header still compile)
"""

import argparse
import difflib
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
INCLUDE_DIR = REPO_ROOT / "include"
UMBRELLA = "onnxmicro/onnxmicro.hpp"
DEFAULT_OUTPUT = REPO_ROOT / "single_include" / "onnxmicro" / "onnxmicro.hpp"
REGENERATE_HINT = "run `python3 tools/amalgamate.py` and commit single_include/onnxmicro/onnxmicro.hpp"

PROJECT_INCLUDE = re.compile(r'^\s*#\s*include\s*"(onnxmicro/[^"]+)"')
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s*<([^>]+)>")
PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\b")
SPDX_LINE = re.compile(r"^\s*//\s*SPDX-License-Identifier:")
CONDITIONAL_OPEN = re.compile(r"^\s*#\s*if(n?def)?\b")
CONDITIONAL_CLOSE = re.compile(r"^\s*#\s*endif\b")


class AmalgamationError(Exception):
    pass


def guard_macro(path):
    """Include-guard name for a header inlined inside an #if block (see Amalgamator._inline)."""
    return "ONNXMICRO_SINGLE_INCLUDE_" + re.sub(r"[^A-Za-z0-9]", "_", path).upper()


class Amalgamator:
    def __init__(self, include_dir):
        self.include_dir = include_dir
        self.inlined = set()  # project headers inlined outside any #if: never needed again
        self.guarded = set()  # project headers inlined inside an #if block, behind an include guard
        self.system_seen = set()  # system headers included outside any #if block
        self.stack = []  # include chain, to report cycles

    def run(self, root):
        return self._inline(root, depth=0)

    def inlined_headers(self):
        """Every header whose text is in the amalgamation (after run())."""
        return sorted(self.inlined | self.guarded)

    def _inline(self, path, depth):
        """Lines of `path` with its project includes expanded; `depth` is the #if nesting at the include site."""
        if path in self.stack:
            raise AmalgamationError("include cycle: " + " -> ".join(self.stack + [path]))
        source = self.include_dir / path
        if not source.is_file():
            including = self.stack[-1] if self.stack else "(command line)"
            raise AmalgamationError(f'{including} includes "{path}", which does not exist under {self.include_dir}')
        self.stack.append(path)
        site_depth = depth
        out = []
        for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
            if PRAGMA_ONCE.match(line) or SPDX_LINE.match(line):
                continue  # the banner carries both, once
            if CONDITIONAL_OPEN.match(line):
                depth += 1
            elif CONDITIONAL_CLOSE.match(line):
                depth -= 1
            project = PROJECT_INCLUDE.match(line)
            if project:
                out.extend(self._include_project(project.group(1), depth))
                continue
            system = SYSTEM_INCLUDE.match(line)
            if system:
                header = system.group(1)
                if header in self.system_seen:
                    continue
                if depth == 0:
                    self.system_seen.add(header)
            out.append(line)
        if depth != site_depth:
            raise AmalgamationError(f"{path}: unbalanced #if/#endif ({depth - site_depth} left open at end of file)")
        self.stack.pop()
        return out

    def _include_project(self, path, depth):
        if path in self.inlined:
            return []
        # A header first reached inside an #if block may be needed again unconditionally later, so it is
        # wrapped in an include guard there (the "once" that #pragma once gave it) and may be inlined again.
        conditional = depth > 0
        body = self._inline(path, depth)
        text = [f'// #include "{path}"', f"// begin of file {path}"]
        if conditional or path in self.guarded:
            macro = guard_macro(path)
            text += [f"#ifndef {macro}", f"#define {macro}"] + body + [f"#endif  // {macro}"]
            self.guarded.add(path)
        else:
            text += body
        text.append(f"// end of file {path}")
        if not conditional:
            self.inlined.add(path)
        return text


def read_version(include_dir):
    config = (include_dir / "onnxmicro" / "core" / "config.hpp").read_text(encoding="utf-8")
    parts = []
    for part in ("MAJOR", "MINOR", "PATCH"):
        match = re.search(rf"#define ONNXMICRO_VERSION_{part} (\d+)", config)
        if not match:
            raise AmalgamationError(f"ONNXMICRO_VERSION_{part} not found in include/onnxmicro/core/config.hpp")
        parts.append(match.group(1))
    return ".".join(parts)


def amalgamate(include_dir, inlined=None):
    """The complete text of the single header; `inlined`, if given, receives the list of inlined headers."""
    amalgamator = Amalgamator(include_dir)
    body = amalgamator.run(UMBRELLA)
    if inlined is not None:
        inlined.extend(amalgamator.inlined_headers())
    banner = [
        "// SPDX-License-Identifier: MIT",
        f"// onnxmicro {read_version(include_dir)}, single-header edition.",
        "//",
        f"// GENERATED by tools/amalgamate.py from include/{UMBRELLA}. DO NOT EDIT: change the headers under",
        "// include/ and run `python3 tools/amalgamate.py`. Each `// #include` comment below marks where that file",
        "// was inlined (between its `// begin of file` and `// end of file` lines).",
        "#pragma once",
        "",
    ]
    return "\n".join(banner + body) + "\n"


def display(path):
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Generate single_include/onnxmicro/onnxmicro.hpp by inlining every onnxmicro header "
        "reachable from include/onnxmicro/onnxmicro.hpp, each once, in dependency order.",
        epilog="CI runs --check (ctest single_include_in_sync); when it fails, " + REGENERATE_HINT + ".",
    )
    parser.add_argument(
        "--output",
        metavar="FILE",
        type=Path,
        default=DEFAULT_OUTPUT,
        help="where to write the single header (default: single_include/onnxmicro/onnxmicro.hpp)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 (printing a diff and how to fix it) when --output's content differs from "
        "a fresh amalgamation",
    )
    parser.add_argument(
        "--stub-dir",
        metavar="DIR",
        type=Path,
        help="also write, for every inlined header, DIR/<its path> containing only "
        '`#include "onnxmicro/onnxmicro.hpp"` (with --output DIR/onnxmicro/onnxmicro.hpp, code that includes an '
        "internal header then compiles against the single header)",
    )
    args = parser.parse_args(argv)

    inlined = []
    try:
        text = amalgamate(INCLUDE_DIR, inlined)
    except AmalgamationError as error:
        print(f"amalgamate.py: error: {error}", file=sys.stderr)
        return 2

    if args.check:
        if not args.output.is_file():
            print(f"error: {display(args.output)} is missing; {REGENERATE_HINT}.", file=sys.stderr)
            return 1
        current = args.output.read_text(encoding="utf-8")
        if current == text:
            print(f"{display(args.output)} is up to date")
            return 0
        diff = list(
            difflib.unified_diff(
                current.splitlines(),
                text.splitlines(),
                fromfile=f"{display(args.output)} (committed)",
                tofile="fresh amalgamation",
                lineterm="",
            )
        )
        shown = 60
        print("\n".join(diff[:shown]))
        if len(diff) > shown:
            print(f"... ({len(diff) - shown} more diff lines)")
        print(f"error: {display(args.output)} is out of date with include/; {REGENERATE_HINT}.", file=sys.stderr)
        return 1

    write_if_changed(args.output, text)
    if args.stub_dir:
        for header in inlined:
            write_if_changed(args.stub_dir / header, STUB.format(header=header))
    return 0


STUB = """// SPDX-License-Identifier: MIT
// Generated by tools/amalgamate.py --stub-dir: {header} is part of the single header.
#pragma once
#include "{umbrella}"
""".replace("{umbrella}", UMBRELLA)


def write_if_changed(path, text):
    # Rewriting identical content would only bump the timestamp and trigger rebuilds.
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
