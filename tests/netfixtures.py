"""Network fixtures."""
