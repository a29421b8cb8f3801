import sys

from wire.cli import main

sys.exit(main())
