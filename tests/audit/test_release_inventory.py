"""Release inventory: every field of every released artifact is public or a named mechanism's.

The released artifacts are the model file (binary and multiclass), ``privacy_report_``, the
public fitted attributes (``vars(est)``, names ending in ``_``), the stdout and stderr of
``dpboost train`` and the ledger entry it writes.  Each field is listed below with the private
releases it is computed from (the names of the report's ``mechanisms``); a field with none is
public.  Fits on two datasets D and D' that share every public input (n, d, classes, schema,
epsilon, delta, norm bound, seed) then check the listing: wherever the releases a field lists
came out equal on D and D', the field must be byte-identical (so a public field always is, and
a field listed as post-processing of the noisy count is identical whenever the count is).  A
field listed nowhere fails the test: a new field goes through this review before it ships.

The pairs: neighbours (one row replaced, with and without its label), another class balance,
rows far outside the norm bound (clipped), and on the raw-CSV path through a schema a
categorical level present or absent, NaN in other rows, values outside a declared bound.
"""

from __future__ import annotations

import dataclasses
import json
import re
import warnings

import numpy as np
import pytest
from _release_cases import SCHEMA

from dpboost.cli import main
from dpboost.estimator import PrivateHalfspaceClassifier
from dpboost.model_io import model_to_dict

EPSILON, DELTA, SEED = 1.0, 1e-6, 0

# -- the private releases (names as in privacy_report_["mechanisms"], before " (") ------------
COUNT = "count of positive labels"
CLASSES = "histogram of class counts for the class prior"
MEAN = "mean of the rows for the input centre"
WHITEN = "second-moment matrix for the input whitening"
NORMS = "row-norm histogram for the input scale"
ROUNDS = "boosting rounds"
PLATT = "score histogram for Platt calibration"
CUT = "threshold: exponential mechanisms over public score cuts and slopes"
TEMP = "softmax temperature: exponential mechanism over public temperatures"
ALL = frozenset({COUNT, CLASSES, MEAN, WHITEN, NORMS, ROUNDS, PLATT, CUT, TEMP})
PUBLIC = frozenset()
#: The candidate score families of a multiclass draw (dpboost.multiclass_discriminant): built
#: from the centres, the whitening, the mean, the scale and the class counts.
FAMILIES = frozenset({ROUNDS, WHITEN, MEAN, CLASSES, NORMS})
#: kappa and T learned from the noisy count (dpboost.defaults): what is computed from them.
BY_COUNT = frozenset({COUNT})

