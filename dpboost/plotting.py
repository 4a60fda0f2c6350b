"""Figures for dpboost: learning curves, privacy spent, and the measured sample complexity.

* ``dpboost demo``: :func:`plot_learning_curves` (test accuracy against rounds, epsilon after
  ``t`` rounds) and :func:`staged_accuracy`.
* ``dpboost curves``: :func:`plot_all` and the figures it writes from the rows of
  :mod:`dpboost.experiments` (:func:`plot_error_curves`, :func:`plot_slopes`,
  :func:`plot_noise`, :func:`plot_diagnostics`).

Matplotlib is imported inside the drawing functions and used with the non-interactive Agg
backend; figures are written atomically (:func:`dpboost._io.atomic_write_bytes`), so a failed
run leaves no half-written PNG.

References
----------
Bun, Carmosino & Sorrell (COLT 2020): the rounds of Boost (Algorithm 1) compose as ``T``
Gaussian mechanisms, so the privacy spent after ``t`` rounds is that of ``t`` of them
(Theorem 30 for the (epsilon, delta) conversion); Theorems 30 and 33 (sample complexity, drawn
beside the measured ``n*``), Theorem 24 (margin and smoothness diagnostics), Claim 2 (label-noise
rate).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from dpboost import sample_complexity
from dpboost._io import atomic_write_bytes
from dpboost.curve_slopes import _AXES, axis_rows, center_cell, fit_slopes
from dpboost.experiments import Cell, CurveSettings, _cell_of

__all__ = [
    "plot_all",
    "plot_diagnostics",
    "plot_error_curves",
    "plot_learning_curves",
    "plot_noise",
    "plot_slopes",
    "staged_accuracy",
]


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


# ---------------------------------------------------------------------------------------------
# sample complexity (``dpboost curves``): figures of the rows of dpboost.experiments
# ---------------------------------------------------------------------------------------------


def _save(fig, path: Path) -> Path:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    atomic_write_bytes(path, buf.getvalue())
    return path


def _theory_curve(axis: str, values, center: Cell, settings: CurveSettings):
    """Theorems 30 (privacy term) and 33 (max of terms) along ``axis``, other values at centre."""
    t30, t33 = [], []
    for v in values:
        kw = {"epsilon": center.epsilon, "margin": center.margin, "accuracy": center.accuracy}
        kw[axis] = v
        args = (kw["epsilon"], settings.delta, kw["margin"], kw["accuracy"],
                settings.failure_probability)
        t30.append(sample_complexity.theorem30_sample_complexity(
            *args, sensitivity="tight")["privacy"])
        t33.append(sample_complexity.theorem33_sample_complexity(
            *args, sensitivity="tight").maximum)
    return np.array(t30), np.array(t33)


def plot_slopes(rows: list[dict], settings: CurveSettings, path: Path) -> Path:
    """log n* against log(1/tau), log(1/eps), log(1/alpha), fitted slopes and theory shapes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    center = center_cell(rows)
    fits = fit_slopes(rows, center)
    center_row = next(r for r in rows if _cell_of(r) == center)
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    symbols = {"margin": "tau", "epsilon": "eps", "accuracy": "alpha"}
    for ax, (axis, (_, theory_slope)) in zip(axes, _AXES.items()):
        sel = axis_rows(rows, axis, center)
        xs = np.array([r[axis] for r in sel])
        ns = np.array([r["n_star"] for r in sel])
        ok = np.array([r["censored"] == "" for r in sel])
        ax.plot(np.log(1 / xs[ok]), np.log(ns[ok]), "o", color="C0", label="measured n*")
        if (~ok).any():
            capped = np.where(np.isfinite(ns[~ok]), ns[~ok], settings.n_max)
            ax.plot(np.log(1 / xs[~ok]), np.log(capped), "x", color="C3", label="censored")
        if axis in fits:
            f = fits[axis]
            grid = np.linspace(min(f.x), max(f.x), 50)
            ax.plot(grid, f.intercept + f.slope * grid, "-", color="C0",
                    label=f"OLS slope {f.slope:.2f} [{f.low:.2f}, {f.high:.2f}]")
        if np.isfinite(center_row["n_star"]) and len(xs) >= 2:
            dense = np.geomspace(xs.min(), xs.max(), 30)
            t30, t33 = _theory_curve(axis, dense, center, settings)
            c30, c33 = _theory_curve(axis, [getattr(center, axis)], center, settings)
            scale30 = center_row["n_star"] / c30[0]
            scale33 = center_row["n_star"] / c33[0]
            ax.plot(np.log(1 / dense), np.log(t30 * scale30), "--", color="C1",
                    label=f"Thm 30 privacy term x {scale30:.1e}")
            ax.plot(np.log(1 / dense), np.log(t33 * scale33), ":", color="C2",
                    label=f"Thm 33 (max term) x {scale33:.1e}")
        ax.set_xlabel(f"log(1/{symbols[axis]})")
        ax.set_ylabel("log n*")
        ax.set_title(f"{symbols[axis]} (theory slope {theory_slope:g}, privacy regime)")
        ax.legend(fontsize=7)
    fig.suptitle(f"n*: test error <= alpha in >= {settings.passes_needed}/{settings.n_trials} "
                 f"trials; centre tau={center.margin:g}, eps={center.epsilon:g}, "
                 f"alpha={center.accuracy:g}, delta={settings.delta:g}; theory curves rescaled "
                 "to meet the centre (shape only)", fontsize=9)
    out = _save(fig, path)
    plt.close(fig)
    return out


