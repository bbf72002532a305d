"""Reactions and overwatch in play: an enemy's move gives the models that may answer it
a decision (fire or hold), and the answer fires as the switch says.

Why a decision: the text lets the reacting player choose whether and when to react; the
engine's pending decisions hand the choice to that side (the computer answers for its
own side), and nothing else can happen until it is answered. A model reacts to the
model that moved; the closest-target rule does not apply to it (GM-I-REACT).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Choose, Shoot
from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini import build
from rulesets.gemini.actions import Overwatch
from rulesets.gemini.chapters import measure, shooting, switches
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import reactions as R
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.state import mv

KIND = "gemini_reaction"
#: the decision a charged model's side answers: run, stand and fire, or hold
CHARGE_KIND = "gemini_charge_reaction"
#: terrain a move into or between cover touches (GM-OVERWATCH-OLD)
COVER_KINDS = (
    "wall",
    "building",
    "rocks",
    "woods",
    "heavy_woods",
    "brush",
    "hedge",
    "fence",
    "low_wall",
)


def overwatch_problems(state: GameState, m: Model) -> list[str]:
    """GM-OVERWATCH-ARAP: with ``overwatch = "arap"`` in the activation game, a model
    with a shooting weapon, free to react, may spend an action on overwatch
    (GM-I-OVERWATCH: elsewhere it enters by neither moving nor firing)."""
    sw = switches.of(state)
    if sw.overwatch != "arap":
        return ['overwatch as an action needs overwatch = "arap" (GM-OVERWATCH-ARAP)']
    if sw.turns != "arap":
        return ["outside the activation game a model goes into overwatch by neither moving nor firing in its turn (GM-I-OVERWATCH)"]  # fmt: skip
    if "overwatch" in m.status:
        return [f"{m.id} is in overwatch already"]
    if not build.ranged(m):
        return [f"{m.id} has no shooting weapon (GM-I-OVERWATCH)"]
    why = R.may_react(m, -1, measure.engaged(state, m))
    return [why.replace("no reactions", "no overwatch")] if why else []


def enter_overwatch(state: GameState, ctx: Context, a: Overwatch) -> None:
    m = state.models[a.actor]
    m.set_status("overwatch", True)
    say(ctx, f"{m.id} goes into overwatch", m.id, R.R_ARAP, "overwatch")


def moved_off_overwatch(state: GameState, ctx: Context, m: Model, moved: float) -> None:
    """GM-OVERWATCH-ARAP: an overwatch model may turn but a move ends its overwatch."""
    if switches.of(state).overwatch == "arap" and moved > 1e-6:
        why = R.lose_overwatch(m, "it moved")
        if why:
            say(ctx, why, m.id, R.R_ARAP, "overwatch lost")


def ask_overwatch_at_charge(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """GM-OVERWATCH-ARAP: before the charger moves, each model of the charged side in
    ARAP overwatch within 24" of it, that could shoot it, is asked to fire; the last
    question carries the charge on (``reacting``). True when any is asked."""
    if switches.of(state).overwatch != "arap":
        return False
    asked: list[dict[str, Any]] = []
    for o in state.live(t.side):
        if "overwatch" not in o.status or R.may_react(o, -1, measure.engaged(state, o)):
            continue
        if measure.gap(o, m) > R.OVERWATCH_RANGE + 1e-9 or _problems(state, ctx, o, m):
            continue
        d: dict[str, Any] = {"reactor": o.id, "target": m.id, "mode": "arap", "charged": t.id}
        asked.append({"side": o.side, "kind": KIND, "options": ["fire", "hold"], "verbs": ["choose"],
                      "text": f"{m.id} charges {t.id}: {o.id} may fire from overwatch", "data": d})  # fmt: skip
    if asked:
        asked[-1]["data"]["then"] = "charge"
        state.pending.extend(asked)
    return bool(asked)


def _mode(state: GameState, m: Model) -> str:
    """How ``m`` may answer a move now: "old" or "arap" overwatch, "reaction", or ""."""
    sw = switches.of(state)
    if "overwatch" in m.status and sw.overwatch != "none":
        return str(sw.overwatch)
    if "react_wait" in m.vars:  # its reaction waits for the end of the turn (GM-I-REACT-WAIT)
        return ""
    if sw.reactions and not R.may_react(m, state.turn, measure.engaged(state, m)):
        return "reaction"
    return ""


def _reach(mode: str, w: dict[str, Any]) -> float:
    if mode == "reaction":
        return R.REACTION_RANGE
    if mode == "arap":
        return R.OVERWATCH_RANGE
    return float(w.get("range", 0))


def _problems(state: GameState, ctx: Context, m: Model, t: Model) -> list[str]:
    p = shooting.plan(state, ctx, Shoot(actor=m.id, target=t.id))
    return [str(x) for x in p.problems if "(GM-TARGET)" not in str(x)]


def after_move(
    state: GameState, ctx: Context, mover: Model, path: list[tuple[float, float]]
) -> None:
    """After an enemy model moved or charged: each model that may react or is in
    overwatch, and could shoot it, is asked whether to fire."""
    if mover.removed:
        return
    into_cover = len(path) > 1 and ctx.table.first_touched(path, COVER_KINDS) is not None
    for m in state.live():
        if m.side == mover.side:
            continue
        mode = _mode(state, m)
        w = shooting.pick_weapon(m, "")
        if not mode or w is None or measure.gap(m, mover) > _reach(mode, w) + 1e-9:
            continue
        if _problems(state, ctx, m, mover):
            continue
        state.pending.append(
            {
                "side": m.side,
                "kind": KIND,
                "text": f"{m.id} may fire at {mover.id} ({mode.replace('old', 'overwatch')})",
                "options": ["fire", "wait", "hold"] if mode == "reaction" else ["fire", "hold"],
                "verbs": ["choose", "move"] if mode == "reaction" else ["choose"],
                "data": {"reactor": m.id, "target": mover.id, "mode": mode, "cover": into_cover},
            }
        )


def ask_charge_reaction(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """GM-CHARGE-REACTIONS: a charged model that may react is asked, before the charger
    moves, whether to stand and fire (when it could shoot the charger), run or hold.
    True when the question is put (the charge then waits for the answer)."""
    if not switches.of(state).reactions or t.removed:
        return False
    if R.may_react(t, state.turn, measure.engaged(state, t)):
        return False
    opts = ["run", "hold"]
    w = shooting.pick_weapon(t, "")
    if w is not None and not _problems(state, ctx, t, m):
        opts.insert(0, "stand_and_fire")
    state.pending.append(
        {
            "side": t.side,
            "kind": CHARGE_KIND,
            "text": f"{m.id} charges {t.id}: run, stand and fire, or hold?",
            "options": opts,
            "verbs": ["choose"],
            "data": {"charger": m.id, "target": t.id},
        }
    )
    return True


def answers(decision: dict[str, Any]) -> bool:
    return decision.get("kind") == KIND


def answer(state: GameState, ctx: Context, decision: dict[str, Any], action: Action) -> None:
    """Carry out "fire" or "hold" for the reactor named in the decision (a reaction
    move is answered by ``reacting.move``)."""
    d = decision["data"]
    m, t = state.models[d["reactor"]], state.models[d["target"]]
    if isinstance(action, Choose) and action.option == "wait" and not m.removed:
        mv(m)["react_wait"] = {"target": t.id, "turn": state.turn}
        say(ctx, f"{m.id} waits to react at the end of the turn", m.id, R.R_REACT, "waiting")
        return
    if not isinstance(action, Choose) or action.option != "fire" or m.removed or t.removed:
        return
    fire_reaction(state, ctx, m, t, d["mode"], bool(d.get("cover")))
    late_done(m, d)


def late_done(m: Model, d: dict[str, Any]) -> None:
    """A late reaction counts for the turn it waited in, not the one now begun."""
    if d.get("late"):
        mv(m)["reacted"] = int(d["turn"])


def offer_waited(state: GameState, ctx: Context, ended: str | None) -> None:
    """GM-REACTIONS (GM-I-REACT-WAIT): at the end of side ``ended``'s turn (None: of the
    game turn) each enemy model that chose to wait is asked again: fire at the model
    that called the reaction (when it still could), move, or hold. A model that may no
    longer react (in combat, pinned, routing...) has lost its chance."""
    for m in state.live():
        if "react_wait" not in m.vars or (ended is not None and m.side == ended):
            continue
        wait = mv(m).pop("react_wait")
        t = state.models[str(wait["target"])]
        if R.may_react(m, int(wait["turn"]), measure.engaged(state, m)):
            continue
        fire = _may_fire_late(state, ctx, m, t)
        state.pending.append(
            {
                "side": m.side,
                "kind": KIND,
                "text": f"{m.id} reacts at the end of the turn: "
                + (f"fire at {t.id}, move or hold?" if fire else "move or hold?"),
                "options": ["fire", "hold"] if fire else ["hold"],
                "verbs": ["choose", "move"],
                "data": {
                    "reactor": m.id,
                    "target": t.id,
                    "mode": "reaction",
                    "late": True,
                    "turn": int(wait["turn"]),
                },  # fmt: skip
            }
        )


def _may_fire_late(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """Whether the waiting model could still shoot the model it waited for."""
    if t.removed or shooting.pick_weapon(m, "") is None:
        return False
    if measure.gap(m, t) > R.REACTION_RANGE + 1e-9:
        return False
    return not _problems(state, ctx, m, t)


def fire_reaction(
    state: GameState, ctx: Context, m: Model, t: Model, mode: str, cover: bool = False
) -> None:
    """A shooting reaction (2d6 against Act: the shots by class and successes), an
    overwatch shot ("old": the usual shots, −1 into or between cover; "arap": as two
    successes), or a stand and fire at a charger (as a reaction)."""
    if _problems(state, ctx, m, t):
        say(ctx, f"{m.id} can no longer fire at {t.id}", m.id, R.R_REACT, "held")
        return
    p = shooting.plan(state, ctx, Shoot(actor=m.id, target=t.id))
    assert p.weapon is not None
    w = p.weapon
    cls, usual = str(w.get("class", "assault")), int(w.get("shots", 1))
    if mode == "reaction":
        roll = R.reaction_roll(ctx.dice, m, state.turn)
        report_all(ctx, roll.rolls, m.id, t.id)
        shots = R.reaction_shots(cls, usual, roll.successes)
    elif mode == "arap":
        shots = R.overwatch_shots(w, measure.gap(m, t))
    else:
        shots = usual
        if cover and p.cover == "":
            p.mods.append(Modifier(-1, "moving into or between cover", R.R_OLD))
            p.need = T.hit_need(int(m.stat("BS")), sum(x.value for x in p.mods))
    if mode in ("old", "arap"):
        R.lose_overwatch(m, "it fired")
    if shots <= 0:
        say(
            ctx,
            f"{m.id} cannot fire its {w.get('name', 'weapon')} as a reaction",
            m.id,
            R.R_REACT,
            "held",
        )
        return
    shooting.fire(state, ctx, m, t, p, shots, {})


def overwatch_at_turn_end(state: GameState, m: Model, turn: int) -> None:
    """GM-OVERWATCH-OLD (GM-I-OVERWATCH for "arap"): a model that neither moved nor
    fired in its turn is in overwatch."""
    sw = switches.of(state)
    if sw.overwatch == "none" or m.removed or (sw.overwatch == "arap" and sw.turns == "arap"):
        return  # none, or entered as an action (GM-OVERWATCH-ARAP)
    moved = mv(m).get("moved") == turn
    fired = mv(m).get("shot") == turn
    if build.ranged(m):
        R.old_overwatch_at_turn_end(m, moved, fired)
