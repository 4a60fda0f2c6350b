"""Halving, the Standard Optimal Algorithm (SOA) and the Littlestone dimension of finite classes.

A finite class is given either as a 2-D array ``H`` of shape ``(n_hypotheses, n_points)`` with
entries in ``{-1, +1}`` (``H[i, j]`` is hypothesis ``i``'s label of domain point ``j``; an
instance ``x`` is then a point index), or as a sequence of callables ``h(x) -> +-1``.  Both
learners keep the version space ``V_t`` (hypotheses consistent with every example seen) as a
bitmask and predict ``+1`` on ties, as in SSBD; they assume realizability and raise
``ValueError`` if the version space becomes empty.

The Littlestone dimension is computed from its recursive characterisation
``Ldim(V) = max over x splitting V of 1 + min(Ldim(V_x^+), Ldim(V_x^-))`` (0 if no point
splits ``V``, -1 for the empty class), memoised over sub-classes as integer bitmasks.  It is
exponential in the worst case: meant for small classes.

References
----------
.. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Section 21.1:
   Theorem 21.3 (Halving makes at most ``log2 |H|`` mistakes), Definitions 21.4-21.5
   (shattered trees, Ldim), Lemma 21.6 (every learner can be forced into Ldim mistakes),
   Lemma 21.7 (SOA makes at most Ldim mistakes) and Corollary 21.8.
.. [2] Littlestone, "Learning quickly when irrelevant attributes abound", Machine Learning 2,
   1988.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from dpboost.online.base import OnlineClassifier, check_label, check_weight

__all__ = ["Halving", "LittlestoneOracle", "StandardOptimalAlgorithm", "littlestone_dimension"]


def _as_matrix(hypotheses, owner: str) -> np.ndarray:
    H = np.asarray(hypotheses)
    if H.ndim != 2 or H.shape[0] == 0 or H.shape[1] == 0 or not np.all(np.abs(H) == 1):
        raise ValueError(
            f"The 'hypotheses' parameter of {owner} must be a non-empty 2-D array of shape "
            f"(n_hypotheses, n_points) with entries in {{-1, +1}}. Got shape "
            f"{getattr(H, 'shape', None)} instead."
        )
    return H.astype(np.int8)


def _column_masks(H: np.ndarray) -> list[int]:
    """For each domain point, the bitmask of hypotheses labelling it ``+1``."""
    masks = []
    for col in H.T:
        m = 0
        for i in np.flatnonzero(col > 0):
            m |= 1 << int(i)
        masks.append(m)
    return masks


class LittlestoneOracle:
    """Memoised Littlestone dimension of sub-classes of one finite class.

    Sub-classes are integer bitmasks over the rows of ``hypotheses``; :meth:`ldim` of a mask
    is computed by the recursion of SSBD Definition 21.5 and cached, so repeated calls (as in
    SOA) share work.

    Examples
    --------
    >>> oracle = LittlestoneOracle(np.array([[1, 1], [1, -1], [-1, 1], [-1, -1]]))
    >>> oracle.ldim(oracle.full_mask)
    2
    """

    def __init__(self, hypotheses) -> None:
        self.hypotheses = _as_matrix(hypotheses, "LittlestoneOracle")
        self.n_hypotheses = self.hypotheses.shape[0]
        self.full_mask = (1 << self.n_hypotheses) - 1
        self._pos = _column_masks(self.hypotheses)
        self._memo: dict[int, int] = {0: -1}

    def ldim(self, mask: int) -> int:
        """Ldim of the sub-class whose rows are the set bits of ``mask`` (-1 if empty)."""
        if mask in self._memo:
            return self._memo[mask]
        cap = mask.bit_count().bit_length() - 1  # floor(log2 |V|) bounds Ldim (SSBD Example 21.2)
        best = 0
        if cap > 0:
            for pos in self._pos:
                plus, minus = mask & pos, mask & ~pos
                if plus == 0 or minus == 0:
                    continue
                small, large = sorted((plus, minus), key=int.bit_count)
                # 1 + min(Ldim(small), Ldim(large)) <= 1 + floor(log2 |small|): skip hopeless
                # splits, and the larger side when the smaller one already cannot win.
                if small.bit_count().bit_length() <= best:
                    continue
                value = 1 + self.ldim(small)
                if value <= best:
                    continue
                value = min(value, 1 + self.ldim(large))
                if value > best:
                    best = value
                    if best == cap:
                        break
        self._memo[mask] = best
        return best


def littlestone_dimension(hypotheses: ArrayLike) -> int:
    """Littlestone dimension of a finite class over a finite domain.

    Parameters
    ----------
    hypotheses : array-like of shape (n_hypotheses, n_points)
        Labels in ``{-1, +1}``; row ``i`` is hypothesis ``i`` on every domain point.

    Returns
    -------
    int
        ``Ldim(H)`` (SSBD Definition 21.5).

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014,
       Definition 21.5 and Examples 21.2-21.3.

    Examples
    --------
    >>> thresholds = [[1 if j >= a else -1 for j in range(7)] for a in range(8)]
    >>> littlestone_dimension(thresholds)     # floor(log2(7 + 1))
    3
    >>> littlestone_dimension(2 * np.eye(5, dtype=int) - 1)     # singletons
    1
    """
    oracle = LittlestoneOracle(hypotheses)
    return oracle.ldim(oracle.full_mask)


class _VersionSpace(OnlineClassifier):
    """Shared state of Halving and SOA: the version space as a bitmask."""

    _owner = "Halving"

    def __init__(self, hypotheses: np.ndarray | Sequence[Callable]) -> None:
        if callable(hypotheses) or (
            isinstance(hypotheses, Sequence)
            and len(hypotheses) > 0
            and all(callable(h) for h in hypotheses)
        ):
            self.hypotheses = list([hypotheses] if callable(hypotheses) else hypotheses)
            self._matrix = None
        else:
            self.hypotheses = _as_matrix(hypotheses, self._owner)
            self._matrix = self.hypotheses
        self.n_hypotheses = len(self.hypotheses)
        self.version_mask_ = (1 << self.n_hypotheses) - 1
        self.n_mistakes_ = 0

    def _labels(self, x) -> np.ndarray:
        """Every hypothesis's label of ``x`` (in ``{-1, +1}``)."""
        if self._matrix is not None:
            j = np.asarray(x).reshape(-1)
            if (
                j.size != 1
                or not float(j[0]).is_integer()
                or not (0 <= int(j[0]) < self._matrix.shape[1])
            ):
                raise ValueError(
                    f"The 'x' parameter of {self._owner} must be a domain point index in "
                    f"[0, {self._matrix.shape[1]}). Got {x!r} instead."
                )
            return self._matrix[:, int(j[0])]
        labels = np.array([1 if h(x) >= 0 else -1 for h in self.hypotheses], dtype=np.int8)
        return labels

    def _split(self, x) -> tuple[int, int]:
        """Bitmasks ``(V^+, V^-)`` of the version space split by the labels of ``x``."""
        pos = 0
        for i in np.flatnonzero(self._labels(x) > 0):
            pos |= 1 << int(i)
        return self.version_mask_ & pos, self.version_mask_ & ~pos

    def version_space(self) -> np.ndarray:
        """Indices of the hypotheses consistent with every example seen."""
        m = self.version_mask_
        return np.array([i for i in range(self.n_hypotheses) if m >> i & 1], dtype=int)

    def learn_one(self, x: Any, y: float, weight: float = 1.0) -> None:
        """Keep the hypotheses that label ``x`` as ``y`` (``weight = 0`` skips the example)."""
        y = check_label(y, f"{self._owner}.learn_one")
        if check_weight(weight, f"{self._owner}.learn_one") == 0:
            return
        plus, minus = self._split(x)
        kept = plus if y > 0 else minus
        if kept == 0:
            raise ValueError(
                f"No hypothesis of the class is consistent with the examples seen: "
                f"{self._owner} assumes the labels come from a hypothesis in the class."
            )
        if (1.0 if self.predict_one(x) >= 0 else -1.0) != y:
            self.n_mistakes_ += 1
        self.version_mask_ = kept


