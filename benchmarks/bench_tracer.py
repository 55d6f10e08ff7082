"""How long Tracer takes to build one domain's test and training tasks offline (goal: under 60 s per
domain on 2 cores), and where the time goes: sampling, grounding + instruct + verify, feel + condition.

    python benchmarks/bench_tracer.py                 # retail and airline, the paper's counts
    python benchmarks/bench_tracer.py --domains retail --train 200
    python benchmarks/bench_tracer.py --domains airline --train 300 --skip-ratio   # what can_serve saves

With ``--skip-ratio`` each domain whose grounder has a ``can_serve`` check is also built without it,
right after, and the two times are given as a ratio; the two builds must make the same tasks.

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
    ap.add_argument("--skip-ratio", action="store_true",
                    help="also build without the grounder's can_serve check and print the time ratio")
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
        if args.skip_ratio:
            skip_ratio(dom, counts)


def skip_ratio(dom, counts: dict) -> None:
    """Build again with and without ``can_serve``, side by side, and compare time and tasks."""
    from temo.tracer.ground import load_grounder

    grounder = load_grounder(dom)
    if grounder.can_serve is None:
        print(f"  {dom.name}: no can_serve check")
        return
    check, seconds, made = grounder.can_serve, {}, {}
    for label, fn in (("with", check), ("without", None)):
        grounder.can_serve = fn
        t = time.perf_counter()
        out = B.build(dom, 0, counts)
        seconds[label] = time.perf_counter() - t
        made[label] = [B.task_bytes(tasks, split) for split, tasks in out["tasks"].items()]
    grounder.can_serve = check
    same = made["with"] == made["without"]
    print(f"  {dom.name}: without can_serve {seconds['without']:.1f} s, with {seconds['with']:.1f} s: "
          f"{seconds['without'] / seconds['with']:.2f}x; same tasks: {same}")


if __name__ == "__main__":
    main()
