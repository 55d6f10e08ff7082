"""Benchmark `temo fidelity` on a full-size run: 580 test tasks x 2 arms x 3 trials = 3,480 cells.

    python benchmarks/bench_fidelity.py                 # builds the run once (offline, oracle + scripted), then times
    python benchmarks/bench_fidelity.py --run runs/X    # time an existing run instead
    python benchmarks/bench_fidelity.py --cores 2       # pin to N cores (Linux; default 2, the goal's setting)

The run is built with `temo run --arms emotion,neutral --trials 3` into --cache (default
$TMPDIR/temo-bench-fidelity) and reused (resumed) on the next call. Times, on the pinned cores:
reading the cell records, mapping every user turn and conversation (distinct texts once), the
statistics (shuffled baselines, breakdowns, bootstrap), and the whole CLI call. Goal: the CLI
under 30 s for 3,480 cells on 2 cores. Prints results; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_S = 30.0


def pin(cores: int) -> str:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
        os.environ[var] = str(cores)
    if hasattr(os, "sched_setaffinity"):
        avail = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(avail[:cores]))
        return f"{min(cores, len(avail))} of {len(avail)} cores"
    return "not pinned (no sched_setaffinity)"


def cpu(children_only: bool = False) -> float:
    """CPU seconds (user + system) of this process and its finished children, or the children only."""
    import resource
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = kids.ru_utime + kids.ru_stime
    if not children_only:
        me = resource.getrusage(resource.RUSAGE_SELF)
        total += me.ru_utime + me.ru_stime
    return total


def temo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "temo.cli.app", *args], capture_output=True, text=True)


def build_run(path: Path) -> float:
    args = ["run", "--arms", "emotion,neutral", "--trials", "3", "--out", str(path), "-q"]
    if (path / "config.json").exists():
        args.append("--resume")
    t0 = time.perf_counter()
    res = temo(*args)
    if res.returncode != 0:
        sys.exit(f"temo run failed: {res.stderr.strip()[-400:]}")
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", type=Path, help="an existing run directory (default: build the full run)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "temo-bench-fidelity")
    ap.add_argument("--cores", type=int, default=2)
    args = ap.parse_args()
    pinned = pin(args.cores)

    run = args.run
    if run is None:
        run = args.cache
        print(f"building the run in {run} (temo run --arms emotion,neutral --trials 3) ...", flush=True)
        print(f"  temo run: {build_run(run):.1f} s")

    from temo.emotion import get_mapper
    from temo.metrics.fidelity import cells_from_run, fidelity_of_mapped, map_cells
    from temo.metrics.fidelity_mapping import default_workers

    c0, t0 = cpu(), time.perf_counter()
    cells = cells_from_run(run)
    c1, t1 = cpu(), time.perf_counter()
    mapper = get_mapper()
    mapper.map_many(["warm up"])
    c2, t2 = cpu(), time.perf_counter()
    texts = [t for c in cells for t in c.turns] + [" ".join(c.turns) for c in cells]
    arms = map_cells(cells, mapper)
    c3, t3 = cpu(), time.perf_counter()
    report = fidelity_of_mapped(arms)
    c4, t4 = cpu(), time.perf_counter()
    cli_c0, cli0 = cpu(children_only=True), time.perf_counter()
    res = temo("fidelity", str(run), "--json", "--no-save")
    cli, cli_cpu = time.perf_counter() - cli0, cpu(children_only=True) - cli_c0
    if res.returncode != 0:
        sys.exit(f"temo fidelity failed: {res.stderr.strip()}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")

    print(f"run {run}: {len(cells)} cells with user turns ({report['cells']} emotion-arm), {pinned}, "
          f"{default_workers()} mapping process(es), load average {load:.1f}")
    print(f"  texts to map: {len(texts)} ({len(set(texts))} distinct)")
    print("  stage               wall s   CPU s (all processes)")
    print(f"  read cells          {t1 - t0:6.2f}  {c1 - c0:6.2f}")
    print(f"  load emotion model  {t2 - t1:6.2f}  {c2 - c1:6.2f}")
    print(f"  map turns + convs   {t3 - t2:6.2f}  {c3 - c2:6.2f}  ({len(set(texts)) / max(t3 - t2, 1e-9):.0f} distinct texts/s)")
    print(f"  statistics          {t4 - t3:6.2f}  {c4 - c3:6.2f}  (100 shuffles, 1,000 bootstrap resamples, both arms)")
    print(f"  CLI `temo fidelity RUN --json --no-save`: {cli:.2f} s wall, {cli_cpu:.2f} s CPU "
          f"(goal < {GOAL_S:.0f} s: {'met' if cli < GOAL_S else 'NOT met'}; a load average above 2 inflates wall time)")
    a, b = report["agreement"], report["baseline"]
    print("  agreement (chance): " + ", ".join(f"{d} {a[d]:.2f} ({b[d]:.2f})" for d in a))


if __name__ == "__main__":
    main()
