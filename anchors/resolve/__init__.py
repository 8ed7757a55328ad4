"""The services a check asks about an anchor: arXiv (API, batched; HTML full text), GitHub
(REST: issues, pull requests, threads), DOIs (doi.org) and Crossref, each one `Resolution` per key.
"""
