"""The turn (GEM-2): initiative with the penalty for a side that keeps winning, then the
magic, movement, missile, melee and morale segments (or the card deck, GEM-2.5); the
setup before turn 1 (GEM-2 "1a. Setup"), who acts next, and a segment's end.

Why the magic segment is two steps: every side lays its offensive cards before anyone
lays a defensive one (GEM-3.5.2), so the segment is played as "magic_offence" then
"magic_defence", each by the sides in initiative order; the cards are turned when the
second step ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast

from engine.actions import Action, EndPhase
from engine.dice import Modifier
from engine.ruleset import Context, Ruleset, load
from engine.state import GameState
from engine.turns import Phased, PhasedFlow, roll_off

from . import victory
from .chapters import magic, missile, vehicles
from .state import PER_TURN, foes_in_melee, gs, mtype, mv, option, unit_models

PHASES = ("magic_offence", "magic_defence", "movement", "missile", "melee", "morale")
CARD_PHASES = ("magic_offence", "magic_defence", "cards", "melee", "morale")
#: the card turn without the tactical magic segments: spells are cast on magic cards
MAGIC_CARD_PHASES = ("cards", "melee", "morale")
#: the setup before turn 1's segments (GEM-2.0.2 to GEM-2.0.4; terrain_setup.py, deploy.py)
SETUP_PHASES = ("terrain", "side", "plan", "deploy")
PENALTY = 5


class _StartsTurns(Protocol):
    def start_turn(self, state: GameState, ctx: Context) -> None: ...


class Segments(PhasedFlow):
    """GEM-2 on the engine's turn structure: when the last segment ends, the last
    survivor and the objectives are scored (GEM-3.7), then the engine applies the turn
    limit (``Gem.at_turn_limit``, GEM-I-TURNLIMIT) or begins the next turn, which the
    ruleset starts its own way (vehicles' turn start, initiative with the streak
    penalty, deployment on turn 1)."""

    def end_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        victory.end_of_turn(state, ctx)
        if not state.over:
            super().end_round(rs, state, ctx)

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        cast(_StartsTurns, rs).start_turn(state, ctx)


#: the standard turn, and the turn with the card deck (GEM-2.5); both keep their place
#: in the engine's ``phased`` record, and either ends through ``TURNS``
STANDARD = TURNS = Segments(PHASES)
CARDS = Phased(CARD_PHASES)
MAGIC_CARDS = Phased(MAGIC_CARD_PHASES)


def phased(state: GameState) -> Phased:
    """The turn's segments: standard, by cards, or by cards with magic cards (GEM-2.5)."""
    if not option(state, "cards"):
        return STANDARD
    return MAGIC_CARDS if option(state, "magic_cards") else CARDS


def streak_modifiers(state: GameState, side: str) -> list[Modifier]:
    """GEM-2.0.1: -5 for each turn in a row the side has won the initiative."""
    k = int(gs(state).get("streak", {}).get(side, 0))
    if not k:
        return []
    return [
        Modifier(
            -PENALTY * k, f"won the initiative the last {k} turn{'s' if k > 1 else ''}", "GEM-2.0.1"
        )
    ]


def roll_initiative(state: GameState, ctx: Context, first: str | None = None) -> list[str]:
    """Each side rolls a d20 less its streak penalty; ties roll again (GEM-2.0.1)."""
    if first:
        order = [first] + [s for s in state.sides if s != first]
        ctx.log.emit(
            "initiative",
            f"{first} has the initiative (set by the scenario)",
            actor=first,
            rule="GEM-2.0.1",
        )
    else:
        order = roll_off(
            ctx.dice,
            state.sides,
            20,
            rule="GEM-2.0.1",
            log=ctx.log,
            modifiers=lambda s: streak_modifiers(state, s),
        )
        ctx.log.emit(
            "initiative",
            f"{order[0]} wins the initiative for turn {state.turn}",
            actor=order[0],
            rule="GEM-2.0.1",
            outcome="first",
        )
    streak = gs(state).setdefault("streak", {})
    for s in state.sides:
        streak[s] = streak.get(s, 0) + 1 if s == order[0] else 0
    gs(state)["order"] = list(order)
    return order


def reset_turn_flags(state: GameState) -> None:
    for m in state.models.values():
        for k in PER_TURN + ("moved_done",):
            m.vars.pop(k, None)
        until = mv(m).get("disorganized_until")
        if until is not None and state.turn > int(until):
            m.set_status("disorganized", False)
            mv(m).pop("disorganized_until", None)
    gs(state)["missile_lost"] = {}


def cards_current(state: GameState) -> list[str] | None:
    deck = gs(state).get("deck") or []
    i = int(gs(state).get("card", 0))
    return deck[i] if 0 <= i < len(deck) else None


# ------------------------------------------------------------------ segments
def end_phase(state: GameState, ctx: Context) -> None:
    if state.phase == "cards":
        next_card(state, ctx)
        return
    _advance_segment(state, ctx)
    skip_idle(state, ctx)


def _advance_segment(state: GameState, ctx: Context) -> None:
    before = state.phase
    if before == "movement" and state.active is not None:
        vehicles.no_order(state, ctx, state.active)
    ended = phased(state).next(state)
    if ended:
        end_of_turn(state, ctx)
        return
    if state.phase != before:
        enter(state, ctx, before)


def enter(state: GameState, ctx: Context, left: str) -> None:
    """Hooks between segments: cards turned, forced vehicle moves, the deck, morale."""
    if left == "magic_defence":
        magic.resolve(state, ctx)
        victory.check(state, ctx)
    if state.phase in ("movement", "cards"):
        for m in state.live():
            if mtype(m) == "vehicle" and vehicles.forced_move(m) and not mv(m).get("moved_done"):
                vehicles.auto_drive(state, ctx, m)
    if state.phase == "cards":
        from .chapters import cards

        cards.build_deck(state, ctx)
        _show_card(state, ctx)
    if state.phase == "morale":
        from .chapters import morale

        morale.segment(state, ctx)
        victory.check(state, ctx)


