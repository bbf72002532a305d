"""Who wins: the last side standing, a concession, or at the turn limit the points of
casualties, then damage, then units broken, then ground taken (SWOMP "Winning the
Game" is unwritten: SWOMP-I-VICTORY).

Why apart: the end of the game is read by the round flow (after every action and at
the turn limit), by the dispatch (a concession) and by the AI's score; it depends on
nothing but the models and the unit records.
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model

from .chapters import core, deploy
from .state import gv, mv

R_VICTORY = "SWOMP-VICTORY"


def casualty_points(state: GameState, side: str) -> int:
    """Points of enemy models this side has removed (SWOMP-I-VICTORY); a model that
    climbed into a hatch has left the table but is no casualty (SWOMP-I-MAN)."""
    return sum(
        int(mv(m).get("points", 0))
        for m in state.models.values()
        if m.removed and m.side != side and not mv(m).get("aboard")
    )


def lost_share(m: Model) -> float:
    """The share of a model's HP lost (1 once removed). A hatch emptied by its gunner
    jumping out is not damage: his HP walk beside the vehicle (SWOMP-I-VEH-CC)."""
    if m.removed:
        return 0.0 if mv(m).get("aboard") else 1.0
    if m.max_hp <= 0:
        return 0.0
    full = mv(m).get("veh", {}).get("locations", {})
    out = sum(int(full.get(c, 0)) for c in mv(m).get("crew_out", []))
    return max(0.0, (m.max_hp - m.hp - out) / m.max_hp)


def damage_points(state: GameState, side: str) -> float:
    """Points-weighted damage this side has done to enemy models still on the table: each
    counts its points times the share of its HP lost."""
    return sum(
        int(mv(m).get("points", 0)) * lost_share(m)
        for m in state.models.values()
        if m.side != side and not m.removed
    )


def units_broken(state: GameState, side: str) -> int:
    """Enemy units broken and still on the table."""
    live = state.units()
    return sum(
        1
        for u, info in core.sw(state)["units"].items()
        if info.get("broken") and u in live and live[u][0].side != side
    )


def record_home(state: GameState, ctx: Context) -> None:
    """Note each side's own table edge (the deployment edges: the scenario's options, else
    the edge nearest its models as set out) and the table's size, for ground taken."""
    opts = gv(state).get("options", {})
    edges = dict(opts.get("edges", {}) or {})
    for side in state.sides:
        edges.setdefault(side, deploy.nearest_edge(ctx, state.live(side)))
    bf = ctx.battlefield
    core.sw(state)["home"] = {"edges": edges, "table": [bf.width, bf.depth]}


def advance(m: Model, edge: str, table: list[float]) -> float:
    """How far the model stands from its own table edge, in inches."""
    w, d = table
    return {"south": m.y, "north": d - m.y, "west": m.x, "east": w - m.x}[edge]


def ground(state: GameState, side: str) -> float:
    """Ground taken: the points-weighted mean distance of the side's models on the table
    from its own edge (0 without a record of the edges)."""
    home = core.sw(state).get("home")
    ms = state.live(side)
    if not home or side not in home["edges"] or not ms:
        return 0.0
    weights = [max(1, int(mv(m).get("points", 0))) for m in ms]
    total = sum(w * advance(m, home["edges"][side], home["table"]) for w, m in zip(weights, ms))
    return total / sum(weights)


def tally(state: GameState, side: str) -> tuple[int, float, int, float]:
    """The turn-limit measures in order (SWOMP-I-VICTORY): casualties, then damage, then
    units broken, then ground taken. Damage is rounded to a hundredth and ground to a
    tenth of an inch so equal play compares equal."""
    return (
        casualty_points(state, side),
        round(damage_points(state, side), 2),
        units_broken(state, side),
        round(ground(state, side), 1),
    )


MEASURES = (
    "points of casualties inflicted",
    "damage inflicted (points)",
    "units broken",
    "ground taken (inches from own edge)",
)


def decide(tallies: dict[str, tuple]) -> tuple[str | None, int]:
    """The winner by the first measure that separates the leaders, and that measure's
    index (len(MEASURES) when every measure is level: a draw)."""
    top = list(tallies)
    for k in range(len(MEASURES)):
        best = max(tallies[s][k] for s in top)
        top = [s for s in top if tallies[s][k] == best]
        if len(top) == 1:
            return top[0], k
    return None, len(MEASURES)


def finish_on_points(state: GameState, ctx: Context, why: str) -> None:
    """The game ends at the turn limit: the side ahead on casualties wins; level on
    casualties, the one that did more damage; still level, the one that broke more
    units; still level, the one that has taken more ground ("Every battle has a
    victor"); level on all four, a draw."""
    tallies = {s: tally(state, s) for s in state.sides}
    winner, k = decide(tallies)
    parts = []
    for i in range(min(k + 1, len(MEASURES))):
        vals = ", ".join(f"{s} {tallies[s][i]:g}" for s in state.sides)
        parts.append(f"{MEASURES[i]} {vals}")
    text = "; level, so ".join(parts)
    state.over = {"winner": winner, "reason": f"{why}: {text}"}
    state.active = None
    ctx.log.emit(
        "note",
        f"game over: {why}; {text}: {winner or 'a draw'}",
        rule=R_VICTORY,
        data={"tallies": {s: list(v) for s, v in tallies.items()}},
    )


def check_over(state: GameState, ctx: Context) -> None:
    if state.over:
        return
    alive = [s for s in state.sides if state.live(s)]
    if len(alive) <= 1:
        state.over = {"winner": alive[0] if alive else None, "reason": "last side standing"}
        state.active = None
        ctx.log.emit(
            "note",
            f"game over: {alive[0] if alive else 'nobody'} is the last side standing",
            rule=R_VICTORY,
        )
        return


def concede(state: GameState, ctx: Context, side: str | None) -> None:
    """The side to act gives up; with one opponent left, that opponent wins."""
    others = [s for s in state.sides if s != side]
    state.over = {"winner": others[0] if len(others) == 1 else None, "reason": f"{side} concedes"}
    state.active = None
    ctx.log.emit("note", f"{side} concedes the battle", rule=R_VICTORY)