#: privacy_report_ (binary and multiclass), path -> the releases it is computed from.
REPORT = {
    # the budget: public (epsilon, delta, method), its float rounding through T
    "rho": BY_COUNT, "mu": PUBLIC, "delta": PUBLIC,
    "epsilon.paper": BY_COUNT, "epsilon.cks": BY_COUNT, "epsilon.best": BY_COUNT,
    # the pure events (exponential mechanisms) paid at face value, beside the zCDP routes
    "epsilon.pure+paper": BY_COUNT, "epsilon.pure+cks": BY_COUNT,
    # the rounds' noise: n, d, R, epsilon and the kappa, T learned from the count
    "sigma": BY_COUNT, "noise_multiplier": BY_COUNT, "sensitivity": BY_COUNT,
    "noise_ratio": BY_COUNT,  # sigma sqrt(d / T) / R (dpboost.privacy_report.noise_ratio)
    # ||R^2 mean_t released_centres_[t]|| / (sigma sqrt(d' / T)) (privacy_report.signal_ratio)
    "signal_ratio": frozenset({ROUNDS, COUNT}),
    "sensitivity_exact_arithmetic": BY_COUNT, "float_error_bound": BY_COUNT,
    "grid_granularity": BY_COUNT, "mechanism": PUBLIC,
    "mechanisms[].name": PUBLIC, "mechanisms[].rho": BY_COUNT, "mechanisms[].share": BY_COUNT,
    "mechanisms[].event.type": PUBLIC, "mechanisms[].event.noise_multiplier": BY_COUNT,
    "mechanisms[].event.count": BY_COUNT, "mechanisms[].event.event.type": PUBLIC,
    "mechanisms[].event.event.noise_multiplier": BY_COUNT,
    "mechanisms[].event.events[].type": PUBLIC, "mechanisms[].event.events[].epsilon": PUBLIC,
    "budget_shares": BY_COUNT,  # {mechanism name: share}, checked against 'mechanisms'
    "sensitivity_rule": PUBLIC, "n_rounds": BY_COUNT, "n_rounds_rule": PUBLIC,
    "kappa": BY_COUNT, "kappa_rule": PUBLIC, "initial_measure": BY_COUNT,
    "noisy_positive_count": frozenset({COUNT}),
    "input_centre": frozenset({MEAN}), "input_centre_rule": PUBLIC,
    "calibration": PUBLIC, "threshold": PUBLIC, "input_whitening": PUBLIC,  # (when null)
    "input_whitening.applied": frozenset({WHITEN}), "input_whitening.rule": frozenset({WHITEN}),
    "input_whitening.ridge": frozenset({WHITEN, MEAN}),
    "input_whitening.ridge_over_mean_eigenvalue": frozenset({WHITEN, MEAN}),
    "input_scale": frozenset({NORMS}), "input_scale_rule": PUBLIC,
    "calibration.method": PUBLIC, "calibration.n_bins": PUBLIC,
    "calibration.slope": frozenset({PLATT}), "calibration.offset": frozenset({PLATT}),
    "calibration.n_groups": frozenset({PLATT}), "calibration.threshold": frozenset({PLATT}),
    "calibration.mirrored_classes": frozenset({PLATT}),  # whether the noisy cells had more
    # positives than negatives: post-processing of the histogram
    "calibration.histogram_auc": frozenset({PLATT}),  # the noisy cells' AUC (session 35)
    "threshold.method": PUBLIC, "threshold.n_candidates": PUBLIC, "threshold.n_slopes": PUBLIC,
    "threshold.epsilon_0": PUBLIC, "threshold.slope_epsilon_0": PUBLIC,
    "threshold.cut": frozenset({CUT}), "threshold.slope": frozenset({CUT}),
    "threshold.probability_slope": frozenset({CUT}),  # sqrt(slope * public 2 sqrt(d))
    # multiclass: the softmax temperature (dpboost.private_temperature); its bound reads w
    # of the score family drawn with it (dpboost.multiclass_discriminant)
    "calibration.temperature": frozenset({TEMP}),
    "calibration.score_bound": frozenset({ROUNDS, WHITEN, MEAN, CLASSES, NORMS, TEMP}),
    # which score families exist reads the releases they are built from (the whitening, the
    # class counts, the centres): the count of candidates too (red team, session 39)
    "calibration.epsilon_0": PUBLIC, "calibration.n_candidates": FAMILIES,
    "calibration.scores": FAMILIES,  # the name of the score family drawn with the temperature
    "calibration.rule": PUBLIC, "mechanisms[].event.epsilon": PUBLIC,
    "predict_proba": PUBLIC, "learning_rate": PUBLIC, "norm_bound": PUBLIC,
    "n_samples": PUBLIC, "sigma_util": PUBLIC, "sigma_at_most_sigma_util": PUBLIC,
    "utility_guarantee_applies": PUBLIC, "accounting_method": PUBLIC, "mode": PUBLIC,
    "labels_inferred_from_data": PUBLIC,
    "noise_source": PUBLIC,  # the caller's random_state: fresh, seeded or a Generator
    # a PrivateSelection's best run: the search that chose it (public parameters)
    "selected_by.epsilon": PUBLIC, "selected_by.delta": PUBLIC, "selected_by.mechanism": PUBLIC,
    "selected_by.rule": PUBLIC, "selected_by.time_padding": PUBLIC,
    **{f"selected_by.time_padding.{k}": PUBLIC for k in (
        "runs", "tail_probability", "delta", "delta_reserved", "delta_search", "rule")},
    # ... whose standard keys state the search: the run's own figures under single_run
    "single_run.rho": BY_COUNT, "single_run.delta": PUBLIC, "single_run.mechanism": PUBLIC,
    "single_run.rule": PUBLIC,
    **{f"single_run.epsilon.{m}": BY_COUNT for m in ("paper", "cks", "best", "pure+paper",
                                                     "pure+cks")},
    "schema_from_data": PUBLIC,  # model file only: the columns a draft schema read from data
    # multiclass (dpboost.multiclass): kappa and T are public there
    "multiclass": PUBLIC, "n_classes": PUBLIC, "noise_multiplier_rule": PUBLIC,
    # the class prior (dpboost.multiclass_prior): the noisy class histogram (the count share)
    "class_prior": PUBLIC, "class_prior.noisy_label_histogram": frozenset({CLASSES}),
    "class_prior.log_prior": frozenset({CLASSES}),
    "class_prior.applied": frozenset({CLASSES, TEMP}),  # the prior, and the first family drawn
    "class_prior.imbalance_ratio": PUBLIC, "class_prior.rule": PUBLIC,
}

