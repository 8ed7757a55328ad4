"""anchors.cli."""
