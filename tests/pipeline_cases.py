"""A raw table of an age, a job and a label of two or three classes, with its schema: shared by
the tests of saved pipelines and loaded models."""

import numpy as np
import pandas as pd


def pipeline_schema(classes):
    return {"columns": {"age": {"type": "numeric", "lower": 0, "upper": 100},
                        "job": {"type": "categorical", "categories": ["a", "b", "c"]}},
            "label": {"column": "y", "classes": list(classes)}}


def pipeline_frame(n, seed, labels):
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 90, n)
    job = rng.choice(["a", "b", "c"], n)
    score = (age - 50) / 15 + 1.2 * (job == "c") - 0.6 * (job == "a")
    cls = (score + rng.normal(0, 0.6, n) > 0).astype(int) if len(labels) == 2 else \
        np.digitize(score + rng.normal(0, 0.6, n), [-0.7, 0.7])
    return pd.DataFrame({"age": age, "job": job, "y": np.asarray(labels)[cls]})
