"""``python -m patience``: the command line."""

from patience.cli import main

main()