class Halving(_VersionSpace):
    """The Halving algorithm: majority vote of the version space (ties to ``+1``).

    Parameters
    ----------
    hypotheses : array-like of shape (n_hypotheses, n_points) or sequence of callables
        The finite class (see the module docstring).

    Attributes
    ----------
    version_mask_ : int
        Bitmask of the consistent hypotheses.
    n_mistakes_ : int
        Mistakes made by :meth:`learn_one` (prediction checked before the update).

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Theorem 21.3:
       at most ``log2 |H|`` mistakes on any realizable sequence.

    Examples
    --------
    >>> h = Halving([[1, 1], [1, -1], [-1, -1]])
    >>> h.predict_one(np.array([1]))
    -0.3333333333333333
    >>> h.learn_one(np.array([1]), 1.0); h.version_space()
    array([0])
    """

    _owner = "Halving"

    def predict_one(self, x: Any) -> float:
        """Fraction ``(|V^+| - |V^-|) / |V|`` in ``[-1, 1]``; its sign is the majority."""
        plus, minus = self._split(x)
        p, m = plus.bit_count(), minus.bit_count()
        return (p - m) / (p + m)


class StandardOptimalAlgorithm(_VersionSpace):
    """Littlestone's Standard Optimal Algorithm: predict the label whose sub-class has larger Ldim.

    Parameters
    ----------
    hypotheses : array-like of shape (n_hypotheses, n_points) or sequence of callables
        The finite class.
    domain : sequence, optional
        Required with callables: the finite instance space over which Ldim of sub-classes is
        computed (the callables are tabulated on it once).

    Attributes
    ----------
    version_mask_ : int
        Bitmask of the consistent hypotheses.
    n_mistakes_ : int
        Mistakes made by :meth:`learn_one`.

    Notes
    -----
    ``predict_one`` returns ``+1.0`` or ``-1.0`` (ties in Ldim go to ``+1``).

    References
    ----------
    .. [1] Shalev-Shwartz & Ben-David, "Understanding Machine Learning", 2014, Lemma 21.7:
       at most ``Ldim(H)`` mistakes on any realizable sequence; Corollary 21.8: optimal.

    Examples
    --------
    >>> soa = StandardOptimalAlgorithm(2 * np.eye(4, dtype=int) - 1)   # singletons, Ldim 1
    >>> soa.predict_one(np.array([2]))
    -1.0
    """

    _owner = "StandardOptimalAlgorithm"

    def __init__(self, hypotheses, *, domain: Sequence | None = None) -> None:
        super().__init__(hypotheses)
        if self._matrix is None:
            if domain is None or len(domain) == 0:
                raise ValueError(
                    "The 'domain' parameter of StandardOptimalAlgorithm must be a non-empty "
                    "sequence of instances when the hypotheses are callables. Got "
                    f"{domain!r} instead."
                )
            table = np.array([[1 if h(x) >= 0 else -1 for x in domain] for h in self.hypotheses])
        else:
            table = self._matrix
        self.domain = domain
        self.oracle_ = LittlestoneOracle(table)

    def predict_one(self, x: Any) -> float:
        plus, minus = self._split(x)
        return 1.0 if self.oracle_.ldim(plus) >= self.oracle_.ldim(minus) else -1.0
