"""Run the benchmarks and print every figure as one table.

Each module ``bench/bench_*.py`` defines ``run(quick: bool) -> list[Figure]``. ``--quick`` shrinks
the work for a smoke test (CI runs it); the figures quoted in closing notes come from a full run.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time

from bench.common import Figure, print_table


def _modules() -> list[str]:
    import bench

    return sorted(
        m.name[len("bench_") :]
        for m in pkgutil.iter_modules(bench.__path__)
        if m.name.startswith("bench_")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all: {_modules()})")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke test")
    args = parser.parse_args(argv)
    names = args.names or _modules()
    unknown = set(names) - set(_modules())
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(sorted(unknown))}")
    figures: list[Figure] = []
    for name in names:
        module = importlib.import_module(f"bench.bench_{name}")
        started = time.perf_counter()
        print(f"running {name} ...", file=sys.stderr, flush=True)
        figures.extend(module.run(quick=args.quick))
        print(f"  {name} done in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print_table(figures)
    return 0 if all(f.ok is not False for f in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
