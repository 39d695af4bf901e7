"""The batch evaluator: ranks for a numpy array of five-card hands, in a numba kernel.

Same arithmetic as :func:`syndicate.poker.evaluate` (sum of rank weights indexes a table of
ranks, a separate table for flushes), compiled with ``parallel=True`` so both cores share
big batches. ``cache=True`` keeps the compiled kernel on disk: the first call in a fresh
checkout compiles for about a second per input dtype, later processes load it.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...core.cards import DECK, CardError
from ..evaluator import _FLUSH, _KEY_SIZE, _PLAIN, CATEGORIES, RANK_WEIGHTS, VALUES

#: rank 1..7462 → category index 0 (Royal Flush) .. 9 (High Card).
RANK_CATEGORY = np.array([0] + [v.category_index for v in VALUES], dtype=np.int8)


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    table = np.zeros(2 * _KEY_SIZE, dtype=np.int16)
    for key, v in enumerate(_PLAIN):
        if v is not None:
            table[key] = v.rank
    for key, v in enumerate(_FLUSH):
        if v is not None:
            table[_KEY_SIZE + key] = v.rank
    weight = np.array([RANK_WEIGHTS[c.rank - 2] for c in DECK], dtype=np.int32)
    suit = np.array([c.index & 3 for c in DECK], dtype=np.int32)
    return table, weight, suit


_TABLE, _WEIGHT, _SUIT = _tables()


@njit(parallel=True, cache=True, nogil=True)
def _rank_kernel(hands, table, weight, suit, key_size, out):  # type: ignore[no-untyped-def]
    n = hands.shape[0]
    bad = 0
    for i in prange(n):
        c0 = np.int64(hands[i, 0])
        c1 = np.int64(hands[i, 1])
        c2 = np.int64(hands[i, 2])
        c3 = np.int64(hands[i, 3])
        c4 = np.int64(hands[i, 4])
        lo = min(min(min(c0, c1), min(c2, c3)), c4)
        hi = max(max(max(c0, c1), max(c2, c3)), c4)
        dup = (c0 == c1) | (c0 == c2) | (c0 == c3) | (c0 == c4) | (c1 == c2) | (c1 == c3) \
            | (c1 == c4) | (c2 == c3) | (c2 == c4) | (c3 == c4)
        if lo < 0 or hi > 51 or dup:
            out[i] = 0
            bad += 1
        else:
            k = weight[c0] + weight[c1] + weight[c2] + weight[c3] + weight[c4]
            s = suit[c0]
            if suit[c1] == s and suit[c2] == s and suit[c3] == s and suit[c4] == s:
                k += key_size
            out[i] = table[k]
    return bad


def evaluate_batch(hands: np.ndarray) -> np.ndarray:
    """Ranks (``int16``, 1 = royal flush … 7,462) for an ``(n, 5)`` integer array of card indices.

    Any integer dtype works; ``uint8`` is the most compact and the fastest to stream. A row
    with an index outside 0..51 or a card twice raises :class:`CardError` naming the row.
    """
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] != 5:
        raise CardError(
            f"evaluate_batch takes an (n, 5) array of card indices, got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu":
        raise CardError(f"card indices must be integers, got dtype {arr.dtype}")
    arr = np.ascontiguousarray(arr)
    out = np.empty(arr.shape[0], dtype=np.int16)
    bad = _rank_kernel(arr, _TABLE, _WEIGHT, _SUIT, _KEY_SIZE, out)
    if bad:
        row = int(np.flatnonzero(out == 0)[0])
        raise CardError(
            f"row {row} of {arr.shape[0]} is not five distinct cards 0..51: {arr[row].tolist()} "
            f"({bad} bad row(s) in all)"
        )
    return out


@njit(cache=True)
def _all_hands():  # type: ignore[no-untyped-def]
    out = np.empty((2598960, 5), dtype=np.uint8)
    i = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        out[i, 0] = a
                        out[i, 1] = b
                        out[i, 2] = c
                        out[i, 3] = d
                        out[i, 4] = e
                        i += 1
    return out


def all_hands() -> np.ndarray:
    """Every one of the 2,598,960 five-card hands as a ``(2598960, 5)`` ``uint8`` array."""
    return _all_hands()


def frequency_table() -> list[tuple[str, int, float]]:
    """(category, number of hands, probability) for every category, best first, by evaluating
    all 2,598,960 hands with :func:`evaluate_batch`."""
    ranks = evaluate_batch(all_hands())
    counts = np.bincount(RANK_CATEGORY[ranks], minlength=len(CATEGORIES))
    total = int(counts.sum())
    return [(name, int(n), int(n) / total) for name, n in zip(CATEGORIES, counts)]
