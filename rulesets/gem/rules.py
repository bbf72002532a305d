"""GEM's check and apply per action kind: each verb to the chapter that rules it.

Why one dispatcher: the window, the runner and the AI all ask "may this be done now?"
the same way; each verb's reasons come from the chapter that owns the rule (movement,
missile, melee, magic, vehicles, transport, deploy), and this module only adds "whose
segment is it"; flow.py then moves play on.
"""

from __future__ import annotations

from engine.actions import (
    Action,
    Charge,
    Concede,
    EndActivation,
    EndPhase,
    EndTurn,
    Fight,
    Move,
    Shoot,
)
from engine.ruleset import NOT_NOW, NOT_YOUR_TURN, Context, Legality, Reason, load
from engine.state import GameState, Model

from . import flow, victory
from .actions import field_of
from .chapters import blocks, formation, magic, melee, missile, movement, room, transport, vehicles
from .state import foes_in_melee, is_block, mtype, unit_models, unit_of

MOVE_VERBS = (
    "move",
    "charge",
    "change_frontage",
    "change_order",
    "drive",
    "embark",
    "disembark",
    "replace_driver",
)
PHASE_OF = {
    "embark": "movement",
    "disembark": "movement",
    "replace_driver": "movement",
    "move": "movement",
    "charge": "movement",
    "change_frontage": "movement",
    "change_order": "movement",
    "drive": "movement",
    "shoot": "missile",
    "fight": "melee",
}


# ------------------------------------------------------------------ who and when
def _live_actor(state: GameState, actor: str) -> tuple[str | None, Model | None, str]:
    """(unit, a model, problem) for an actor naming a model or a unit."""
    unit = unit_of(state, actor)
    if unit is None:
        return None, None, f"no model or unit '{actor}'"
    if actor in state.models:
        m = state.models[actor]
        if m.removed:
            return None, None, f"{actor} is no longer on the table"
        return unit, m, ""
    ms = unit_models(state, unit)
    if not ms:
        return None, None, f"unit {unit} is no longer on the table"
    return unit, (blocks.live_order(state, unit)[0] if is_block(state, unit) else ms[0]), ""


def _timing(state: GameState, kind: str, unit: str, side: str) -> str:
    if side != state.active:
        return Reason(f"it is {state.active}'s turn to act, not {side}'s", NOT_YOUR_TURN)
    want = PHASE_OF.get(kind)
    if state.phase == "cards" and want in ("movement", "missile"):
        card = flow.cards_current(state)
        if card is None:
            return Reason("no card is showing", NOT_NOW)
        need = "move" if want == "movement" else "fire"
        if card[0] != unit or card[1] != need:
            return Reason(f"the card showing is {card[1]} for {card[0]} (GEM-2.5)", NOT_NOW)
        return ""
    if want and state.phase != want:
        return Reason(
            f"{kind.replace('_', ' ')} belongs to the {want} segment; this is the "
            f"{state.phase.replace('_', ' ')} segment (GEM-2)",
            NOT_NOW,
        )
    return ""


def _target_model(state: GameState, target: str, frm: Model | None) -> Model | None:
    if target in state.models:
        t = state.models[target]
        return None if t.removed else t
    ms = unit_models(state, target)
    if not ms:
        return None
    if frm is None:
        return ms[0]
    from .chapters import measure

    return min(ms, key=lambda m: (measure.distance(frm, m), m.id))


