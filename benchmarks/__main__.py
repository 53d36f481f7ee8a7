"""Run every ``benchmarks/bench_*.py`` (or the areas named on the command line).

Each module has ``main(argv: list[str]) -> dict``; results are printed as JSON and the numbers
are copied by hand into ``docs/benchmarks.md`` with the date and machine. Options after one
named area go to its ``main`` (``python -m benchmarks heldout --first 1000 --scenes 60``).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import time

import benchmarks


def run(argv: list[str]) -> int:
    cut = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    areas, options = argv[:cut], argv[cut:]
    names = sorted(
        m.name.removeprefix("bench_")
        for m in pkgutil.iter_modules(benchmarks.__path__)
        if m.name.startswith("bench_")
    )
    chosen = [a for a in names if not areas or a in areas]
    unknown = [a for a in areas if a not in names]
    if unknown:
        print(
            f"benchmarks: unknown area(s) {', '.join(unknown)}; known: {', '.join(names)}",
            file=sys.stderr,
        )
        return 2
    if options and len(chosen) != 1:
        print("benchmarks: options need exactly one area before them", file=sys.stderr)
        return 2
    results = {}
    for area in chosen:
        module = importlib.import_module(f"benchmarks.bench_{area}")
        t0 = time.perf_counter()
        results[area] = module.main(options)
        print(f"== {area}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        print(json.dumps({area: results[area]}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