#: Fitted attributes (``vars(est)``, ending in ``_``), path -> releases.
ATTRIBUTES = {
    "classes_": PUBLIC, "n_features_in_": PUBLIC,
    "feature_names_in_": PUBLIC,  # a DataFrame's column names (a declaration, not a row)
    "coef_": ALL, "intercept_": ALL, "boosted_coef_": ALL, "score_scale_": ALL,
    "hypothesis_coefs_": ALL, "hypothesis_intercepts_": ALL,
    "released_centres_": ALL,
    "input_centre_": frozenset({MEAN}), "input_scale_": frozenset({NORMS}),
    "input_whitening_.matrix": frozenset({WHITEN, MEAN}),
    "input_whitening_.ridge": frozenset({WHITEN, MEAN}),
    "input_whitening_.ridge_over_mean_eigenvalue": frozenset({WHITEN, MEAN}),
    "input_whitening_.applied": frozenset({WHITEN, MEAN}),
    "input_whitening_.covariance": frozenset({WHITEN, MEAN}),
    "calibration_": PUBLIC, "threshold_": PUBLIC, "input_whitening_": PUBLIC,  # (when None)
    "class_gain_": BY_COUNT,  # dpboost.defaults.class_balancing_gain of the noisy count
    "calibration_.slope": frozenset({PLATT}), "calibration_.offset": frozenset({PLATT}),
    "calibration_.n_bins": PUBLIC, "calibration_.n_groups": frozenset({PLATT}),
    "calibration_.noise_variance": PUBLIC, "calibration_.threshold": frozenset({PLATT}),
    "calibration_.mirrored_classes": frozenset({PLATT}),
    "calibration_.histogram_auc": frozenset({PLATT}),
    "calibration_.platt_offset": frozenset({PLATT}),
    "threshold_.threshold": frozenset({CUT}), "threshold_.slope": frozenset({CUT}),
    "threshold_.prior_slope": PUBLIC,  # 2 sqrt(d)
    # the temperature is drawn with a score family (dpboost.multiclass_discriminant): the
    # boosted centres, or discriminants built from them, the whitening and the class counts
    "calibration_.temperature": frozenset({TEMP}),
    "calibration_.bound": frozenset({ROUNDS, WHITEN, MEAN, CLASSES, NORMS, TEMP}),
    "calibration_.epsilon_0": PUBLIC, "calibration_.n_candidates": FAMILIES,
    "calibration_.family": frozenset({TEMP}),
    "threshold_.n_candidates": PUBLIC, "threshold_.n_slopes": PUBLIC,
    "threshold_.epsilon": PUBLIC, "threshold_.slope_epsilon": PUBLIC,
    "privacy_event_": BY_COUNT,  # T learned from the count sets the rounds' count
    **{f"privacy_report_.{k}": v for k, v in REPORT.items()},
}

#: The model file (dpboost.model_io), path -> releases.
MODEL = {
    "format": PUBLIC, "format_version": PUBLIC, "dpboost_version": PUBLIC,
    "n_features": PUBLIC, "classes": PUBLIC, "schema": PUBLIC, "feature_names": PUBLIC,
    "probability": PUBLIC, "norm_bound": PUBLIC, "coef": ALL, "intercept": ALL,
    **{f"privacy_report.{k}": v for k, v in REPORT.items()},
}

#: Names no artifact may use for a field (statistics of the data computed without noise).
FORBIDDEN = re.compile(r"accura|clip|min\b|max\b|mean\b|_mean|mean_|average|seen|observed|"
                       r"by_class|per_class|class_count|categor|n_pos|n_neg|exact|diagnost",
                       re.IGNORECASE)
#: ... except these (each named above, with its mechanism or as public).
FORBIDDEN_OK = {"sensitivity_exact_arithmetic", "noisy_positive_count",
                "ridge_over_mean_eigenvalue"}


# -- flattening and comparing -----------------------------------------------------------------

def _flatten(value, prefix: str, out: dict,
             leaves=("budget_shares", "privacy_event_", "schema", "feature_names")) -> dict:
    """``{path: [values]}``: dicts by key, dataclasses by field, lists of dicts as ``[]``."""
    tail = prefix.split(".", 1)[-1] if "." in prefix else prefix
    if prefix in leaves or tail in leaves:
        out.setdefault(prefix, []).append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _flatten(getattr(value, f.name), f"{prefix}.{f.name}", out, leaves)
    elif isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}" if prefix else str(key), out, leaves)
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
        for item in value:
            _flatten(item, f"{prefix}[]", out, leaves)
    else:
        out.setdefault(prefix, []).append(value)
    return out


