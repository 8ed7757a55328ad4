"""anchors.registry."""
