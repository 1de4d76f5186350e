import sys

from pipgammon.cli import main

sys.exit(main())
