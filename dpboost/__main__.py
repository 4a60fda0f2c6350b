"""``python -m dpboost`` runs the command line."""

import sys

from dpboost.cli import main

sys.exit(main())