# ------------------------------------------------------------------ check
def check(state: GameState, a: Action, ctx: Context) -> Legality:
    if state.over:
        return Legality.no("the game is over")
    kind = a.KIND
    if isinstance(a, Concede):
        return Legality.yes()
    if state.pending:  # a setup decision is owed: the engine says who answers, and how
        return flow.TURNS.check(load("gem"), state, a, ctx)
    if isinstance(a, (EndPhase, EndActivation)):
        return Legality.yes()
    if isinstance(a, EndTurn):
        return Legality.no("end the segments one by one")
    if kind in ("plan", "deploy", "choose"):
        from .chapters import deploy

        return deploy.check(state, a, ctx)
    if kind in transport.VERBS:
        probs = transport.problems(state, a, ctx, _timing)
        return Legality.no(*probs) if probs else Legality.yes()
    unit, m, why = _live_actor(state, a.actor)
    if unit is None or m is None:
        return Legality.no(why)
    side = m.side
    why = _timing(state, kind, unit, side)
    if kind == "cast":
        if side != state.active:
            return Legality.no(
                Reason(f"it is {state.active}'s turn to act, not {side}'s", NOT_YOUR_TURN)
            )
        if state.phase == "cards":
            card = flow.cards_current(state)
            if card is None or card != [unit, "magic"]:
                showing = f"{card[1]} for {card[0]}" if card else "none"
                return Legality.no(
                    f"spells are cast on the unit's magic card; showing: {showing} (GEM-2.5)"
                )
        tgt = unit_of(state, str(field_of(a, "target", "")))
        probs = magic.cast_problems(
            state, m, str(field_of(a, "spell", "")), tgt, int(field_of(a, "power", 0) or 0)
        )
        return Legality.no(*probs) if probs else Legality.yes()
    if why:
        return Legality.no(why)
    probs = problems(state, a, ctx, unit, m)
    if not probs:  # the rules allow it: is there room where it ends?
        t = _target_model(state, a.target, m) if isinstance(a, Charge) else None
        probs = room.action_problems(state, ctx, a, unit, m, t)
    return Legality.no(*probs) if probs else Legality.yes()


def _path(a: Move, start: tuple[float, float]) -> list[tuple[float, float]]:
    return [tuple(p) for p in a.waypoints(start)]  # type: ignore[misc]


def problems(state: GameState, a: Action, ctx: Context, unit: str, m: Model) -> list[str]:
    kind = a.KIND
    if isinstance(a, Move):
        if a.mode not in ("", "rush", "normal"):
            return [f"unknown move mode '{a.mode}' (gem: rush; charges use charge)"]
        if not a.path and a.to is None:
            return ["a move needs `to` or `path`"]
        if is_block(state, unit):
            rec = blocks.record(state, unit)
            path = _path(a, (rec["front"][0], rec["front"][1]))
            facing = rec["facing"] if a.facing is None else float(a.facing) % 360.0
            return movement.plan_block(state, ctx, unit, path, facing, a.mode == "rush").problems
        if a.actor not in state.models:
            return [f"{unit} is not a block: move its figures one by one"]
        return movement.plan_model(state, ctx, m, _path(a, m.pos), a.mode == "rush").problems
    if isinstance(a, Charge):
        t = _target_model(state, a.target, m)
        if t is None:
            return [f"no enemy '{a.target}' on the table"]
        if mtype(m) == "vehicle":
            return ["vehicles do not charge (drive into contact instead)"]
        return melee.charge_problems(
            state, ctx, unit, m.id if not is_block(state, unit) else m.id, t
        )
    if isinstance(a, Shoot):
        t = _target_model(state, a.target, m)
        if t is None:
            return [f"no target '{a.target}' on the table"]
        if a.actor not in state.models and is_block(state, unit):
            if not missile.can_volley(state, ctx, unit, t, a.weapon):
                front = blocks.front_rank(state, unit)
                w = front[0].weapon(a.weapon) if a.weapon else missile.default_weapon(front[0])
                return missile.problems(state, ctx, front[0], t, w) or [
                    f"no figure of {unit}'s front rank can fire at {t.id}"
                ]
            return []
        w = m.weapon(a.weapon) if a.weapon else missile.default_weapon(m)
        return missile.problems(state, ctx, m, t, w)
    if isinstance(a, Fight):
        foes = foes_in_melee(state, unit)
        if not foes:
            return [f"{unit} is not in a melee"]
        t = _target_model(state, a.target or foes[0], m)
        if t is None:
            return [f"no foe '{a.target}' on the table"]
        return melee.fight_problems(state, unit, m.id, t)
    if kind == "change_frontage":
        return formation.frontage_problems(state, unit, int(field_of(a, "files", 0) or 0))
    if kind == "change_order":
        return formation.order_problems(state, unit, str(field_of(a, "order", "")))
    if kind == "drive":
        if mtype(m) != "vehicle":
            return [f"{m.id} is not a vehicle"]
        legs = [(float(x), float(y)) for x, y in (field_of(a, "wheels", ()) or ())]
        return vehicles.drive_problems(state, m, float(field_of(a, "speed", 0.0) or 0.0), legs)
    return [
        f"gem has no '{kind}' (verbs: move, charge, shoot, fight, cast, change_frontage, "
        f"change_order, drive, embark, disembark, replace_driver, choose, plan, deploy, "
        f"end_phase)"
    ]


