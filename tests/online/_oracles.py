"""Weak learners with a known advantage, shared by the booster tests."""


class NoisyOracle:
    """A weak learner that knows the label (x[0]) and reports it correctly w.p. (1 + gamma)/2."""

    def __init__(self, gamma, rng):
        self.gamma, self.rng = gamma, rng

    def predict_one(self, x):
        return x[0] if self.rng.random() < (1 + self.gamma) / 2 else -x[0]

    def learn_one(self, x, y, weight=1.0):
        pass