def _canon(value):
    """A byte-exact, comparable form (floats by their hex, arrays by dtype, shape and bytes)."""
    if isinstance(value, np.ndarray) and value.dtype == object:  # (bytes would be pointers)
        return ("array", "O", value.shape, tuple(repr(v) for v in value.ravel()))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (float, np.floating)):
        return ("float", float(value).hex())
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_canon(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, _canon(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, _canon(dataclasses.asdict(value)))
    return (type(value).__name__, repr(value))


def _attributes(est) -> dict:
    fitted = {k: v for k, v in vars(est).items() if k.endswith("_") and not k.startswith("_")}
    return _flatten(fitted, "", {})


def _releases(est) -> dict:
    """The outputs of each private release of a fit (what the listing's names stand for)."""
    from dpboost.private_temperature import TemperatureFit

    report = est.privacy_report_
    tempered = isinstance(est.calibration_, TemperatureFit)  # multiclass
    prior = report.get("class_prior")  # multiclass: the noisy class histogram
    return {COUNT: report.get("noisy_positive_count"),
            CLASSES: None if prior is None else prior["noisy_label_histogram"],
            MEAN: est.input_centre_,
            WHITEN: getattr(est, "input_whitening_", None), NORMS: est.input_scale_,
            ROUNDS: est.released_centres_, PLATT: None if tempered else est.calibration_,
            CUT: getattr(est, "threshold_", None),
            # the draw alone: (temperature, family index); n_candidates and the bound read
            # the families, so they are not part of it (a red team, session 39: comparing the
            # whole TemperatureFit checked them only where they already agreed)
            TEMP: ((est.calibration_.temperature, est.calibration_.family) if tempered
                   else None)}


def _check_listed(fields: dict, listing: dict, what: str) -> None:
    unlisted = sorted(set(fields) - set(listing))
    assert not unlisted, (f"{what}: field(s) {unlisted} are in no list: add each to the "
                          "inventory as public or with the mechanism it comes from")
    for path in fields:
        for name in path.replace("[]", ".").split("."):
            assert not FORBIDDEN.search(name) or name in FORBIDDEN_OK, (
                f"{what}: {path!r} names a statistic of the data")


def _check_pair(fields_a: dict, fields_b: dict, listing: dict, rel_a: dict, rel_b: dict,
                what: str) -> list[str]:
    """Every field whose listed releases agree on D and D' agrees byte for byte."""
    _check_listed(fields_a, listing, what)
    _check_listed(fields_b, listing, what)
    assert set(fields_a) == set(fields_b), f"{what}: the set of fields depends on the data"
    same = {name for name in rel_a if _canon(rel_a[name]) == _canon(rel_b[name])}
    checked = []
    for path in fields_a:
        if listing[path] <= same:
            assert _canon(fields_a[path]) == _canon(fields_b[path]), (
                f"{what}: {path!r} differs between D and D' although it is listed as a "
                f"function of public inputs and {sorted(listing[path]) or 'nothing else'}, "
                "which agree: it reads the data outside a mechanism")
            checked.append(path)
    return checked


# -- the data ---------------------------------------------------------------------------------

def _base(n=300, d=5, k=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * 0.3
    score = X @ np.linspace(1.0, -0.5, d)
    y = (np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])) if k == 3
         else (score > 0.05).astype(int))
    return X, y


def _pairs(X, y, k=2):
    """(name, X', y'): same n, d and classes as (X, y), other data."""
    Xa = X.copy()
    Xa[0] = -X[0] * 2.5                     # one row replaced, label kept
    Xb, yb = Xa.copy(), y.copy()
    yb[0] = (y[0] + 1) % k                  # ... and its label
    yc = y.copy()
    flip = np.flatnonzero(y == 0)[:60]
    yc[flip] = 1                            # another class balance
    Xd = X.copy()
    Xd[:37] *= 25.0                         # 37 rows far outside the norm bound (clipped)
    return [("neighbour_x", Xa, y), ("neighbour_xy", Xb, yb), ("balance", X, yc),
            ("clipped", Xd, y)]


