#!/usr/bin/env python3
"""Run the runnable examples of the manual (docs/*.md) and compare output.

The markup is documented in docs/design.md "Runnable examples": a fenced
block whose info string is exactly `console` is runnable. In it, a line
starting with `$ ` is a command; lines right after it starting with `> `
continue it (a here-document); the lines up to the next command or the end
of the block are its expected output, stdout and stderr together, compared
exactly. A line that is exactly `...` matches any number of lines (none
included). The exit status is not compared: show it with `; echo $?`.

Every block runs in a fresh folder holding a link to each top-level entry
of the source tree (so `conf/tiny.graphml` works and files a command
writes land in the folder, shared by the block's later commands) and a
link `build` to the build tree, with the build tree's `bin/` first on
PATH. Every page must have a runnable example, and its first fenced block
must be one (each page starts with a worked example).

usage: run_examples.py --source DIR --build DIR [--docs DIR] [PAGE.md ...]
Standard library only.
"""
import argparse
import difflib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

FENCE = "```"
WILDCARD = "..."
COMMAND_TIMEOUT_S = 120


class Step:
    def __init__(self, line, command):
        self.line = line          # line number of the `$ ` line
        self.command = command
        self.expected = []


class Block:
    def __init__(self, line):
        self.line = line          # line number of the opening fence
        self.steps = []


def parse_page(path):
    """(runnable blocks, whether the first fenced block is runnable)."""
    blocks, first_runnable, seen_fence = [], None, False
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        text = lines[i]
        if not text.startswith(FENCE):
            i += 1
            continue
        info = text[len(FENCE):].strip()
        runnable = info == "console"
        if not seen_fence:
            seen_fence, first_runnable = True, runnable
        i += 1
        body_start = i
        while i < len(lines) and lines[i].strip() != FENCE:
            i += 1
        if runnable:
            blocks.append(parse_block(lines[body_start:i], body_start))
        i += 1
    return blocks, bool(first_runnable)


def parse_block(body, first_index):
    block = Block(first_index)
    step, continuing = None, False
    for offset, text in enumerate(body):
        number = first_index + offset + 1
        if text.startswith("$ "):
            step = Step(number, text[2:])
            block.steps.append(step)
            continuing = True
        elif continuing and (text.startswith("> ") or text == ">"):
            step.command += "\n" + text[2:]
        elif step is None:
            raise ValueError(f"line {number}: output before the first `$ ` command")
        else:
            continuing = False
            step.expected.append(text)
    return block


def matches(expected, actual):
    """Line-by-line equality where a `...` line matches zero or more lines."""
    memo = {}

    def match(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            result = a == len(actual)
        elif expected[e] == WILDCARD:
            result = any(match(e + 1, k) for k in range(a, len(actual) + 1))
        else:
            result = a < len(actual) and expected[e] == actual[a] and match(e + 1, a + 1)
        memo[key] = result
        return result

    return match(0, 0)


def make_workdir(source, build):
    work = pathlib.Path(tempfile.mkdtemp(prefix="rq-docs-"))
    for entry in source.iterdir():
        if entry.name == ".git" or entry.name.startswith("build"):
            continue
        (work / entry.name).symlink_to(entry)
    (work / "build").symlink_to(build)
    return work


def run_block(page, block, source, build, env):
    work = make_workdir(source, build)
    failures = 0
    try:
        for step in block.steps:
            done = subprocess.run(["sh", "-c", step.command], cwd=work, env=env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=COMMAND_TIMEOUT_S)
            actual = done.stdout.decode("utf-8", "replace").split("\n")
            if actual and actual[-1] == "":
                actual.pop()
            expected = list(step.expected)
            while expected and expected[-1] == "":
                expected.pop()
            if not matches(expected, actual):
                failures += 1
                print(f"FAIL {page}:{step.line}: output differs: $ {step.command.splitlines()[0]}")
                sys.stdout.writelines(difflib.unified_diff(
                    [l + "\n" for l in expected], [l + "\n" for l in actual],
                    "expected", "actual"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", required=True, type=pathlib.Path)
    parser.add_argument("--build", required=True, type=pathlib.Path)
    parser.add_argument("--docs", type=pathlib.Path, help="default: SOURCE/docs")
    parser.add_argument("pages", nargs="*", type=pathlib.Path)
    args = parser.parse_args()
    source, build = args.source.resolve(), args.build.resolve()
    docs = (args.docs or source / "docs").resolve()
    pages = [p.resolve() for p in args.pages] or sorted(docs.glob("*.md"))
    if not pages:
        print(f"FAIL {docs}: no pages")
        return 1
    env = dict(os.environ)
    env["PATH"] = f"{build / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("LC_ALL", "C.UTF-8")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    failures, examples = 0, 0
    for page in pages:
        name = os.path.relpath(page, source)
        try:
            blocks, first_runnable = parse_page(page)
        except ValueError as e:
            print(f"FAIL {name}: {e}")
            failures += 1
            continue
        if not blocks:
            print(f"FAIL {name}: has no runnable example (a ```console block)")
            failures += 1
            continue
        if not first_runnable:
            print(f"FAIL {name}: its first code block is not a runnable example (```console)")
            failures += 1
        for block in blocks:
            examples += len(block.steps)
            failures += run_block(name, block, source, build, env)
    print(f"{examples} example commands on {len(pages)} pages, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
