"""``python -m intrigue``: the same as the ``intrigue`` command."""

import sys

from intrigue.cli import main

sys.exit(main())