# ------------------------------------------------------------------ apply
def apply(state: GameState, a: Action, ctx: Context) -> None:
    kind = a.KIND
    if isinstance(a, Concede):
        loser = state.active
        others = [s for s in state.sides if s != loser]
        victory.finish(state, ctx, others[0] if len(others) == 1 else None, f"{loser} concedes")
        return
    if state.pending:  # the engine takes the decision off and calls ``answer``
        flow.TURNS.apply(load("gem"), state, a, ctx)
        return
    if isinstance(a, (EndPhase, EndActivation)):
        flow.end_phase(state, ctx)
        return
    if kind in transport.VERBS:
        transport.apply(state, a, ctx)
        _after(state, ctx)
        return
    unit, m, _ = _live_actor(state, a.actor)
    assert unit is not None and m is not None
    if kind == "cast":
        tgt = unit_of(state, str(field_of(a, "target", "")))
        power = int(field_of(a, "power", 0))
        if state.phase == "cards":  # a magic card is worked out at once (GEM-2.5)
            magic.cast_at_once(state, ctx, m, str(field_of(a, "spell", "")), str(tgt), power)
            if magic.can_cast_more(state, unit):
                victory.check(state, ctx)
                return
        else:
            magic.cast(state, ctx, m, str(field_of(a, "spell", "")), str(tgt), power)
    elif isinstance(a, Move):
        if is_block(state, unit):
            rec = blocks.record(state, unit)
            path = _path(a, (rec["front"][0], rec["front"][1]))
            facing = rec["facing"] if a.facing is None else float(a.facing) % 360.0
            plan = movement.plan_block(state, ctx, unit, path, facing, a.mode == "rush")
            rush = a.mode == "rush"
            movement.apply_block_move(state, ctx, unit, path, facing, plan, rush, melee.overrun)
        else:
            path = _path(a, m.pos)
            plan = movement.plan_model(state, ctx, m, path, a.mode == "rush")
            movement.apply_model_move(state, ctx, m, path, a.facing, plan, a.mode == "rush")
    elif isinstance(a, Charge):
        t = _target_model(state, a.target, m)
        assert t is not None
        melee.charge(state, ctx, unit, m.id, t)
    elif isinstance(a, Shoot):
        t = _target_model(state, a.target, m)
        assert t is not None
        if a.actor not in state.models and is_block(state, unit):
            for s in missile.volley_shooters(state, ctx, unit, t, a.weapon):
                if t.removed:
                    break
                w = s.weapon(a.weapon) if a.weapon else missile.default_weapon(s)
                missile.shoot(state, ctx, s, t, w)  # type: ignore[arg-type]
        else:
            w = m.weapon(a.weapon) if a.weapon else missile.default_weapon(m)
            missile.shoot(state, ctx, m, t, w)  # type: ignore[arg-type]
    elif isinstance(a, Fight):
        foes = foes_in_melee(state, unit)
        t = _target_model(state, a.target or foes[0], m)
        assert t is not None
        melee.fight(state, ctx, unit, m.id, t)
    elif kind == "change_frontage":
        formation.change_frontage(state, ctx, unit, int(field_of(a, "files", 0)))
    elif kind == "change_order":
        formation.change_order(state, ctx, unit, str(field_of(a, "order", "")))
    elif kind == "drive":
        legs = [(float(x), float(y)) for x, y in (field_of(a, "wheels", ()) or ())]
        speed = float(field_of(a, "speed", 0.0) or 0.0)
        vehicles.drive_checked(state, ctx, m, speed, legs)
    _after(state, ctx)


def _after(state: GameState, ctx: Context) -> None:
    """After an action: has anyone won, and whose decision is it now."""
    victory.check(state, ctx)
    if state.phase == "cards" and not state.over:
        flow.next_card(state, ctx)
    elif not state.over:
        flow.skip_idle(state, ctx)
