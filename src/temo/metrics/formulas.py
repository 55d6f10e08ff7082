"""The per-task estimators of the paper and of tau-bench.

For one task with ``n`` completed trials of which ``c`` succeeded:

* Pass^k (pass-hat-k) = C(c, k) / C(n, k): the chance that k trials drawn without replacement
  from the n **all** succeed (consistency).
* pass@k = 1 - C(n - c, k) / C(n, k): the chance that **at least one** of them succeeds.
* Avg = c / n (equal to Pass^1 and pass@1).

Both estimators need ``n >= k``; a task with fewer completed trials has no estimate for that k and
is left out of the mean (callers count how many were left out).
"""
from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import Iterable, Optional, Union

Number = Union[int, float, Fraction]


def _check(n: int, c: int, k: int) -> None:
    for name, value in (("n", n), ("c", c), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name} must be an int, got {value!r}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if not 0 <= c <= n:
        raise ValueError(f"c must be between 0 and n={n}, got {c}")
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    if k > n:
        raise ValueError(f"k={k} needs at least k completed trials, the task has n={n}")


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Pass^k of one task: C(c, k) / C(n, k). Raises ValueError when n < k."""
    return float(pass_hat_k_exact(n, c, k))


def pass_hat_k_exact(n: int, c: int, k: int) -> Fraction:
    """Pass^k of one task as an exact fraction."""
    _check(n, c, k)
    return Fraction(comb(c, k), comb(n, k))


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k of one task: 1 - C(n - c, k) / C(n, k). Raises ValueError when n < k."""
    return float(pass_at_k_exact(n, c, k))


def pass_at_k_exact(n: int, c: int, k: int) -> Fraction:
    """pass@k of one task as an exact fraction."""
    _check(n, c, k)
    return 1 - Fraction(comb(n - c, k), comb(n, k))


def success_rate(n: int, c: int) -> float:
    """Avg of one task: c / n (n >= 1)."""
    _check(n, c, 1)
    return c / n


def success_rate_exact(n: int, c: int) -> Fraction:
    _check(n, c, 1)
    return Fraction(c, n)


def mean(values: Iterable[Optional[Number]]) -> Optional[float]:
    """Mean of the values that are not None, as a float; None when there are none.

    Ints and Fractions are summed exactly (so e.g. a paired difference of equal rates is exactly 0).
    """
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    if all(isinstance(v, (int, Fraction)) for v in vals):
        return float(sum(vals, Fraction(0)) / len(vals))
    return math.fsum(float(v) for v in vals) / len(vals)


def _mean_over_tasks(counts: Iterable[tuple[int, int]], k: int, metric) -> tuple[Optional[float], int]:
    vals, left_out = [], 0
    for n, c in counts:
        if n == 0:
            continue
        if n < k:
            left_out += 1
            continue
        vals.append(metric(n, c, k))
    return mean(vals), left_out


def mean_pass_hat_k(counts: Iterable[tuple[int, int]], k: int) -> tuple[Optional[float], int]:
    """Mean Pass^k over tasks given as (n, c); returns (mean or None, number of tasks left out with n < k).

    Tasks with n == 0 (no completed trial at all) are neither averaged nor counted as left out:
    they are missing cells, reported separately.
    """
    return _mean_over_tasks(counts, k, pass_hat_k_exact)


def mean_pass_at_k(counts: Iterable[tuple[int, int]], k: int) -> tuple[Optional[float], int]:
    """Mean pass@k over tasks given as (n, c); same conventions as :func:`mean_pass_hat_k`."""
    return _mean_over_tasks(counts, k, pass_at_k_exact)
