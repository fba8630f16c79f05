"""Repeated looks: the geometric look grid and the alpha-spending thresholds."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.surveillance.looks import Looks, grid_point, spent


def test_grid_points() -> None:
    """+50% from 5: 5, ceil(7.5) = 8, 12, 18, 27, ceil(40.5) = 41; from 3: 3, 5, 8, 12;
    from 1 the grid still moves on by at least one: 1, 2, 3, 5."""
    assert [grid_point(5, 50, j) for j in range(6)] == [5, 8, 12, 18, 27, 41]
    assert [grid_point(3, 50, j) for j in range(4)] == [3, 5, 8, 12]
    assert [grid_point(1, 50, j) for j in range(4)] == [1, 2, 3, 5]
    assert [grid_point(30, 50, j) for j in range(3)] == [30, 45, 68]


def test_thresholds() -> None:
    """alpha * 6 / (pi^2 (j+1)^2): 0.60793, 0.15198, 0.067547 of alpha."""
    assert spent(1e-6, 0) == pytest.approx(6.0793e-7, rel=1e-4)
    assert spent(1e-6, 1) == pytest.approx(1.5198e-7, rel=1e-4)
    assert spent(1e-6, 2) == pytest.approx(6.7547e-8, rel=1e-4)


@given(st.floats(1e-12, 0.5), st.integers(1, 2000))
def test_all_looks_together_spend_at_most_alpha(alpha: float, looks: int) -> None:
    """The union bound: however many looks an instance gets, their thresholds sum to
    less than alpha."""
    assert sum(spent(alpha, j) for j in range(looks)) < alpha * (1 + 1e-12)


def test_the_budget_is_spent_in_full() -> None:
    """The infinite sum is alpha exactly: 200,000 looks leave 1 - 6/pi^2 * (sum of 1/k^2
    to 200,000) = 6 / (pi^2 * 200,000) ~ 3e-6 of it."""
    assert math.isclose(sum(spent(1.0, j) for j in range(200_000)), 1.0, rel_tol=1e-5)


def test_a_look_per_grid_point_and_a_jump_is_one_look() -> None:
    """Counts 4 (below min_count 5), 5 (look 0), 6, 7 (no new point), 8 (look 1), then
    30 in one jump past 12, 18 and 27: one look, index 4; 30 again: none."""
    looks = Looks(50)
    taken = [looks.look("x", 5, count) for count in (4, 5, 6, 7, 8, 30, 30)]
    assert taken == [None, 0, None, None, 1, 4, None]


def test_instances_have_their_own_looks() -> None:
    looks = Looks(50)
    assert (looks.look("a", 5, 5), looks.look("b", 5, 5)) == (0, 0)


def test_growth_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Looks(0)
