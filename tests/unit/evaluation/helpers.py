"""Shared helpers for the evaluation tests: random hands and order comparison."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt


def random_hands(
    rng: np.random.Generator, deck: Sequence[int], count: int, size: int
) -> npt.NDArray[np.uint8]:
    """``count`` hands of ``size`` distinct cards drawn uniformly from ``deck``."""
    pool = np.asarray(deck, dtype=np.uint8)
    order = rng.permuted(np.tile(np.arange(len(pool)), (count, 1)), axis=1)[:, :size]
    hands: npt.NDArray[np.uint8] = pool[order]
    return hands


def sign(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return np.sign(values).astype(np.int64)


def assert_same_order(mine: Sequence[int], peer: Sequence[int]) -> None:
    """Both sequences order the same hands identically, over ALL pairs: sorted by
    ``mine``, ``peer`` must be constant within ties and strictly increasing across them
    (``peer``: higher is better)."""
    mine_arr = np.asarray(mine, dtype=np.int64)
    peer_arr = np.asarray(peer, dtype=np.int64)
    order = np.lexsort((peer_arr, mine_arr))
    m, p = mine_arr[order], peer_arr[order]
    same = m[1:] == m[:-1]
    assert (p[1:][same] == p[:-1][same]).all(), "a tie of ours is not a tie of the peer"
    assert (p[1:][~same] > p[:-1][~same]).all(), "an order of ours is not the peer's"


def assert_pairs_agree(
    mine: Sequence[int], peer: Sequence[int], rng: np.random.Generator, pairs: int
) -> None:
    """``pairs`` random pairs (i, j) of hands compare the same way (peer: higher better)."""
    mine_arr = np.asarray(mine, dtype=np.int64)
    peer_arr = np.asarray(peer, dtype=np.int64)
    i = rng.integers(0, len(mine_arr), pairs)
    j = rng.integers(0, len(mine_arr), pairs)
    assert (sign(mine_arr[i] - mine_arr[j]) == sign(peer_arr[i] - peer_arr[j])).all()