def plot_error_curves(rows: list[dict], path: Path) -> Path:
    """Test error against n for every cell (small multiples): every trial run, median, n*."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n_cols = 4
    n_rows = max(1, math.ceil(len(rows) / n_cols))
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(3.2 * n_cols, 2.4 * n_rows),
                             sharey=True, squeeze=False)
    for ax, r in zip(axes.ravel(), rows):
        ns = sorted(r["evaluations"])
        for n in ns:
            ax.plot([n] * len(r["evaluations"][n]), r["evaluations"][n], ".", ms=3,
                    color="grey", alpha=0.6)
        ax.plot(ns, [float(np.median(r["evaluations"][n])) for n in ns], "-", lw=1, color="C0")
        ax.axhline(r["accuracy"], color="C3", ls="--", lw=0.8)
        if math.isfinite(r["n_star"]):
            ax.axvline(r["n_star"], color="C2", lw=0.8)
        ax.set_xscale("log")
        ax.set_title(f"tau={r['margin']:g} eps={r['epsilon']:g} alpha={r['accuracy']:g} "
                     f"eta={r['noise_rate']:.3g}", fontsize=7)
        ax.tick_params(labelsize=7)
    for ax in axes.ravel()[len(rows):]:
        ax.axis("off")
    fig.suptitle("clean test error of each trial run during the n* search (grey), median "
                 "(blue), alpha (red), n* (green)", fontsize=9)
    fig.tight_layout()
    out = _save(fig, path)
    plt.close(fig)
    return out


def plot_noise(rows: list[dict], path: Path, tolerance: dict | None = None) -> Path | None:
    """n*(eta)/n*(0) against eta at the centre cell, with Claim 2's rate alpha tau/32 marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    center = center_cell(rows)
    sel = sorted((r for r in rows if (r["margin"], r["epsilon"], r["accuracy"])
                  == (center.margin, center.epsilon, center.accuracy)),
                 key=lambda r: r["noise_rate"])
    base = next((r["n_star"] for r in sel if r["noise_rate"] == 0.0), math.nan)
    if len(sel) < 2 or not np.isfinite(base):
        return None
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.2))
    etas = np.array([r["noise_rate"] for r in sel])
    ratio = np.array([r["n_star"] / base for r in sel])
    x = np.where(etas > 0, etas, etas[etas > 0].min() / 3 if (etas > 0).any() else 1e-4)
    finite = np.isfinite(ratio)
    ax1.plot(x[finite], ratio[finite], "o-", label="n*(eta) / n*(0)")
    if (~finite).any():
        ax1.plot(x[~finite], np.full((~finite).sum(), ratio[finite].max() * 1.5), "x",
                 color="C3", ms=9, label="never <= alpha up to n_max")
    claim2 = sample_complexity.claim2_noise_rate(center.accuracy, center.margin)
    for ax in (ax1, ax2):
        ax.axvline(claim2, color="C2", ls="--", label="Claim 2: eta = alpha tau / 32")
        ax.set_xscale("log")
        ax.set_xlabel("label-noise rate eta (eta=0 drawn at the left edge)")
    ax1.set_yscale("log")
    ax1.set_ylabel("sample-size factor")
    if tolerance is not None:
        etas_t = np.array(sorted(tolerance["errors"]))
        errs = [np.array(tolerance["errors"][e]) for e in etas_t]
        xt = np.where(etas_t > 0, etas_t, x.min())
        med = np.array([np.median(e) for e in errs])
        ax2.fill_between(xt, [e.min() for e in errs], [e.max() for e in errs], alpha=0.25,
                         label="min-max over trials")
        ax2.plot(xt, med, "o-", label=f"median, n = {tolerance['n']} "
                                      f"({tolerance['n'] / base:.1f} x n*(0))")
        ax2.set_ylabel("clean test error at fixed n")
    else:
        for r, xv in zip(sel, x):
            ns = sorted(r["evaluations"])
            if ns:
                ax2.plot([xv] * len(ns), [float(np.median(r["evaluations"][n])) for n in ns],
                         ".", color="grey", alpha=0.5)
        ax2.set_ylabel("clean test error at every evaluated n")
    ax2.axhline(center.accuracy, color="grey", ls=":", label="alpha")
    ax1.legend(fontsize=7)
    ax2.legend(fontsize=7)
    fig.suptitle(f"Noise tolerance at tau={center.margin:g}, eps={center.epsilon:g}, "
                 f"alpha={center.accuracy:g}", fontsize=9)
    out = _save(fig, path)
    plt.close(fig)
    return out


