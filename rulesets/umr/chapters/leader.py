"""The leader's gift (UMR-LEADER, UMR-I-LEADER): once a round, an extra roll of any kind
for any character of the team, himself included.

Why apart from movement and combat: the gift spends no action die and may be given at
any point of the side's turn.
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr import flow
from rulesets.umr.actions import Lead
from rulesets.umr.chapters import common, measure
from rulesets.umr.chapters.abilities import DRONE, ability_of
from rulesets.umr.state import activated, mv

# --------------------------------------------------------------------------- leader


def is_leader(m: Model) -> bool:
    a = ability_of(m.stats)
    return bool(a and a.key == "leader")


def lead_targets(state: GameState, m: Model) -> list[Model]:
    """Teammates who could still use a die this round: characters (not drones) whose
    activation has not ended."""
    done = set(activated(state))
    return [
        o
        for o in measure.live(state)
        if o.side == m.side
        and o.id != m.id
        and o.unit not in done
        and o.stats.get("ability") != DRONE
    ]


def can_lead(state: GameState, m: Model) -> bool:
    return is_leader(m) and "leader" not in mv(m).get("used", ()) and bool(lead_targets(state, m))


#: What the leader's extra roll may be (UMR-LEADER "an additional dice roll of any kind").
GIFT_ROLLS = ("action", "defence", "damage")


def check_lead(state: GameState, a: Lead, ctx: Context) -> list[str]:
    """UMR-LEADER: "once per game round, a leader may give any character on your team an
    additional dice roll of any kind": himself included, at any point of his side's
    turn in the round (before, during or after his own activation)."""
    if state.over:
        return ["the game is over"]
    m = state.models.get(a.actor)
    if m is None or m.removed:
        return [f"'{a.actor}' is not a model on the table"]
    if m.side != state.active:
        return [f"it is {state.active}'s turn to activate, not {m.side}'s (UMR-ROUND)"]
    if not is_leader(m):
        return [f"{m.id} is not a leader (UMR-LEADER)"]
    if "leader" in mv(m).get("used", ()):
        return [f"{m.id} has already given a roll this round (once per round, UMR-LEADER)"]
    roll = a.roll or "action"
    if roll not in GIFT_ROLLS:
        return [f"'{roll}' is not a roll the leader can give (one of {', '.join(GIFT_ROLLS)})"]
    t = state.models.get(a.target)
    if t is None or t.removed:
        return [f"'{a.target}' is not a model on the table"]
    if t.side != m.side:
        return [f"{t.id} is not on {m.id}'s team (UMR-LEADER)"]
    if t.stats.get("ability") == DRONE:
        return [f"{t.id} is a drone, not a character (UMR-LEADER)"]
    if roll == "action" and t.unit in activated(state):
        return [f"{t.id} has already activated this round: the die would be lost (UMR-LEADER)"]
    return []


def apply_lead(state: GameState, a: Lead, ctx: Context) -> None:
    """Give the roll. An action die joins the target's dice for this round; a defence
    die is rolled with his next defence this round, keeping the higher; a damage die is
    added to his next damage roll this round (UMR-I-LEADER)."""
    m = state.models[a.actor]
    t = state.models[a.target]
    if flow.current(state) is None and m.unit in flow.ready(state, m.side):
        common.start(state, m)
    mv(m)["used"] = [*mv(m).get("used", []), "leader"]
    roll = a.roll or "action"
    if roll == "action":
        mv(t)["granted"] = int(mv(t).get("granted", 0)) + 1
        what = "an extra action die for this round, for any action"
    else:
        mv(t)["gifts"] = [*mv(t).get("gifts", []), roll]
        what = f"an extra {roll} die for his next {roll} roll this round"
    ctx.log.emit(
        "status",
        f"{m.id} gives {t.id} {what} (UMR-LEADER)",
        actor=m.id,
        target=t.id,
        rule="UMR-LEADER",
        outcome="die given",
        data={} if roll == "action" else {"roll": roll},
    )
