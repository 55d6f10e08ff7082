"""How long Tracer takes to build one domain's test and training tasks offline (goal: under 60 s per
domain on 2 cores), and where the time goes: sampling, grounding + instruct + verify, feel + condition.

    python benchmarks/bench_tracer.py                 # retail and airline, the paper's counts
    python benchmarks/bench_tracer.py --domains retail --train 200

Stage shares are measured in the same run, side by side, so a noisy machine moves them together.
"""
from __future__ import annotations

import argparse
import time

from temo.domains import get_domain
from temo.tracer import build as B
from temo.tracer import condition as C
from temo.tracer import sample as S


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--domains", default="retail,airline")
    ap.add_argument("--train", type=int, default=None, help="training tasks (default: the paper's count)")
    args = ap.parse_args()
    timers = {"sample": 0.0, "condition": 0.0}
    real_sample, real_condition = S.sample, C.condition

    def timed(name, fn):
        def wrap(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                timers[name] += time.perf_counter() - t
        return wrap

    B.sample = timed("sample", real_sample)
    B.condition = timed("condition", real_condition)
    from temo.emotion import get_mapper

    get_mapper()  # load the emotion model once, outside the timings
    print(f"{'domain':<12}{'tasks':>7}{'total s':>9}{'sample':>8}{'ground+verify':>15}{'feel+map':>10}  goal <60 s")
    for name in args.domains.split(","):
        dom = get_domain(name)
        counts = B.counts_for(name)
        if args.train is not None:
            counts["train"] = args.train
        timers.update(sample=0.0, condition=0.0)
        t = time.perf_counter()
        B.build(dom, 0, counts)
        total = time.perf_counter() - t
        rest = total - timers["sample"] - timers["condition"]
        print(f"{name:<12}{sum(counts.values()):>7}{total:>9.1f}{timers['sample'] / total:>8.0%}{rest / total:>15.0%}"
              f"{timers['condition'] / total:>10.0%}  {'ok' if total < 60 else 'over'}")


if __name__ == "__main__":
    main()
