"""Card-driven activation (GEM-2.5): a shuffled deck of move and fire cards replaces
the initiative, movement and missile segments.

Why magic is not in the deck: the rulebook says to leave magic cards out when the
tactical magic segments are played, and resolves those first; this ruleset always plays
them, so the deck holds move and fire cards only (GEM-I-CARDS).
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState

from .gstate import g
from .missile import default_weapon


def build_deck(state: GameState, ctx: Context) -> None:
    """One move card per unit that can move, one fire card per unit with missiles,
    shuffled with the game's dice (Fisher-Yates, one die per card)."""
    deck: list[list[str]] = []
    for unit, ms in sorted(state.units().items()):
        deck.append([unit, "move"])
        if any(default_weapon(m) is not None for m in ms):
            deck.append([unit, "fire"])
    for i in range(len(deck) - 1, 0, -1):
        r = ctx.dice.roll(i + 1, "shuffle the activation deck", rule="GEM-2.5")
        j = r.total - 1
        deck[i], deck[j] = deck[j], deck[i]
    g(state)["deck"] = deck
    g(state)["card"] = 0
    ctx.log.emit(
        "note",
        f"the activation deck is shuffled: {len(deck)} cards (GEM-2.5)",
        rule="GEM-2.5",
        data={"cards": len(deck)},
    )
