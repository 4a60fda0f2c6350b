"""The privacy plan of one ``PrivateHalfspaceClassifier`` fit, from public quantities alone.

A fit touches the data with up to five mechanisms, all discrete Gaussians accounted in zCDP
(:mod:`dpboost.defaults` gives the shares and the reasons):

0. the mean of the rows (its declared 3% raised, up to 10%, on small data by the public rule
   :func:`dpboost.input_map.mean_rho`, taken from the rounds: :meth:`RunPlan.with_mean_rho`),
   their second-moment matrix (only where ``n`` is large enough: :mod:`dpboost.whitening`;
   otherwise its share goes to the rounds) and the histogram of row norms (practical mode
   with something learned: the input map of :mod:`dpboost.input_map` and the input scale;
   on a multiclass fit whose whitening is released, two histograms of half the share each,
   the first for the pre-scale before the centre: :meth:`RunPlan.with_prescale`);
1. the count of positive labels (only when ``kappa`` is learned: practical mode without
   ``kappa``);
2. the ``T`` boosting rounds;
3. the score histogram of the private Platt calibration (:mod:`dpboost.private_platt`), or,
   when ``n`` is too small for a histogram, two draws of the exponential mechanism (a cut
   and a slope of the score) with the same budget (:mod:`dpboost.private_threshold`, each
   ``epsilon_0^2 / 8``-zCDP); for a multiclass fit, one draw of the softmax temperature with
   that budget (:mod:`dpboost.private_temperature`).

:func:`plan_run` fixes their budgets before any data is read, so
``PrivateHalfspaceClassifier.planned_privacy_event()`` can be checked against a ledger.  When
``T`` is learned too (it depends on ``n`` and on the private ``kappa``), the rounds are planned
as ``ZCDPEvent(rho_rounds)``: whichever ``T`` is chosen, ``T`` releases with noise multiplier
``sqrt(T / (2 rho_rounds))`` cost exactly ``rho_rounds`` (Bun & Steinke 2016, Lemma 2.3).
Choosing ``T``, and so each round's ``rho_rounds / T``, from an earlier private output makes the
privacy *parameters* adaptive, which Lemma 2.3 (fixed parameters) does not cover; a Rényi filter
does (Feldman & Zrnic 2021): at every order ``alpha`` the rounds' Rényi costs ``alpha rho_t`` add
up to ``alpha rho_rounds`` whatever ``T`` is drawn, a budget fixed before the data are read, so
the rounds are ``rho_rounds``-zCDP and the whole run ``rho``-zCDP (red team s33 R2).  The fitted
``privacy_event_`` then names the rounds exactly.

**Planned and fitted events: the same total, not always the same structure.**  Three choices
read ``n`` (and ``d``), which ``planned_privacy_event()`` does not know (it takes no data, and
the estimator declares neither): the mean's share (:func:`dpboost.input_map.mean_rho`, raised
on small data: :meth:`RunPlan.with_mean_rho`), whether the whitening is released
(:func:`dpboost.whitening.worthwhile` compares its noise ``sigma_e``, which scales as ``1/n``,
with ``R^2 / d``: :meth:`RunPlan.without_whitening`), and so whether a multiclass fit
pre-scales (:meth:`RunPlan.with_prescale`, only when the whitening is released).  The plan
therefore lists the declared shares: the mean at its declared share, the whitening, **one**
row-norm histogram at the whole norm share and the rounds as ``ZCDPEvent(rho_rounds)``;
the fitted ``privacy_event_`` names what ran (a raised mean, no whitening, or the histogram
as ``SelfComposedEvent(count=2)`` at half the share each, and the ``T`` rounds), and each
move is taken from or given to the rounds, so its total ``rho`` is the planned one (to a
relative ``1e-12``, never above it).  A ledger that checks the planned event therefore
checks the spend: the same parameters plan one event for 300 rows and for 20,000, and fit
one histogram on the first and two on the second
(``tests/test_multiclass_small_n_plan.py``).

With ``kappa`` and ``n_rounds`` given and ``calibration=None`` the plan is the historical one:
``T`` rounds calibrated to the whole budget (``calibrate_noise(count=T)``).

References
----------
Bun & Steinke (2016), Lemma 2.3; Canonne, Kamath & Steinke (2020), Theorem 14, Prop. 12.
V. Feldman, T. Zrnic. "Individual Privacy Accounting via a Rényi Filter." NeurIPS 2021 (privacy
filters: composition with adaptively chosen Rényi parameters under a fixed budget).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from accounting import (
    ComposedEvent,
    DiscreteGaussianEvent,
    SelfComposedEvent,
    ZCDPAccountant,
    ZCDPEvent,
    calibrate_noise,
)
from dpboost.defaults import norm_histogram_event, snr_rounds, split_budget
from dpboost.input_map import MAX_MEAN_SHARE, mean_event
from dpboost.mechanisms import NoiseBeyondSamplerError, drawable, lattice_variance
from dpboost.private_platt import score_histogram_event
from dpboost.private_temperature import temperature_event
from dpboost.private_threshold import threshold_event
from dpboost.whitening import second_moment_event

__all__ = ["RunPlan", "plan_run"]


@dataclass(frozen=True)
class RunPlan:
    """Budgets of the mechanisms of one fit (all public).

    ``rho_count`` / ``rho_calibration`` are the nominal shares the discrete noise is derived
    from (0 when the step is skipped); their integer variances are rounded up, so they cost a
    little less, and ``rho_rounds`` gets everything that is left.  ``n_rounds`` is None when
    ``T`` is learned during the fit.
    """

    target_epsilon: float
    target_delta: float
    method: str
    rho_count: float
    rho_rounds: float
    rho_calibration: float
    n_rounds: int | None
    legacy_noise_multiplier: float | None
    rho_norms: float = 0.0
    rho_mean: float = 0.0
    threshold_only: bool = False
    rho_whitening: float = 0.0
    temperature: bool = False
    norms_twice: bool = False

    @property
    def rho(self) -> float:
        """Total rho actually spent: the rounds plus the (rounded) discrete releases."""
        return (self.rho_rounds + _rho(self.mean_event()) + _rho(self.whitening_event())
                + _rho(self.norms_event()) + _rho(self.count_event())
                + _rho(self.calibration_event()))

    def mean_event(self) -> DiscreteGaussianEvent | None:
        return mean_event(self.rho_mean) if self.rho_mean else None

    def whitening_event(self) -> DiscreteGaussianEvent | None:
        return second_moment_event(self.rho_whitening) if self.rho_whitening else None

    def norms_event(self) -> DiscreteGaussianEvent | SelfComposedEvent | None:
        """The row-norm histogram(s): one, or two of ``rho_norms`` each (:meth:`with_prescale`)."""
        if not self.rho_norms:
            return None
        one = norm_histogram_event(self.rho_norms)
        return SelfComposedEvent(one, count=2) if self.norms_twice else one

    def count_event(self) -> DiscreteGaussianEvent | None:
        if not self.rho_count:
            return None
        t, m = lattice_variance(math.sqrt(0.5 / self.rho_count))
        return DiscreteGaussianEvent(noise_multiplier=math.sqrt(t * m))

    def calibration_event(self) -> DiscreteGaussianEvent | ComposedEvent | None:
        if not self.rho_calibration:
            return None
        if self.temperature:  # multiclass: the same share buys the softmax temperature
            return temperature_event(self.threshold_rho())
        if self.threshold_only:  # never more than the histogram it replaces
            return threshold_event(self.threshold_rho())
        return score_histogram_event(self.rho_calibration)

    def threshold_rho(self) -> float:
        """The budget of the private cut and slope (or of the multiclass temperature): what the
        score histogram would cost."""
        return _rho(score_histogram_event(self.rho_calibration))

    def rounds_noise_multiplier(self, n_rounds: int) -> float:
        """``z = sqrt(T / (2 rho_rounds))``, raised by ulps until the accountant prices the ``T``
        rounds at no more than ``rho_rounds`` (rounded, the formula could come out one ulp over:
        the fitted event would then exceed the planned one a ledger checked)."""
        if self.legacy_noise_multiplier is not None:
            return self.legacy_noise_multiplier
        z = math.sqrt(n_rounds / (2.0 * self.rho_rounds))
        while _rho(SelfComposedEvent(DiscreteGaussianEvent(z), count=n_rounds)) > self.rho_rounds:
            z = math.nextafter(z, math.inf)
        return z

    def check_drawable(self, n: int, d: int, n_rounds: int | None, classes: int = 1,
                       joint: bool = True) -> None:
        """Refuse, before the first release, a run whose noise the exact sampler cannot draw
        (:func:`~dpboost.mechanisms.drawable`; else the fit stopped after its first releases,
        and a ledger kept the charge of a run that released nothing: red team, session 29).

        Checked at the worst the fit can meet, from public quantities: ``n_rounds`` (a learned
        ``T`` is at most :func:`~dpboost.defaults.snr_rounds` at ``kappa = 1`` and the
        most budget the rounds can get; ``K T`` releases one-vs-rest), each of
        ``d + 1`` coordinates (the input map's constant; ``K (d + 1)`` in a joint round),
        with the budget the mean may take from them (:data:`~dpboost.input_map.MAX_MEAN_SHARE`);
        the mean's ``d``.  The whitening is released only where drawable
        (:func:`dpboost.whitening.worthwhile`); the histograms' integer noise is refused by the
        plan itself (:func:`~dpboost.mechanisms.lattice_variance`).
        """
        centres, releases = (classes, 1) if joint else (1, classes)
        if self.legacy_noise_multiplier is not None:
            z, dim = self.legacy_noise_multiplier, centres * d
        else:
            worst = self.with_mean_rho(MAX_MEAN_SHARE * self.rho) if self.rho_mean else self
            # a learned T: kappa <= 1, and the most the rounds' budget can grow (the whitening's
            # share, with 1% for the rounding of the histograms' halves)
            learned = snr_rounds(1.0, n, d, 1.01 * self.rho_rounds  # (binary or multiclass)
                                 + _rho(self.whitening_event()))
            z = worst.rounds_noise_multiplier((n_rounds or learned) * releases)
            dim = centres * (d + 1)
        if not drawable(z, dim):
            raise NoiseBeyondSamplerError.of(z, dim)
        if self.rho_mean and not drawable(self.mean_event().noise_multiplier, d):
            raise NoiseBeyondSamplerError.of(self.mean_event().noise_multiplier, d)

    def rounds_event(self, n_rounds: int | None) -> SelfComposedEvent | ZCDPEvent:
        if n_rounds is None:
            return ZCDPEvent(rho=self.rho_rounds)
        z = self.rounds_noise_multiplier(n_rounds)
        return SelfComposedEvent(DiscreteGaussianEvent(noise_multiplier=z), count=n_rounds)

    def event(self, n_rounds: int | None = None):
        """The whole run as one event (the rounds alone in the historical plan)."""
        T = self.n_rounds if n_rounds is None else n_rounds
        rounds = self.rounds_event(T)
        parts = [ev for ev in (self.mean_event(), self.whitening_event(), self.norms_event(),
                               self.count_event(), rounds, self.calibration_event()) if ev]
        return parts[0] if len(parts) == 1 else ComposedEvent(tuple(parts))

    def without_whitening(self) -> RunPlan:
        """The same total, the second moment's share given to the rounds (``n`` too small).

        ``rho_rounds`` is exact (the rounds' noise is derived from it), so moving the release's
        cost to it keeps the run's total ``rho`` (less a relative 1e-12, so that rounding in the
        sum can never exceed the plan that was checked against the target).
        """
        moved = _rho(self.whitening_event()) * (1.0 - 1e-12)
        return replace(self, rho_rounds=self.rho_rounds + moved,
                       rho_whitening=0.0)

    def with_mean_rho(self, rho_mean: float) -> RunPlan:
        """The same total, the mean's budget raised to ``rho_mean`` by taking it from the rounds.

        The rule (:func:`dpboost.input_map.mean_rho`) reads public quantities only.  The rounds
        lose the mean event's exact extra cost (plus a relative 1e-12), so the run's total
        ``rho`` never grows past the plan that was checked against the target.
        """
        if rho_mean <= self.rho_mean:
            return self
        extra = (_rho(mean_event(rho_mean)) - _rho(self.mean_event())) * (1.0 + 1e-12)
        return replace(self, rho_mean=rho_mean, rho_rounds=self.rho_rounds - extra)

    def with_prescale(self) -> RunPlan:
        """The same total, the row-norm share spent on two histograms of half the budget each:
        the input pre-scale before the centre and the whitening (:mod:`dpboost.input_map`), and
        the input scale after the map, as before.  ``rho_norms`` becomes the budget of one.

        Each histogram's variance is rounded up on the grid.  The rounds absorb the difference
        between the two rounded halves and the whole: they lose it (plus a relative 1e-12) if
        the halves cost more, and gain it (less a relative 1e-12) if they cost less, so the
        run's total ``rho`` stays the planned one and never grows past the plan that was
        checked against the target (Bun & Steinke 2016, Lemma 2.3).
        """
        if not self.rho_norms or self.norms_twice:
            return self
        two = replace(self, rho_norms=self.rho_norms / 2.0, norms_twice=True)
        extra = _rho(two.norms_event()) - _rho(self.norms_event())
        extra *= (1.0 + 1e-12) if extra > 0 else (1.0 - 1e-12)
        return replace(two, rho_rounds=self.rho_rounds - extra)

    def with_temperature(self) -> RunPlan:
        """The calibration share spent on a multiclass fit's softmax temperature instead
        (:mod:`dpboost.private_temperature`), fixed before any data is read."""
        return replace(self, temperature=True)

    def with_threshold_only(self) -> RunPlan:
        """The same budgets, the histogram replaced by the private cut and slope (small n)."""
        return replace(self, threshold_only=True)

    def mechanisms(self, n_rounds: int) -> list[dict]:
        """One entry per mechanism that touches the data: name, event, rho and share."""
        out = []
        for name, ev in (("mean of the rows for the input centre (sensitivity 2R/n)",
                          self.mean_event()),
                         ("second-moment matrix for the input whitening (sensitivity "
                          "sqrt 2 R^2)", self.whitening_event()),
                         ("row-norm histogram for the input scale (twice: the pre-scale "
                          "before the centre, the scale after the map; sensitivity sqrt 2 each)"
                          if self.norms_twice else
                          "row-norm histogram for the input scale (sensitivity sqrt 2)",
                          self.norms_event()),
                         ("count of positive labels (sensitivity 1)", self.count_event()),
                         ("boosting rounds (centres, sensitivity Delta')",
                          self.rounds_event(n_rounds)),
                         (("softmax temperature: exponential mechanism over public "
                           "temperatures (utility: the Brier score as a gain, sensitivity 1; "
                           "with several score families (a joint fit: the centres without "
                           "the class prior, discriminants when the whitening was used), over "
                           "(family, temperature) pairs, "
                           "utility the gain plus 2^10 + 2 per correct row, sensitivity "
                           "2 (2^10 + 2), eta halved: the same epsilon_0)")
                          if self.temperature else
                          ("threshold: exponential mechanisms over public score cuts and "
                           "slopes (utility sensitivity 1)") if self.threshold_only else
                          "score histogram for Platt calibration (sensitivity sqrt 2)",
                          self.calibration_event())):
            if ev is None:
                continue
            rho = ZCDPAccountant().compose(ev).rho
            out.append({"name": name, "event": ev.to_dict(), "rho": rho,
                        "share": rho / self.rho})
        return out


def _rho(event) -> float:
    return 0.0 if event is None else ZCDPAccountant().compose(event).rho


def _meets(events, eps: float, delta: float, method: str) -> bool:
    acc = ZCDPAccountant()
    for ev in events:
        acc.compose(ev)
    return acc.get_epsilon(delta, method=method) <= eps


def plan_run(target_epsilon: float, target_delta: float, *, n_rounds: int | None,
             learn_kappa: bool, calibration: bool, method: str,
             learn_scale: bool = False, centre: bool = False, whiten: bool = False,
             calibrate=calibrate_noise) -> RunPlan:
    """Fix every mechanism's budget from the parameters (see the module docstring).

    The composed event is checked with :class:`accounting.ZCDPAccountant` to meet the target;
    if rounding ever made it miss, the budgets shrink by 1e-9 relative until it does.
    ``calibrate`` (default :func:`accounting.calibrate_noise`) calibrates the historical plan;
    the estimator passes its own reference so that audits can substitute a faulty one.

    Examples
    --------
    >>> p = plan_run(1.0, 1e-6, n_rounds=None, learn_kappa=True, calibration=True, method="best")
    >>> round(p.rho_count / p.rho, 3), round(p.rho_calibration / p.rho, 3)
    (0.02, 0.05)
    >>> ZCDPAccountant().compose(p.event(120)).get_epsilon(1e-6) <= 1.0
    True
    """
    if n_rounds is not None and not (learn_kappa or calibration or learn_scale or centre):
        cal = calibrate(target_epsilon, target_delta, count=n_rounds, method=method,
                        mechanism="discrete_gaussian")
        z = cal.noise_multiplier
        return RunPlan(target_epsilon, target_delta, cal.method, 0.0, n_rounds / (2 * z * z),
                       0.0, n_rounds, z)
    split = split_budget(target_epsilon, target_delta, count=learn_kappa,
                         calibration=calibration, method=method, norms=learn_scale,
                         mean=centre, whitening=whiten)
    scale = 1.0 if n_rounds is not None else 1.0 - 1e-9  # any T: keep an ulp-proof margin
    while True:
        nominal = RunPlan(target_epsilon, target_delta, split.method,
                          split.rho_count * scale, 0.0, split.rho_calibration * scale,
                          n_rounds, None, split.rho_norms * scale, split.rho_mean * scale,
                          rho_whitening=split.rho_whitening * scale)
        used = (_rho(nominal.count_event()) + _rho(nominal.calibration_event())
                + _rho(nominal.norms_event()) + _rho(nominal.mean_event())
                + _rho(nominal.whitening_event()))
        plan = RunPlan(target_epsilon, target_delta, split.method, nominal.rho_count,
                       split.rho * scale - used, nominal.rho_calibration, n_rounds, None,
                       nominal.rho_norms, nominal.rho_mean,
                       rho_whitening=nominal.rho_whitening)
        check_T = n_rounds if n_rounds is not None else 100
        if _meets([plan.event(check_T)], target_epsilon, target_delta, split.method):
            return plan
        scale *= 1.0 - 1e-9

