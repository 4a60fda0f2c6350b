"""Online learning and online boosting, one algorithm per module.

**Not differentially private.** Every learner here sees each example in the clear; nothing in
this package (models, predictions, losses) is covered by a privacy guarantee.  The private
learner of dpboost is :class:`dpboost.estimator.PrivateHalfspaceClassifier`.

Every learner follows the protocol in :mod:`dpboost.online.base`:
``predict_one(x)``, ``learn_one(x, y, weight=1.0)``, and batch verbs defined as their loops.
Expert algorithms (Hedge) and OCO learners (OGD) use ``predict()`` / ``update(feedback)``.

``online_to_batch`` is not re-exported here: the function would shadow its own module
(``import dpboost.online.online_to_batch`` must give the module).
"""

from dpboost.online.adaboost_ol import AdaBoostOL, AdaBoostOLS
from dpboost.online.agnostic import OnlineAgnosticBoost, OnlineRealizableBoost, boost_with_oco
from dpboost.online.base import OnlineClassifier, OnlineLearner
from dpboost.online.bbm import OnlineBBM
from dpboost.online.doubling import DoublingTrick
from dpboost.online.evaluate import progressive_val_score
from dpboost.online.halving import Halving, StandardOptimalAlgorithm, littlestone_dimension
from dpboost.online.hedge import Hedge
from dpboost.online.learners import OnlineLinearLearner, OnlinePerceptronLearner, OnlineStumpLearner
from dpboost.online.ogd import Box, L2Ball, OnlineGradientDescent, OnlineGradientDescentClassifier
from dpboost.online.perceptron import Perceptron
from dpboost.online.weighted_majority import WeightedMajority

__all__ = [
    "AdaBoostOL", "AdaBoostOLS", "Box", "DoublingTrick", "Halving", "Hedge", "L2Ball",
    "OnlineAgnosticBoost", "OnlineBBM", "OnlineClassifier", "OnlineGradientDescent",
    "OnlineGradientDescentClassifier", "OnlineLearner", "OnlineLinearLearner",
    "OnlinePerceptronLearner", "OnlineRealizableBoost", "OnlineStumpLearner", "Perceptron",
    "StandardOptimalAlgorithm", "WeightedMajority", "boost_with_oco", "littlestone_dimension",
    "progressive_val_score",
]
