"""What the check history says over a window: the weekly report, its one classification rule,
and the transitions (closed, merged, new version, moved, died, recovered) with a trend.
"""
