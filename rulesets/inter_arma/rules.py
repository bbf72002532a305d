"""The turn (IA-SEQUENCE, IA-INITIATIVE) and check/apply per action kind.

Why phases: the text moves every side first, then shoots, then fights ("Combat happens
after movement is finished on every side"), each phase played by the sides in initiative
order; the order is rolled once, in turn 1, and changes only by a morale result.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import NOT_YOUR_TURN, Context, Reason
from engine.state import GameState
from engine.turns import roll_off
from rulesets.inter_arma import melee, movement, ranged, spotting

PHASES = ("movement", "ranged", "melee")
KEY = "ia"


def start(state: GameState, ctx: Context, first: str | None) -> None:
    """IA-INITIATIVE: a d6 per side, highest first, ties reroll; or the scenario's side."""
    if first:
        order = [first] + [s for s in state.sides if s != first]
        ctx.log.emit(
            "initiative",
            f"{first} has the initiative, as the scenario says (IA-INITIATIVE c)",
            actor=first,
            rule="IA-INITIATIVE",
        )
    else:
        order = roll_off(ctx.dice, state.sides, 6, rule="IA-INITIATIVE", log=ctx.log)
        ctx.log.emit(
            "initiative",
            f"{order[0]} has the initiative (IA-INITIATIVE a)",
            actor=order[0],
            rule="IA-INITIATIVE",
        )
    state.vars[KEY] = {"order": order, "i": 0}
    state.vars.setdefault("losses", {s: 0 for s in state.sides})
    state.turn = 1
    state.phase = PHASES[0]
    state.active = order[0]


def check(state: GameState, a: act.Action, ctx: Context) -> list[str]:
    if state.over:
        return [Reason("the game is over", "game_over")]
    if isinstance(a, (act.EndPhase, act.Concede)):
        return []
    if isinstance(a, act.EndTurn):
        return ["end_phase ends each phase in turn (IA-SEQUENCE)"]
    m = state.models.get(a.actor)
    if m is None or m.removed:
        return [Reason(f"no figure '{a.actor}' on the table", "no_such_model")]
    if m.side != state.active:
        return [
            Reason(
                f"{m.id} is {m.side}'s, and it is {state.active}'s {state.phase} phase (IA-SEQUENCE)",
                NOT_YOUR_TURN,
            )
        ]
    want = {act.Move: "movement", act.Shoot: "ranged", act.Fight: "melee"}
    for cls, phase in want.items():
        if isinstance(a, cls):
            if state.phase != phase:
                return [
                    f"{a.KIND} belongs to the {phase} phase, not the {state.phase} phase (IA-SEQUENCE)"
                ]
            if isinstance(a, act.Move):
                return movement.check(state, ctx, a)
            if isinstance(a, act.Shoot):
                return ranged.check(state, ctx, a)
            if isinstance(a, act.Fight):
                return melee.check(state, ctx, a)
    return [f"inter_arma has no '{a.KIND}' action (verbs: move, shoot, fight, end_phase, concede)"]


def apply(state: GameState, a: act.Action, ctx: Context) -> None:
    if isinstance(a, act.Concede):
        side = state.active or ""
        winner = next((s for s in state.sides if s != side), None)
        ctx.log.emit("status", f"{side} concedes", actor=side, outcome="concede")
        state.over = {"winner": winner, "reason": f"{side} conceded"}
        state.active = None
        after_battle(state, ctx)
        return
    if isinstance(a, act.EndPhase):
        end_phase(state, ctx)
        return
    if isinstance(a, (act.Shoot, act.Fight)):
        t = state.models[a.target]
        for side in (t.side, state.models[a.actor].side):
            spotting.raise_alarm(state, ctx, side, f"{a.actor} attacks {a.target}")
    if isinstance(a, act.Move):
        movement.apply(state, ctx, a)
    elif isinstance(a, act.Shoot):
        ranged.apply(state, ctx, a)
    elif isinstance(a, act.Fight):
        melee.apply(state, ctx, a)
    settle(state, ctx)


def end_phase(state: GameState, ctx: Context) -> None:
    d = state.vars[KEY]
    ctx.log.emit(
        "status",
        f"{state.active} ends its {state.phase} phase (IA-SEQUENCE)",
        actor=state.active or "",
        rule="IA-SEQUENCE",
    )
    d["i"] += 1
    if d["i"] < len(d["order"]):
        state.active = d["order"][d["i"]]
        return
    d["i"] = 0
    k = PHASES.index(state.phase) + 1
    if state.phase == "movement":
        spotting.look(state, ctx)
    if k < len(PHASES):
        state.phase = PHASES[k]
        state.active = d["order"][0]
        return
    end_turn(state, ctx)


def end_turn(state: GameState, ctx: Context) -> None:
    """IA-SEQUENCE: the turn ends after melee; the game ends at the scenario's turn limit."""
    from rulesets.inter_arma import morale

    morale.end_of_turn(state, ctx)
    settle(state, ctx)
    if state.over:
        return
    limit = int(state.vars.get("turn_limit", 0) or 0)
    if limit and state.turn >= limit:
        finish_on_losses(state, ctx, f"turn limit ({limit}) reached")
        return
    state.turn += 1
    state.phase = PHASES[0]
    state.active = state.vars[KEY]["order"][0]
    ctx.log.emit(
        "status",
        f"turn {state.turn} begins; {state.active} moves first (IA-SEQUENCE)",
        rule="IA-SEQUENCE",
    )


def fighting(state: GameState, side: str) -> list:
    """The side's figures able to fight: not wounded, not civilians (IA-I-ALLIES)."""
    return [m for m in state.live(side) if "wounded" not in m.status and not m.vars.get("civilian")]


def settle(state: GameState, ctx: Context) -> None:
    """A side with no figure able to fight has lost (IA-I-END)."""
    if state.over:
        return
    left = [s for s in state.sides if fighting(state, s)]
    if len(left) <= 1:
        winner = left[0] if left else None
        state.over = {
            "winner": winner,
            "reason": "the enemy has no figure left able to fight (IA-I-END)",
        }
        state.active = None
        ctx.log.emit("status", state.over["reason"], outcome="over")
        after_battle(state, ctx)


def finish_on_losses(state: GameState, ctx: Context, why: str) -> None:
    """IA-I-END: at the turn limit the side that lost fewer figures wins; equal is a draw."""
    losses = {
        s: len(
            [
                m
                for m in state.models.values()
                if m.side == s and (m.removed or "wounded" in m.status)
            ]
        )
        for s in state.sides
    }
    best = min(losses.values())
    winners = [s for s, v in losses.items() if v == best]
    winner = winners[0] if len(winners) == 1 else None
    state.over = {
        "winner": winner,
        "reason": f"{why}: losses {', '.join(f'{s} {v}' for s, v in losses.items())} (IA-I-END)",
    }
    state.active = None
    ctx.log.emit("status", state.over["reason"], outcome="over")
    after_battle(state, ctx)


def after_battle(state: GameState, ctx: Context) -> None:
    """IA-WOUNDED: in a campaign (``options.campaign``) the wounded throw for their fate."""
    from rulesets.inter_arma import goals

    if goals.campaign(state):
        goals.fates(state, ctx)
