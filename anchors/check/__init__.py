"""anchors.check."""
