"""Card-driven activation (GEM-2.5): a shuffled deck of move and fire cards replaces
the initiative, movement and missile segments.

Why magic cards only on request: the rulebook says to leave magic cards out when the
tactical magic segments are played, and resolves those first (GEM-I-CARDS, the default).
A scenario that sets ``options = { cards = true, magic_cards = true }`` plays without
the magic segments: each unit that can cast gets a magic card too, and a spell cast on
it is worked out at once (GEM-I-MAGICCARDS, ``magic.cast_at_once``).
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import gs, mtype, mv, option
from .missile import default_weapon


def can_cast(m: Model) -> bool:
    """A wizard with power points left of either kind (GEM-3.5.1)."""
    power = mv(m).get("power", {})
    return mtype(m) == "wizard" and any(int(power.get(k, 0)) > 0 for k in power)


def build_deck(state: GameState, ctx: Context) -> None:
    """One move card per unit that can move, one fire card per unit with missiles and,
    with magic cards, one magic card per unit that can cast; shuffled with the game's
    dice (Fisher-Yates, one die per card)."""
    magic_cards = option(state, "magic_cards")
    deck: list[list[str]] = []
    for unit, ms in sorted(state.units().items()):
        deck.append([unit, "move"])
        if any(default_weapon(m) is not None for m in ms):
            deck.append([unit, "fire"])
        if magic_cards and any(can_cast(m) for m in ms):
            deck.append([unit, "magic"])
    for i in range(len(deck) - 1, 0, -1):
        r = ctx.dice.roll(i + 1, "shuffle the activation deck", rule="GEM-2.5")
        j = r.total - 1
        deck[i], deck[j] = deck[j], deck[i]
    gs(state)["deck"] = deck
    gs(state)["card"] = 0
    ctx.log.emit(
        "note",
        f"the activation deck is shuffled: {len(deck)} cards (GEM-2.5)",
        rule="GEM-2.5",
        data={"cards": len(deck)},
    )
