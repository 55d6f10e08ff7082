"""Pass^k and pass@k against brute force over all k-subsets of the trials."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from temo.metrics import mean, mean_pass_hat_k, pass_at_k, pass_hat_k, success_rate


@st.composite
def ncks(draw):
    n = draw(st.integers(min_value=1, max_value=9))
    c = draw(st.integers(min_value=0, max_value=n))
    k = draw(st.integers(min_value=1, max_value=n))
    return n, c, k


def brute(n: int, c: int, k: int) -> tuple[Fraction, Fraction]:
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    all_ok = sum(all(outcomes[i] for i in s) for s in subsets)
    any_ok = sum(any(outcomes[i] for i in s) for s in subsets)
    return Fraction(all_ok, len(subsets)), Fraction(any_ok, len(subsets))


@settings(max_examples=300, deadline=None)
@given(ncks())
def test_pass_hat_and_pass_at_match_brute_force(nck):
    n, c, k = nck
    hat, at = brute(n, c, k)
    assert pass_hat_k(n, c, k) == pytest.approx(float(hat), abs=1e-12)
    assert pass_at_k(n, c, k) == pytest.approx(float(at), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(ncks())
def test_k1_is_the_success_rate_and_bounds(nck):
    n, c, k = nck
    assert pass_hat_k(n, c, 1) == pass_at_k(n, c, 1) == success_rate(n, c) == c / n
    assert 0.0 <= pass_hat_k(n, c, k) <= pass_at_k(n, c, k) <= 1.0
    if k > 1:  # consistency can only fall as k grows, coverage can only rise
        assert pass_hat_k(n, c, k) <= pass_hat_k(n, c, k - 1)
        assert pass_at_k(n, c, k) >= pass_at_k(n, c, k - 1)


def test_known_values():
    assert pass_hat_k(3, 2, 2) == pytest.approx(1 / 3)
    assert pass_hat_k(3, 3, 3) == 1.0
    assert pass_hat_k(3, 2, 3) == 0.0
    assert pass_at_k(3, 1, 2) == pytest.approx(2 / 3)
    assert pass_at_k(3, 0, 3) == 0.0


@pytest.mark.parametrize("n,c,k", [(2, 1, 3), (0, 0, 1), (3, 4, 1), (3, -1, 1), (3, 1, 0)])
def test_invalid_arguments_raise(n, c, k):
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_mean_over_tasks_leaves_out_short_tasks_and_counts_them():
    value, left_out = mean_pass_hat_k([(3, 3), (3, 0), (2, 2), (0, 0)], 3)
    assert value == 0.5 and left_out == 1  # (0, 0): no result at all, a missing task, not "left out"
    value, left_out = mean_pass_hat_k([(2, 2)], 3)
    assert value is None and left_out == 1
    assert mean([]) is None and mean([None, 1, 0]) == 0.5


def test_metrics_layer_is_pure():
    """temo.metrics must not import the harness (or the CLI): it works on records alone."""
    import subprocess
    import sys

    code = ("import sys, temo.metrics; "
            "bad = [m for m in sys.modules if m.startswith(('temo.harness', 'temo.cli'))]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