def plot_diagnostics(diags, path: Path) -> Path:
    """Margin fraction (vs kappa) and smoothness max mu_hat kappa n (vs 1) against rounds.

    ``diags`` is one :func:`training_diagnostics` result or a list of them (drawn together).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    diags = [diags] if isinstance(diags, dict) else list(diags)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.2))
    for i, diag in enumerate(diags):
        t, tag = diag["rounds"], f"n={diag['n']}"
        ax1.plot(t, diag["margin_fraction"], color=f"C{2 * i}", lw=1.2,
                 label=f"{tag}: fraction with margin <= gamma={diag['gamma']:.3g}")
        ax1.plot(t, diag["test_error"], color=f"C{2 * i + 1}", lw=0.8,
                 label=f"{tag}: clean test error")
        ax2.plot(t, diag["smoothness"], color=f"C{2 * i}", lw=1, label=f"{tag}")
    ax1.axhline(diags[0]["kappa"], color="C3", ls="--", label=f"kappa = {diags[0]['kappa']:g}")
    ax1.set_xlabel("round t")
    ax1.set_ylim(0, 1)
    ax1.set_title("Theorem 24 good margin (gamma = measured mean advantage)", fontsize=9)
    ax1.legend(fontsize=7)
    ax2.axhline(1.0, color="C3", ls="--", label="smoothness bound 1")
    ax2.set_xlabel("round t")
    ax2.set_ylabel("max_i mu_hat(i) kappa n")
    ax2.set_ylim(0, 1.1)
    ax2.set_title("Theorem 24 smoothness", fontsize=9)
    ax2.legend(fontsize=7)
    c = diags[0]["cell"]
    fig.suptitle(f"Diagnostics on real runs (non-private): tau={c.margin:g} eps={c.epsilon:g} "
                 f"alpha={c.accuracy:g}", fontsize=9)
    out = _save(fig, path)
    plt.close(fig)
    return out


def plot_all(rows: list[dict], settings: CurveSettings, out_dir: str | os.PathLike,
             prefix: str = "curves", diagnostics=None,
             tolerance: dict | None = None) -> list[Path]:
    """Write every figure the rows support into ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = [plot_error_curves(rows, out / f"{prefix}-error.png")]
    if any(fit_slopes(rows).values()):
        paths.append(plot_slopes(rows, settings, out / f"{prefix}-slopes.png"))
    noise = plot_noise(rows, out / f"{prefix}-noise.png", tolerance)
    if noise is not None:
        paths.append(noise)
    if diagnostics is not None:
        paths.append(plot_diagnostics(diagnostics, out / f"{prefix}-diagnostics.png"))
    return paths
