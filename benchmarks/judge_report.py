"""Time the offline judge, the analyses and the HTML report on a paper-sized run (3,480 cells).

    python benchmarks/judge_report.py                       # makes the run first (all domains, 3 trials, both arms)
    python benchmarks/judge_report.py --run runs/my-run     # times an existing run
    python benchmarks/judge_report.py --agent probe:early-stop --keep /tmp/bench-run

Goal: judge + report under 10 s offline. Prints one JSON object with the timings.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", type=Path, help="an existing run directory (default: make one)")
    ap.add_argument("--agent", default="probe:wrong-argument", help="agent of the run made (a probe fails most cells)")
    ap.add_argument("--keep", type=Path, help="where to make the run (kept afterwards)")
    args = ap.parse_args()

    from temo.analysis.analyses import analyze
    from temo.analysis.cells import load_run
    from temo.analysis.judging import judge_offline, summarize_verdicts
    from temo.analysis.report import build_report

    tmp = Path(tempfile.mkdtemp(prefix="temo-bench-"))
    run_dir = args.run
    timings: dict[str, float] = {}
    if run_dir is None:
        run_dir = args.keep or tmp / "run"
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "temo.cli.app", "run", "--trials", "3", "--arms", "emotion,neutral",
                        "--agent", args.agent, "--out", str(run_dir), "-q"], check=True, stdout=subprocess.DEVNULL)
        timings["make_run_s"] = time.perf_counter() - t
    shutil.rmtree(run_dir / "judge", ignore_errors=True)

    t = time.perf_counter()
    run = load_run(run_dir)
    timings["load_s"] = time.perf_counter() - t
    t = time.perf_counter()
    verdicts = judge_offline(run)
    summary = summarize_verdicts(run, verdicts)
    timings["judge_s"] = time.perf_counter() - t
    t = time.perf_counter()
    judge_offline(run)
    timings["judge_resumed_s"] = time.perf_counter() - t
    t = time.perf_counter()
    analyze(run)
    timings["analyze_s"] = time.perf_counter() - t
    t = time.perf_counter()
    written = build_report([run_dir], tmp / "report.html")
    timings["report_s"] = time.perf_counter() - t
    print(json.dumps({"run": str(run_dir), "cells": len(run.cells), "failed": summary["failed"],
                      "by_fault": {k: v for k, v in summary["by_fault"].items() if v},
                      "report_mb": round(written["bytes"] / 1e6, 1), "viewer_cells": written["viewer_cells"],
                      **{k: round(v, 2) for k, v in timings.items()}}, indent=2))
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
