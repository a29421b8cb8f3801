"""`python -m storage ...`: see storage/cli.py."""

import sys

from storage.cli import main

sys.exit(main())
