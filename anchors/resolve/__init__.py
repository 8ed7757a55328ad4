"""Metadata resolvers: arXiv (API, batched), GitHub issues/PRs (REST), DOIs (doi.org)."""
