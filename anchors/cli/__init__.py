"""The `anchors` command: a typer veneer over the library (parse, call, render, exit code).

Kept empty so `anchors --version` (cli/entry.py) answers before typer is imported.
"""
