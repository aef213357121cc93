import sys

from tabletrack.cli import main

sys.exit(main())
