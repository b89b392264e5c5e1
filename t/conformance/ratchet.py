#!/usr/bin/env python3
"""Conformance ratchet: every case id listed in passing.txt must still pass.

Runs ../shared/conformance/run.py on exactly the listed cases and fails if
any of them fails. Exits 77 (ctest "skipped") when ../shared is absent.
With --update, appends newly passing case ids to the list instead (the
list only grows).
"""
import argparse
import os
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--passing", required=True)
    ap.add_argument("--update", action="store_true",
                    help="run the whole suite and add newly passing ids")
    ap.add_argument("--jobs", default="2")
    args = ap.parse_args()

    conf = os.path.join(args.shared, "conformance")
    runner = os.path.join(conf, "run.py")
    if not os.path.isfile(runner):
        print("ratchet: %s not found, skipping" % runner)
        return 77

    with open(args.passing) as f:
        listed = [l.strip() for l in f if l.strip() and not l.startswith("#")]

    cmd = [sys.executable, runner, "--bin", args.bin,
           "--data", os.path.join(conf, "data"),
           "--manifest", os.path.join(conf, "manifest.json"),
           "--jobs", args.jobs]
    if not args.update:
        if not listed:
            print("ratchet: no passing cases listed yet")
            return 0
        cmd += ["--only", "^(" + "|".join(re.escape(i) for i in listed) + ")$"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, universal_newlines=True)
    out = proc.stdout
    passed = set(re.findall(r"^PASS\s+(\S+)", out, re.M))
    failed = sorted(set(listed) - passed)
    print(out.strip().splitlines()[-1] if out.strip() else "(no output)")
    if args.update:
        new = sorted(passed - set(listed))
        with open(args.passing, "a") as f:
            for i in new:
                f.write(i + "\n")
        print("ratchet: %d newly passing case(s) added" % len(new))
        failed = sorted(set(listed) - passed)
    if failed:
        print("ratchet: %d listed case(s) no longer pass:" % len(failed))
        for i in failed:
            print("  " + i)
        return 1
    print("ratchet: all %d listed cases pass" % len(listed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
