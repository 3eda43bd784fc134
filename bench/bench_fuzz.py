"""Fuzzing at scale (issue: integrity): the notation parser, the ID decoders and every command
option, at least 10,000 generated inputs each (--quick: 300). Runs the hypothesis tests with a
larger example count and reads hypothesis's own statistics."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from bench.common import ROOT, Figure, check

TESTS = ["tests/test_fuzz.py", "tests/bot/test_fuzz_service.py"]


def run(quick: bool = False) -> list[Figure]:
    examples = 300 if quick else 10_000
    env = {**os.environ, "FUZZ_EXAMPLES": str(examples)}
    start = time.perf_counter()
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--hypothesis-show-statistics",
            *TESTS,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    figures = [
        check("fuzz", "hypothesis tests passed", float(proc.returncode == 0), "bool", at_least=1.0)
    ]
    # "tests/x.py::test_name:" ... "- 10000 passing, 0 failing, and 3 invalid test cases"
    for name, count in re.findall(r"(\S+::test_\w+):.*?- (\d+) passing, ", proc.stdout, flags=re.S):
        figures.append(
            check(
                "fuzz",
                name.split("::")[-1],
                float(count),
                "inputs",
                at_least=examples if not quick else 1,
            )
        )
    figures.append(Figure("fuzz", "total time", elapsed, "s"))
    if proc.returncode:
        print(proc.stdout[-3000:], file=sys.stderr)
    return figures
