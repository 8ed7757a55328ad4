"""anchors: a citation and arXiv anchor registry with link checking."""

__version__ = "0.1.0"