def _show_card(state: GameState, ctx: Context) -> None:
    """Turn up cards until one belongs to a unit still on the table (GEM-2.5)."""
    deck = gs(state).get("deck") or []
    while True:
        card = cards_current(state)
        if card is None:
            d = state.vars[CARDS.KEY]
            d["i"] = len(d["order"]) - 1
            state.active = d["order"][-1]
            _advance_segment(state, ctx)
            return
        if unit_models(state, card[0]):
            state.active = unit_models(state, card[0])[0].side
            ctx.log.emit(
                "note",
                f"card {int(gs(state)['card']) + 1} of {len(deck)}: {card[1]} "
                f"for {card[0]} (GEM-2.5)",
                actor=card[0],
                rule="GEM-2.5",
            )
            return
        gs(state)["card"] = int(gs(state)["card"]) + 1


def next_card(state: GameState, ctx: Context) -> None:
    gs(state)["card"] = int(gs(state).get("card", 0)) + 1
    _show_card(state, ctx)
    skip_idle(state, ctx)


def idle(state: GameState, side: str) -> bool:
    """Nothing for ``side`` to decide in this segment (so play moves on by itself)."""
    ph = state.phase
    if ph == "morale":
        return True
    if ph == "magic_offence":
        return not magic.has_power(state, side, "offensive")
    if ph == "magic_defence":
        return not magic.has_power(state, side, "defensive")
    if ph == "melee":
        return not any(foes_in_melee(state, u) for u in state.units(side))
    if ph == "missile":
        return not any(
            missile.default_weapon(m) is not None and not mv(m).get("fired")
            for m in state.live(side)
        )
    return False


def skip_idle(state: GameState, ctx: Context) -> None:
    for _ in range(100):
        if state.over or state.active is None or state.phase in ("cards",) + SETUP_PHASES:
            return
        if not idle(state, state.active):
            return
        _advance_segment(state, ctx)


def start_turn(state: GameState, ctx: Context, first: str | None = None) -> None:
    reset_turn_flags(state)
    if state.turn <= 1:
        # SCENARIO_FORMAT "state.moved": how far it moved in its last activation, so
        # Table 2's moved modifiers apply in turn 1 and wear off with it (GEM-I-STATE)
        for m in state.models.values():
            if "moved_before" in m.vars:
                mv(m)["moved"] = float(mv(m)["moved_before"])
    for m in state.live():
        if mtype(m) == "vehicle":
            vehicles.start_of_turn(state, ctx, m)
    victory.check(state, ctx)
    if state.over:
        return
    order = (
        roll_initiative(state, ctx, first)
        if not option(state, "cards") or state.turn == 1
        else list(gs(state).get("order", state.sides))
    )
    if state.turn == 1 and _setup(state, ctx, order):
        return  # GEM-2 "1a. Setup": the segments begin once its decisions are made
    begin_turn(state, ctx, order)


def _setup(state: GameState, ctx: Context, order: list[str]) -> bool:
    """GEM-2 "1a. Setup" in the rulebook's order, each part when the scenario plays it:
    terrain (GEM-2.0.2), then the edges and the deployment (GEM-2.0.3, GEM-2.0.4). True
    while one of its decisions is owed."""
    from .chapters import deploy, terrain_setup

    if terrain_setup.wanted(state) and terrain_setup.start(state, ctx, order):
        return True
    if option(state, "deployment") and "setup" not in gs(state):
        return deploy.start(state, ctx, order)
    return False


def setup_step(decision: Mapping[str, Any]) -> Any:
    """The module that judges and carries out a setup decision (the engine holds it in
    ``state.pending``): terrain placement or deployment."""
    from .chapters import deploy, terrain_setup

    return terrain_setup if decision.get("kind") == terrain_setup.STEP else deploy


def answer(state: GameState, decision: dict, a: Action, ctx: Context) -> None:
    """A setup decision answered (``Gem.answer``). GEM-2 "1a. Setup": once none is owed,
    the next part of the setup, or turn 1's segments in the initiative order. Here and
    not in deploy.py or terrain_setup.py, so they never import this dispatch (no import
    cycle)."""
    setup_step(decision).answer(state, decision, a, ctx)
    if state.pending:
        return
    from .chapters.terrain_setup import placed

    here = placed(ctx.battlefield, state)  # the game follows after this action
    ctx = ctx if here is ctx.battlefield else Context(here, ctx.dice, ctx.log)
    order = list(gs(state)["order"])
    if setup_step(decision) is not setup_step({}) and _setup(state, ctx, order):
        return
    begin_turn(state, ctx, order)


def begin_turn(state: GameState, ctx: Context, order: list[str]) -> None:
    """The turn's segments, in initiative order ``order`` (after the setup on turn 1)."""
    gs(state)["order"] = order
    phased(state).start_turn(state, order)
    ctx.log.emit(
        "turn", f"turn {state.turn} begins: {', '.join(order)} in that order", rule="GEM-2"
    )
    if state.phase == "cards":  # no magic segments before the deck (GEM-I-MAGICCARDS)
        enter(state, ctx, "")
    skip_idle(state, ctx)


def end_of_turn(state: GameState, ctx: Context) -> None:
    """The last segment has ended: the engine's turn structure ends the turn."""
    TURNS.end_round(load("gem"), state, ctx)


def advance(state: GameState, ctx: Context) -> Action | None:
    return None if state.over else EndPhase()
