"""Online checks: resolvers, the link checker and what their answers mean for the registry.

`session` opens and closes one run's cache, history and clients; `run` turns answers into
findings. Nothing here prints; network failures are values, never exceptions.
"""