CONFIGS = {
    # mean, norm histogram, count, rounds, small-data cut
    "adaptive": dict(data=dict(), params=dict()),
    # mean, whitening, norm histogram, count, rounds, Platt histogram
    "adaptive_whitened": dict(data=dict(n=400, d=3), params=dict(target_epsilon=20.0)),
    "given": dict(data=dict(), params=dict(n_rounds=20, kappa=0.25)),
    "theory": dict(data=dict(), params=dict(margin=0.5, n_rounds=20)),
    "private_calibration": dict(data=dict(), params=dict(calibration="private")),
    "multiclass": dict(data=dict(d=4, k=3), params=dict(classes=[0, 1, 2])),
    "multiclass_ovr": dict(data=dict(d=4, k=3), params=dict(classes=[0, 1, 2],
                                                            multiclass="ovr")),
    # the multiclass input whitening (joint only) and the temperature on large data
    "multiclass_whitened": dict(data=dict(n=3000, d=3, k=3),
                                params=dict(classes=[0, 1, 2], target_epsilon=20.0)),
    # a DataFrame sets feature_names_in_ (its column names)
    "dataframe": dict(data=dict(), params=dict(), frame=True),
}


def _fit(X, y, frame=False, **params):
    params = {"target_epsilon": EPSILON, "target_delta": DELTA, "classes": [0, 1],
              "random_state": SEED, **params}
    if frame:
        import pandas as pd

        X = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the clipped pair warns (a local message)
        return PrivateHalfspaceClassifier(**params).fit(X, y)


@pytest.fixture(scope="module")
def fits():
    out = {}
    for config, spec in CONFIGS.items():
        k = spec["data"].get("k", 2)
        X, y = _base(**spec["data"])
        frame = spec.get("frame", False)
        base = _fit(X, y, frame, **spec["params"])
        out[config] = (base, [(name, _fit(X2, y2, frame, **spec["params"]))
                              for name, X2, y2 in _pairs(X, y, k)])
    return out


# -- the estimator and the model file ---------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS)
def test_fitted_attributes_are_public_or_named_releases(fits, config):
    base, others = fits[config]
    checked = set()
    for name, other in others:
        checked |= set(_check_pair(_attributes(base), _attributes(other), ATTRIBUTES,
                                   _releases(base), _releases(other), f"{config}/{name}"))
    # the test bites: the public fields, and on pairs with equal labels those of the count
    assert {"classes_", "n_features_in_", "privacy_report_.n_samples"} <= checked
    if config.startswith("adaptive"):
        assert {"privacy_report_.kappa", "privacy_report_.n_rounds", "class_gain_",
                "privacy_report_.sigma"} <= checked


@pytest.mark.parametrize("config", CONFIGS)
def test_model_file_fields_are_public_or_named_releases(fits, config):
    base, others = fits[config]
    content = model_to_dict(base)
    assert set(content) == {k.split(".")[0] for k in MODEL}, "a new top-level key in the file"
    for name, other in others:
        _check_pair(_flatten(content, "", {}), _flatten(model_to_dict(other), "", {}), MODEL,
                    _releases(base), _releases(other), f"{config}/{name} model file")


@pytest.mark.parametrize("config", CONFIGS)
def test_report_names_every_release_it_lists(fits, config):
    """A release ran exactly when the report lists it with its cost (the listing's names)."""
    base, _ = fits[config]
    report = base.privacy_report_
    names = [m["name"].split(" (")[0] for m in report["mechanisms"]]
    assert set(names) <= ALL and len(set(names)) == len(names)
    if "budget_shares" in report:
        assert list(report["budget_shares"]) == names
    releases = _releases(base)
    ran = {name for name, value in releases.items() if value is not None}
    if NORMS in ran and report.get("input_scale_rule") is None and "multiclass" not in report:
        ran.discard(NORMS)  # input_scale_ = 1.0, not learned
    assert ran == set(names), config
    assert sum(m["share"] for m in report["mechanisms"]) == pytest.approx(1.0)


def test_count_derived_settings_are_recomputed_from_the_noisy_count(fits):
    """kappa, T and the class prior are post-processing of the noisy count and public inputs."""
    from dpboost.defaults import adaptive_kappa, adaptive_rounds, class_balancing_gain

    est = fits["adaptive"][0]
    report = est.privacy_report_
    n, count = report["n_samples"], report["noisy_positive_count"]
    rounds = next(m for m in report["mechanisms"] if m["name"].startswith(ROUNDS))
    d = est.released_centres_.shape[1]  # the mapped coordinates (d + 1)
    assert report["kappa"] == adaptive_kappa(count, n, d, rounds["rho"])
    assert report["n_rounds"] == adaptive_rounds(report["kappa"], n, d, rounds["rho"])
    assert report["noise_ratio"] == report["sigma"] * (d / report["n_rounds"]) ** 0.5 / (
        report["norm_bound"])
    w_bar = est.released_centres_.mean(axis=0) * report["norm_bound"] ** 2
    assert report["signal_ratio"] == pytest.approx(float(np.linalg.norm(w_bar)) / (
        report["sigma"] * (d / report["n_rounds"]) ** 0.5), rel=1e-12)
    assert est.class_gain_ == class_balancing_gain(count, n, report["learning_rate"])


