"""Figures and quotes a briefing attributes to a source, checked against that source's text.

Pure text logic, no network: which numbers and quotes a briefing line says, what a source says
(as `Passage`s read from an arXiv abstract or HTML page, or a GitHub thread), and whether the
source supports each. The check fetches the sources and hands the passages here.
"""
