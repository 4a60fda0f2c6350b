"""Figures for dpboost: learning curves (test accuracy against rounds) and privacy spent.

Matplotlib is used with the non-interactive Agg backend; figures are written atomically
(:func:`dpboost._io.atomic_write_bytes`), so a failed run leaves no half-written PNG.

References
----------
Bun, Carmosino & Sorrell (COLT 2020): the rounds of Boost (Algorithm 1) compose as ``T``
Gaussian mechanisms, so the privacy spent after ``t`` rounds is that of ``t`` of them
(Theorem 30 for the (epsilon, delta) conversion).
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping, Sequence

import numpy as np

from dpboost._io import atomic_write_bytes

__all__ = ["plot_learning_curves", "staged_accuracy"]


def staged_accuracy(estimator, X, y) -> np.ndarray:
    """Accuracy after every round, from ``estimator.staged_decision_function(X)``.

    Prediction is ``classes_[1]`` where the decision function is positive (as in
    ``predict``).  For a private estimator this is post-processing of the released per-round
    weights; evaluated on held-out data it says nothing private about the training data.
    """
    y = np.asarray(y)
    classes = np.asarray(estimator.classes_)
    return np.array([float(np.mean(classes[(score > 0).astype(int)] == y))
                     for score in estimator.staged_decision_function(X)])


def _agg():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot_learning_curves(
    panels: Sequence[Mapping],
    epsilon_curve: Mapping | None,
    path: str | os.PathLike,
    *,
    title: str | None = None,
) -> None:
    """Write a PNG: one panel of test accuracy against rounds per dataset, plus epsilon.

    Parameters
    ----------
    panels : sequence of mappings
        Each with ``"title"`` (str), ``"curves"`` (mapping label -> accuracy per round,
        rounds numbered from 1) and optionally ``"baselines"`` (mapping label -> accuracy,
        drawn as horizontal lines).
    epsilon_curve : mapping or None
        ``{"rounds": [...], "epsilon": [...], "delta": float, "target": float}``: epsilon after
        ``t`` rounds at the calibrated noise (drawn in a last panel).
    path : str or path-like
        Output PNG.
    title : str, optional
        Figure title.
    """
    plt = _agg()
    n_panels = len(panels) + (epsilon_curve is not None)
    n_cols = 2 if n_panels > 1 else 1
    n_rows = (n_panels + n_cols - 1) // n_cols
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(6.0 * n_cols, 3.8 * n_rows),
                             squeeze=False)
    axes = axes.ravel()
    try:
        for ax, panel in zip(axes, panels):
            low = 1.0
            for label, acc in panel["curves"].items():
                acc = np.asarray(acc, dtype=float)
                ax.plot(np.arange(1, acc.size + 1), acc, label=label, lw=1.4)
                low = min(low, float(acc.min()) if acc.size else 1.0)
            for k, (label, acc) in enumerate(panel.get("baselines", {}).items()):
                low = min(low, float(acc))
                ax.axhline(acc, ls="--", lw=1.0, color=f"C{k + 3}", label=label)
            ax.set_ylim(max(0.0, low - 0.02), 1.005)
            ax.set_title(panel["title"])
            ax.set_xlabel("round t")
            ax.set_ylabel("test accuracy")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8, loc="lower right")
        if epsilon_curve is not None:
            ax = axes[len(panels)]
            ax.plot(epsilon_curve["rounds"], epsilon_curve["epsilon"], color="C0", lw=1.4,
                    label=f"epsilon after t rounds (delta = {epsilon_curve['delta']:g})")
            if epsilon_curve.get("target") is not None:
                ax.axhline(epsilon_curve["target"], ls="--", color="gray", lw=1.0,
                           label="target epsilon")
            ax.set_title("privacy spent after t rounds (calibrated noise)")
            ax.set_xlabel("round t")
            ax.set_ylabel("epsilon")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8, loc="lower right")
        for ax in axes[n_panels:]:
            ax.set_visible(False)
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=100)
    finally:
        plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