def test_diagnostics_are_labelled_and_never_written(tmp_path):
    from dpboost.model_io import save_model

    X, y = _base()
    est = _fit(X, y, diagnostics=True)
    assert est.diagnostics_["non_private"] is True and "WITHOUT privacy" in est.diagnostics_["note"]
    path = tmp_path / "m.json"
    save_model(est, path)
    text = path.read_text()
    assert "diagnostic" not in text and "accuracy" not in text and "non_private" not in text
    assert json.loads(text) == json.loads(json.dumps(model_to_dict(est)))
    assert "diagnostics_" not in vars(_fit(X, y))


# -- the command line and the ledger ----------------------------------------------------------

TRAIN = ["--target-epsilon", "1", "--target-delta", "1e-6", "--seed", "0"]


def _train(folder, write, extra, capsys, monkeypatch):
    """``dpboost train`` in ``folder`` on the file ``write(path)`` makes, with a fresh ledger.

    Every run uses the same relative names, so the paths the outputs state are the same
    public input on D and D'.
    """
    folder.mkdir()
    monkeypatch.chdir(folder)
    write(folder / "train.csv")
    assert main(["budget", "init", "ledger.json", "--target-epsilon", "5",
                 "--target-delta", "1e-5"]) == 0
    capsys.readouterr()
    code = main(["train", "train.csv", *TRAIN, "--out", "model.json", "--ledger",
                 "ledger.json", *extra])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return (captured, json.loads((folder / "model.json").read_text()),
            json.loads((folder / "ledger.json").read_text()))


def _stdout_fields(text: str) -> dict:
    return _flatten(json.loads(text), "", {})


STDOUT = {"model": PUBLIC, "n_features": PUBLIC, "classes": PUBLIC,
          **{f"privacy_report.{k}": v for k, v in REPORT.items()}}


def _ledger_fields(content: dict) -> dict:
    spends = content["spends"]
    assert len(spends) == 1
    entry = dict(spends[0])
    entry.pop("timestamp")  # the wall clock: public, but not equal between two runs
    return _flatten(entry, "", {}, leaves=("event",))


LEDGER = {"label": PUBLIC, "event": PUBLIC}  # the planned event (cli.train.fit_charged)


def _model_releases(content: dict) -> dict:
    """The releases as a model file states them (for the CLI, which returns no estimator)."""
    report = content["privacy_report"]
    tempered = "multiclass" in report  # the calibration is the softmax temperature
    return {COUNT: report.get("noisy_positive_count"), MEAN: report.get("input_centre"),
            WHITEN: report.get("input_whitening"), NORMS: report.get("input_scale"),
            ROUNDS: content["coef"], PLATT: None if tempered else report.get("calibration"),
            CUT: report.get("threshold"),
            TEMP: report.get("calibration") if tempered else None}


def _check_cli_pair(a, b, what):
    (cap_a, model_a, ledger_a), (cap_b, model_b, ledger_b) = a, b
    rel_a, rel_b = _model_releases(model_a), _model_releases(model_b)
    _check_pair(_flatten(model_a, "", {}), _flatten(model_b, "", {}), MODEL, rel_a, rel_b,
                f"{what} model file")
    _check_pair(_stdout_fields(cap_a.out), _stdout_fields(cap_b.out), STDOUT, rel_a, rel_b,
                f"{what} stdout")
    _check_pair(_ledger_fields(ledger_a), _ledger_fields(ledger_b), LEDGER, rel_a, rel_b,
                f"{what} ledger")
    # stderr holds no figure of the data: byte-identical on D and D' (the plan line states
    # T, learned from the noisy count, so it is compared where the count agrees)
    if _canon(rel_a[COUNT]) == _canon(rel_b[COUNT]):
        assert cap_a.err == cap_b.err, f"{what}: stderr depends on the data"
    for text in (cap_a.out, cap_b.out, cap_a.err, cap_b.err):
        assert "accuracy" not in text and "clipped" not in text, what


