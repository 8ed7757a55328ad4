"""`python -m anchors`: the same command as `anchors`."""

from .cli.entry import main

main()
