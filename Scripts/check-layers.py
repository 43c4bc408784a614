#!/usr/bin/env python3
"""Fails when a folder of Sources/Observable names something declared only in a higher layer, or when the
engine target (Sources/TetherEngine, layer 0) imports more than the toolchain and TetherShims, or when a
library target other than the engine declares an `Atomic` or names a memory ordering (issue 42: the
synchronization, and every ordering that makes it sound, lives in the engine, behind named operations).

The layers are CONTRIBUTING.md's table ("The layers of `Observable`"); each folder may name the types and
functions of its own layer and of the layers below it, never those above. The compiler enforces the
target boundaries (a target cannot import what depends on it); this script enforces the folders inside the
`Observable` target, which the compiler cannot see.

What counts as a name: every top-level type (class, struct, enum, protocol, actor, typealias; a nested type
is named through its parent), every top-level function, variable and constant, and every member function
whose name has two words or more (`reportReentrantSend`, `withSubscriberLabel`) and is not also a common
member of the standard library (`removeAll`, `isCurrent`): one-word member names (`start`, `send`) are
shared by many types and would say nothing. A name declared in the folder's own layer or below is never flagged, even if a
higher layer declares it too. Comments and string literals are ignored.

`RuntimeAssumptions.swift` stands outside the layers on purpose (CONTRIBUTING.md): any layer may call it,
and it may name any layer (its self-tests build objects of the layers they check).

Usage: Scripts/check-layers.py [--list]   (--list prints each folder's layer and the number of names)
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "Observable")
ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "TetherEngine")
# What the engine target (layer 0, below Observable) may import: the toolchain and Tether's C shims.
ENGINE_IMPORTS = {"Synchronization", "Dispatch", "Foundation", "Glibc", "Musl", "Darwin", "TetherShims"}

# An atomic declared, or an explicit memory ordering, in code outside the engine.
ATOMICS = re.compile(r"\bAtomic\s*<|\bAtomic\s*\(|\b[oO]rdering:\s*\.")

# CONTRIBUTING.md, "The layers of `Observable`".
LAYERS = {
    "Disposables": 1,
    "Core": 2,
    "Schedulers": 3,
    "OperatorKit": 4,
    "Subjects": 5,
    "Multicast": 5,
    "Subscribing": 6,
    "Concurrency": 6,
    "Operators": 7,
    "Properties": 7,
    "ObservedProperties": 7,
    "ObservationFramework": 7,
    "Debugging": 8,
}
OUTSIDE = {"RuntimeAssumptions.swift"}

TYPE_DECL = re.compile(
    r"^(?:@[\w.()]+\s+)*(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"
)
TOP_DECL = re.compile(
    r"^(?:@[\w.()]+\s+)*(?:(?:public|package|internal|private|fileprivate|nonisolated)\s+)*"
    r"(?:func|var|let)\s+([A-Za-z_]\w*)"
)
MEMBER_FUNC = re.compile(
    r"^\s+(?:@[\w.()]+\s+)*(?:(?:public|package|internal|private|fileprivate|final|static|class|override|"
    r"nonisolated|mutating|borrowing|consuming)\s+)*func\s+([a-z]\w*[A-Z]\w*)"
)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
# Member names the standard library, Foundation or Dispatch also use: a match says nothing about layers.
COMMON_MEMBERS = {"removeAll", "isCurrent", "removeFirst", "popFirst", "makeIterator", "reserveCapacity"}


def strip_comments_and_strings(text):
    """The code without comments and string literals (multi-line strings included)."""
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r"/\*(?:.|\n)*?\*/", " ", text)
    lines = []
    for line in text.split("\n"):
        line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
        index = line.find("//")
        if index >= 0:
            line = line[:index]
        lines.append(line)
    return "\n".join(lines)


def layer_of(path):
    relative = os.path.relpath(path, ROOT)
    parts = relative.split(os.sep)
    if len(parts) == 1:
        return None if parts[0] in OUTSIDE else -1
    return LAYERS.get(parts[0], -1)


def main():
    files = []
    for directory, _, names in os.walk(ROOT):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                files.append((path, strip_comments_and_strings(open(path, encoding="utf-8").read())))

    problems = []
    for name in sorted(os.listdir(ENGINE)):
        if not name.endswith(".swift"):
            continue
        for number, line in enumerate(open(os.path.join(ENGINE, name), encoding="utf-8"), start=1):
            match = re.match(r"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:\w+\s+)?(\w+)", line)
            if match and match.group(1) not in ENGINE_IMPORTS:
                problems.append(f"Sources/TetherEngine/{name}:{number}: the engine imports `{match.group(1)}`")
    # Atomics and memory orderings: the engine's alone, in every library target.
    sources = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
    for directory, _, names in os.walk(sources):
        if os.path.abspath(directory).startswith(os.path.abspath(ENGINE)):
            continue
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            code = strip_comments_and_strings(open(path, encoding="utf-8").read())
            for number, line in enumerate(code.split("\n"), start=1):
                if ATOMICS.search(line):
                    problems.append(
                        f"Sources/{os.path.relpath(path, sources)}:{number}: an `Atomic` or a memory ordering "
                        "outside the engine (use or add a named primitive in Sources/TetherEngine)"
                    )
    declared = {}  # name -> set of layers that declare it
    for path, code in files:
        layer = layer_of(path)
        if layer == -1:
            problems.append(f"{os.path.relpath(path, ROOT)}: in no layer of the table (add its folder)")
            continue
        if layer is None:
            continue
        for line in code.split("\n"):
            for pattern in (TYPE_DECL, TOP_DECL, MEMBER_FUNC):
                match = pattern.match(line)
                if match and match.group(1) not in COMMON_MEMBERS:
                    declared.setdefault(match.group(1), set()).add(layer)

    # The engine's names are layer 0: any folder may use them.
    for name in os.listdir(ENGINE):
        if name.endswith(".swift"):
            code = strip_comments_and_strings(open(os.path.join(ENGINE, name), encoding="utf-8").read())
            for line in code.split("\n"):
                for pattern in (TYPE_DECL, TOP_DECL, MEMBER_FUNC):
                    match = pattern.match(line)
                    if match and match.group(1) not in COMMON_MEMBERS:
                        declared.setdefault(match.group(1), set()).add(0)

    if "--list" in sys.argv:
        for folder, layer in sorted([("TetherEngine", 0)] + list(LAYERS.items()), key=lambda item: item[1]):
            count = sum(1 for layers in declared.values() if min(layers) == layer)
            print(f"{layer}  {folder:22} {count} names first declared here")

    for path, code in files:
        layer = layer_of(path)
        if layer is None or layer == -1:
            continue
        seen = set()
        for number, line in enumerate(code.split("\n"), start=1):
            for name in IDENTIFIER.findall(line):
                layers = declared.get(name)
                if not layers or min(layers) <= layer or (name, number) in seen:
                    continue
                seen.add((name, number))
                above = ", ".join(folder for folder, value in LAYERS.items() if value == min(layers))
                problems.append(
                    f"Sources/Observable/{os.path.relpath(path, ROOT)}:{number}: layer {layer} names "
                    f"`{name}`, declared in layer {min(layers)} ({above})"
                )

    if problems:
        print("\n".join(problems))
        print(
            f"\n{len(problems)} problem(s): a reference up the layer table of CONTRIBUTING.md (move the name "
            "down, or the code that uses it up), or an atomic outside the engine.",
            file=sys.stderr,
        )
        return 1
    print(f"layers: no reference goes up ({len(files)} files of Sources/Observable)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
