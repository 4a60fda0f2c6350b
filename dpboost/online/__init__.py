"""Online learning and online boosting, one algorithm per module.

Every learner follows the protocol in :mod:`dpboost.online.base`:
``predict_one(x)``, ``learn_one(x, y, weight=1.0)``, and batch verbs defined as their loops.
"""
