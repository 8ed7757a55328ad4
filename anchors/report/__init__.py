"""anchors.report."""
