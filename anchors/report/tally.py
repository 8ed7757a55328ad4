"""Each registry entry in one state as last checked: what `report` counts, in `check`'s states.

`check` counts each entry of the registry once, in one state (`CheckResult.entry_states`); so
does `report`, from the latest observation of each entry's target (inside the window or before
it) together with the registry's offline problems (the same `check_offline`), so after a check
the two count the same anchors in the same states, and the states sum to the registry's entries.
An entry no run recorded (`check: skip`, excluded, never checked online) is `not-checked`. What
only a check compares (a title or a claim against the answer: `warned`) is not in the history,
so `report` counts such an entry by its answer alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from ..findings import Outcome, State
from ..history import Observation
from ..registry.model import Registry
from ..registry.validate import check_offline

__all__ = ["observed_state", "tally"]

#: the worse state wins, as in `findings.state_of`
_WORST = (State.FAILING, State.WARNED, State.UNVERIFIED, State.REDIRECTED, State.OK)


def observed_state(outcome: Outcome) -> State:
    """The state `check` puts an anchor in for this answer (`verdicts`: dead-link is an error,
    a redirect a note, unreachable, rate-limited, unverifiable, TLS and blocked warnings that
    say the check could not tell)."""
    if outcome is Outcome.OK:
        return State.OK
    if outcome is Outcome.REDIRECT:
        return State.REDIRECTED
    return State.FAILING if outcome is Outcome.DEAD else State.UNVERIFIED


def tally(reg: Registry, latest: Mapping[str, Observation], today: date) -> dict[State, int]:
    """Each of `reg`'s entries counted once: its offline problems, else its latest observation
    (`latest`, by the entry's key), else not checked."""
    offline = check_offline(reg, today).entry_states()
    states = dict.fromkeys(State, 0)
    for entry in reg.anchors:
        found = offline.get((reg.path, entry.line), State.OK)
        seen = latest.get(entry.key.key) if entry.key is not None and not entry.skip else None
        observed = State.NOT_CHECKED if seen is None else observed_state(seen.outcome)
        # an offline problem counts whether or not the entry was checked; else the answer does
        states[observed if found is State.OK else min(found, observed, key=_rank)] += 1
    return states


def _rank(state: State) -> int:
    """The worse state first; `not-checked` last (a problem found offline wins over it)."""
    return _WORST.index(state) if state in _WORST else len(_WORST)