def _write_numeric(path, X, y):
    header = ",".join([f"x{j}" for j in range(X.shape[1])] + ["label"])
    rows = [",".join([*(repr(float(v)) for v in x), str(int(c))]) for x, c in zip(X, y)]
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("json_out", [True, False])
def test_train_outputs_on_a_numeric_csv(tmp_path, capsys, monkeypatch, json_out):
    X, y = _base()
    extra = ["--label", "label", "--classes", "0,1"] + (["--json"] if json_out else [])
    base = _train(tmp_path / "base", lambda p: _write_numeric(p, X, y), extra, capsys,
                  monkeypatch)
    for name, X2, y2 in _pairs(X, y):
        other = _train(tmp_path / name, lambda p: _write_numeric(p, X2, y2), extra, capsys,
                       monkeypatch)
        if json_out:
            _check_cli_pair(base, other, f"numeric/{name}")
        else:  # text: identical lines but for the privacy summary (the learned T and kappa)
            keep = [ln for ln in base[0].out.splitlines() if not ln.startswith("privacy:")]
            assert keep == [ln for ln in other[0].out.splitlines()
                            if not ln.startswith("privacy:")], name
            for text in (other[0].out, other[0].err):
                assert "accuracy" not in text and "clipped" not in text, name


@pytest.mark.parametrize("mode", ["joint", "ovr"])
def test_train_outputs_of_a_multiclass_model(tmp_path, capsys, monkeypatch, mode):
    """Three declared classes through the command line (the temperature, K centres a round)."""
    X, y = _base(d=4, k=3)
    extra = ["--label", "label", "--classes", "0,1,2", "--multiclass", mode, "--json"]
    base = _train(tmp_path / "base", lambda p: _write_numeric(p, X, y), extra, capsys,
                  monkeypatch)
    assert base[1]["privacy_report"]["multiclass"] == mode
    for name, X2, y2 in _pairs(X, y, 3):
        other = _train(tmp_path / name, lambda p: _write_numeric(p, X2, y2), extra, capsys,
                       monkeypatch)
        _check_cli_pair(base, other, f"multiclass {mode}/{name}")


def _raw(n=240, seed=0):
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, n).astype(object)
    income = np.round(rng.lognormal(10, 1, n), 2).astype(object)
    income[:12] = None
    job = rng.choice(["clerk", "sales"], n).astype(object)
    job[:20] = "eng"
    score = (age.astype(float) - 50) / 20 + (job == "eng")
    bought = np.where(score + rng.normal(0, 0.5, n) > 0, "yes", "no")
    return {"age": age, "income": income, "job": job, "bought": bought}


def _write_raw(path, cols):
    names = list(cols)
    lines = [",".join(names)]
    for i in range(len(cols["age"])):
        lines.append(",".join("" if cols[c][i] is None else str(cols[c][i]) for c in names))
    path.write_text("\n".join(lines) + "\n")
    return path


def _raw_pairs(cols):
    def edit(**changes):
        out = {k: v.copy() for k, v in cols.items()}
        for column, (rows, value) in changes.items():
            out[column][rows] = value
        return out
    return [
        ("level_absent", edit(job=(slice(0, 20), "clerk"))),     # no 'eng' in D'
        ("level_undeclared", edit(job=(slice(0, 30), "astronaut"))),
        ("nan_moved", edit(income=(slice(0, 24), None))),        # NaN in other rows too
        ("outside_bounds", edit(age=(slice(0, 30), 140))),       # clipped by the schema
        ("neighbour", edit(age=(slice(5, 6), 99), bought=(slice(5, 6), "yes"))),
    ]


def test_train_outputs_through_a_schema(tmp_path, capsys, monkeypatch):
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SCHEMA))
    cols = _raw()
    extra = ["--schema", str(schema), "--json"]
    base = _train(tmp_path / "base", lambda p: _write_raw(p, cols), extra, capsys, monkeypatch)
    assert base[1]["feature_names"][-1] == "intercept"
    for name, other_cols in _raw_pairs(cols):
        other = _train(tmp_path / name, lambda p: _write_raw(p, other_cols), extra, capsys,
                       monkeypatch)
        _check_cli_pair(base, other, f"schema/{name}")
        assert "astronaut" not in other[0].err + other[0].out + json.dumps(other[1])


