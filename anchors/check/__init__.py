"""`anchors check`: what the answers of the network mean for the registry, as findings.

`session` opens and closes one run's cache, history and clients (`net/`, `resolve/`); `run`
asks and turns answers into findings (`verdicts`, `truth`, `issues`, `figures`); `recorder`
keeps what the history may keep. Nothing here prints; network failures are values, never
exceptions.
"""
