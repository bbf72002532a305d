"""How a Gemini game ends (GM-I-END, GM-I-TASKS): at the turn limit, the places found
or done first, then the share of starting wounds still standing; a failed bottle test
ends it earlier (``chapters.options.phase_hooks.bottle``).

Why shares of wounds: the text has no victory rules of its own; a skirmish of few models
is won by the side that keeps more of itself in the fight.
"""

from __future__ import annotations

from engine.state import GameState
from rulesets.gemini.chapters.options import tasks


def at_turn_limit(state: GameState) -> None:
    """GM-I-END: at the turn limit the side with the larger share of its starting
    wounds still standing wins; equal shares are a draw. A scenario with hidden things
    and tasks (GM-I-TASKS) first counts the places each side found or did."""
    places = tasks.tally(state)
    if places and len(set(places.values())) > 1:
        most = max(places.values())
        ahead = [s for s, v in places.items() if v == most]
        if len(ahead) == 1:
            text = ", ".join(f"{s} {v}" for s, v in places.items())
            state.over = {"winner": ahead[0], "reason": f"turn limit: places found or done {text} (GM-I-TASKS)"}  # fmt: skip
            return
    share = {}
    for s in state.sides:
        mine = [m for m in state.models.values() if m.side == s]
        total = sum(m.max_hp for m in mine) or 1
        share[s] = sum(max(m.hp, 0) for m in mine if not m.removed) / total
    best = max(share.values())
    top = [s for s, v in share.items() if v == best]
    winner = top[0] if len(top) == 1 else None
    text = ", ".join(f"{s} {v:.0%}" for s, v in share.items())
    state.over = {"winner": winner, "reason": f"turn limit: wounds left {text} (GM-I-END)"}