def test_a_draft_schema_is_named_in_the_report(tmp_path, capsys, monkeypatch):
    """Values a draft read from the data are a release outside every mechanism: the model
    file's report names the columns (as ``labels_inferred_from_data`` does for y), and
    stderr carries the PrivacyLeakWarning; a reviewed schema adds no such field."""
    draft = json.loads(json.dumps(SCHEMA))
    draft["columns"]["age"]["from_data"] = ["lower", "upper"]
    draft["columns"]["job"]["from_data"] = ["categories"]
    path = tmp_path / "draft.json"
    path.write_text(json.dumps(draft))
    cols = _raw()
    captured, model, _ = _train(tmp_path / "draft", lambda p: _write_raw(p, cols),
                                ["--schema", str(path)], capsys, monkeypatch)
    assert model["privacy_report"]["schema_from_data"] == ["age", "job"]
    assert "from_data" in captured.err and "age, job" in captured.err
    path.write_text(json.dumps(SCHEMA))
    _, reviewed, _ = _train(tmp_path / "reviewed", lambda p: _write_raw(p, cols),
                            ["--schema", str(path)], capsys, monkeypatch)
    assert "schema_from_data" not in reviewed["privacy_report"]


def test_figures_of_the_training_data_only_on_request(tmp_path, capsys, monkeypatch):
    """--non-private-figures prints them, labelled; the model file never holds them."""
    X, y = _base()
    X[:37] *= 25.0
    captured, model, _ = _train(tmp_path / "run", lambda p: _write_numeric(p, X, y),
                                ["--label", "label", "--classes", "0,1", "--json",
                                 "--non-private-figures"], capsys, monkeypatch)
    out = json.loads(captured.out)
    assert set(out["non_private"]) == {"training_accuracy", "clipped_fraction"}
    assert out["non_private"]["clipped_fraction"] == _n_clipped(X) / 300
    assert "non-private figure" in captured.err
    assert "non_private" not in model and "accuracy" not in json.dumps(model)


def _n_clipped(X) -> int:
    return int(np.count_nonzero(np.linalg.norm(X, axis=1) > 1.0))


def _leaves(content) -> list:
    return [v for values in _flatten(content, "", {}).values() for v in values]


def test_warnings_do_not_reach_an_artifact():
    """Inferred classes warn; clipped rows do not (session 20: whether that warning fired was a
    noise-free bit of the data), unless diagnostics=True, and then without the count; no file
    holds a figure of them."""
    X, y = _base()
    X[:37] *= 25.0
    over = _n_clipped(X)
    with pytest.warns(Warning) as caught:
        est = PrivateHalfspaceClassifier(EPSILON, DELTA, random_state=SEED).fit(X, y)
    texts = [str(w.message) for w in caught]
    assert any("inferred from y" in t for t in texts)
    assert not any("A tenth or more" in t for t in texts)
    with pytest.warns(Warning) as asked:
        PrivateHalfspaceClassifier(EPSILON, DELTA, random_state=SEED,
                                   diagnostics=True).fit(X, y)
    assert any("A tenth or more" in str(w.message) for w in asked)
    assert not any(f"{over} of 300" in str(w.message) for w in asked)
    assert not any(f"{over} of 300" in t for t in texts)
    content = model_to_dict(est)
    assert "clipped" not in json.dumps(content)
    assert not any(isinstance(v, (int, float)) and not isinstance(v, bool)
                   and v in (over, over / 300, 300 - over) for v in _leaves(content))
    assert est.privacy_report_["labels_inferred_from_data"] is True


def test_a_refit_without_diagnostics_drops_them():
    X, y = _base()
    est = _fit(X, y, diagnostics=True)
    est.set_params(diagnostics=False).fit(X, y)
    assert "diagnostics_" not in vars(est)


@pytest.mark.parametrize("first, second", [(2, 3), (3, 2)])
def test_a_refit_keeps_no_attribute_of_the_earlier_fit(first, second):
    """A binary fit then a multiclass refit (and back) leaves exactly a fresh fit's attributes:
    no stale ``threshold_``, ``class_gain_`` or ``input_whitening_`` beside the new model."""
    rng = np.random.default_rng(SEED)
    X = rng.normal(size=(300, 4)) / 4.0

    def labels(k):
        return np.arange(300) % k

    def fitted(est):
        return {k for k in vars(est) if k.endswith("_") and not k.startswith("_")}

    fresh = PrivateHalfspaceClassifier(EPSILON, DELTA, classes=list(range(second)),
                                       random_state=SEED).fit(X, labels(second))
    est = PrivateHalfspaceClassifier(EPSILON, DELTA, classes=list(range(first)),
                                     random_state=SEED).fit(X, labels(first))
    assert fitted(est) != fitted(fresh)  # the two shapes differ, so the check can fail
    est.set_params(classes=list(range(second))).fit(X, labels(second))
    assert fitted(est) == fitted(fresh)
