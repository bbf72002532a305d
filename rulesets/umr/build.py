"""Character creation (UMR "Character creation", steps 1-3, and the optional RPG rules):
a scenario's model entry becomes a Model, and an army is checked against the ability
limits.

Why here and not in the rules: every limit is a property of the roster, not of play, so
a broken character is refused when the file is loaded (``main.py run`` exits 2) with one
message that names the model and the limit it breaks.

How the personality-point budget is validated (a designer's interpretation, see
UMR-I-POINTS): the values under ``stats`` are personality points, not final numbers, so
``HEALTH = 1`` means one point (+5 health). A character may spend *at most* three points
(six for infantry) on MOVE, MELEE, BALLISTIC, DAMAGE, DEFENSE and HEALTH, at most two on
one stat, and no stat may end above +3 once ability bonuses are added; unspent points are
allowed (the rulebook lets story NPCs be "dumbed down"). The RPG stats DIPLOMACY,
PERCEPTION and MECHANICS share one extra point of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.building import Build, Builder
from engine.ruleset import load
from engine.state import Model
from rulesets.umr.chapters.abilities import ABILITIES, DRONE, ability_of, known_names, normalise
from rulesets.umr.state import mv

#: The stats personality points may go on (UMR-PERSONALITY).
STATS = ("MOVE", "MELEE", "BALLISTIC", "DAMAGE", "DEFENSE", "HEALTH")
#: The optional RPG stats (UMR-RPG-STATS).
RPG_STATS = ("DIPLOMACY", "PERCEPTION", "MECHANICS")
#: Every stats key a scenario may give.
STAT_KEYS = ("AD", *STATS, *RPG_STATS, "ability")

ACTION_DICE = 2
BASE_HEALTH = 15
HEALTH_PER_POINT = 5
POINTS = 3
INFANTRY_POINTS = 3
MAX_ON_ONE_STAT = 2
MAX_COMBINED = 3
RPG_POINTS = 1
DRONE_DICE = 1
DRONE_HEALTH = 10
DRONES_PER_OPERATOR = 2

#: ``state`` keys a scenario may set on a UMR model.
STATE_KEYS = ("hp", "moved", "operator", "elev", "on")


def _int_problem(v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, int):
        return f"expected an integer, got {type(v).__name__}"
    if v < 0:
        return f"must be 0 or more, got {v}"
    return None


def max_health(stats: Mapping[str, Any]) -> int:
    """15 health, +5 for each personality point on HEALTH; a drone has 10 (UMR-HEALTH)."""
    if stats.get("ability") == DRONE:
        return DRONE_HEALTH
    return BASE_HEALTH + HEALTH_PER_POINT * int(stats.get("HEALTH", 0))


def point_budget(ability: str) -> int:
    """Personality points a character may spend: three, six for infantry (UMR-INFANTRY)."""
    return POINTS + (INFANTRY_POINTS if ability == "infantry" else 0)


class UmrBuilder(Builder):
    """UMR characters and drones on the engine's build: the personality points, the
    special ability and the drone's operator (see the module's docstring)."""

    texts = {
        "unknown_profile": "model '{mid}': unknown profile '{name}' (known: {known})",
        "unknown_stat": "model '{mid}': unknown stat for umr (stats: {keys})",
        "unknown_state": "model '{mid}': unknown state key for umr (state: {state_keys})",
    }
    state_keys = STATE_KEYS

    def own_keys(self, b: Build) -> None:
        """The ability and the personality points; the model's stats become the points
        spent, its action dice and its ability (UMR Step 1-3)."""
        mid, stats = b.mid, b.stats
        ability = self._ability(b)
        is_drone = ability == DRONE
        for k in (*STATS, *RPG_STATS, "AD"):
            if k in stats:
                bad = _int_problem(stats[k])
                if bad:
                    b.refuse(f"stats.{k}", f"model '{mid}': {bad}")
                    stats[k] = 0
        dice = int(stats.get("AD", DRONE_DICE if is_drone else ACTION_DICE))
        want = DRONE_DICE if is_drone else ACTION_DICE
        if dice != want:
            who = (
                "a drone has one action die" if is_drone else "every character has two action dice"
            )
            b.refuse(
                "stats.AD",
                f"model '{mid}': AD {dice} breaks the action dice limit: "
                f"{who}; extra dice come only from special abilities "
                f"(UMR-ACTION-DICE)",
            )
        points = {k: int(stats.get(k, 0)) for k in STATS}
        rpg = {k: int(stats.get(k, 0)) for k in RPG_STATS}
        if is_drone:
            spent = [k for k, v in (points | rpg).items() if v]
            if spent:
                b.refuse(
                    f"stats.{spent[0]}",
                    f"model '{mid}': a drone has no personality "
                    f"points ({', '.join(spent)} given) (UMR-DRONE)",
                )
        else:
            self._budget(b, ability, points, rpg)
        full: dict[str, Any] = {**{k: v for k, v in points.items() if not is_drone}, "AD": want}
        full["ability"] = ability
        if any(rpg.values()):
            full.update({k: v for k, v in rpg.items() if v})
        b.stats = full
        b.max_hp = max_health(full)

    def _ability(self, b: Build) -> str:
        """The one special ability (UMR-ABILITIES), as its key ("" when refused)."""
        raw_ability = b.stats.get("ability", "")
        if isinstance(raw_ability, list):
            b.refuse(
                "stats.ability",
                f"model '{b.mid}': a character has one special ability, "
                f"not {len(raw_ability)} (UMR-ABILITIES)",
            )
        elif not isinstance(raw_ability, str):
            b.refuse(
                "stats.ability",
                f"model '{b.mid}': expected the name of a special "
                f"ability, got {type(raw_ability).__name__}",
            )
        else:
            key = normalise(raw_ability)
            if key is not None:
                return key
            b.refuse(
                "stats.ability",
                f"model '{b.mid}': unknown special ability "
                f"'{raw_ability}' (known: {known_names()})",
            )
        return ""

    def _budget(self, b: Build, ability: str, points: dict[str, int], rpg: dict[str, int]) -> None:
        """UMR-PERSONALITY and UMR-RPG-STATS: the points a character may spend."""
        mid = b.mid
        budget = point_budget(ability)
        total = sum(points.values())
        if total > budget:
            who = "an infantry character" if ability == "infantry" else "a character"
            b.refuse(
                "stats",
                f"model '{mid}': {total} personality points spent; "
                f"{who} has {budget} (UMR-PERSONALITY)",
            )
        abil = ABILITIES.get(ability)
        bonus = dict(abil.bonus) if abil else {}
        for k in STATS:
            if points[k] > MAX_ON_ONE_STAT:
                b.refuse(
                    f"stats.{k}",
                    f"model '{mid}': {points[k]} personality points "
                    f"on {k}; at most {MAX_ON_ONE_STAT} may go on one "
                    f"stat (UMR-PERSONALITY)",
                )
            elif points[k] + bonus.get(k, 0) > MAX_COMBINED:
                b.refuse(
                    f"stats.{k}",
                    f"model '{mid}': {k} would be "
                    f"+{points[k] + bonus.get(k, 0)}; no stat may "
                    f"exceed +{MAX_COMBINED} of combined bonuses "
                    f"(UMR-PERSONALITY)",
                )
        rpg_total = sum(rpg.values())
        if rpg_total > RPG_POINTS:
            b.refuse(
                "stats",
                f"model '{mid}': {rpg_total} points on the RPG stats "
                f"(DIPLOMACY, PERCEPTION, MECHANICS); the RPG rules give "
                f"{RPG_POINTS} (UMR-RPG-STATS)",
            )

    def read_state(self, b: Build) -> None:
        """Health (UMR-HEALTH), inches moved and climbed, a drone's operator."""
        mid, state, hp_max = b.mid, b.state, b.max_hp
        is_drone = b.stats["ability"] == DRONE
        hp = state.get("hp", hp_max)
        if isinstance(hp, bool) or not isinstance(hp, int) or not 1 <= hp <= (hp_max or 0):
            b.refuse(
                "state.hp",
                f"model '{mid}': health must be a whole number from 1 to "
                f"{hp_max}, got {hp!r} (UMR-HEALTH)",
            )
        for k in ("moved", "elev"):
            if k in state:
                v = state[k]
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                    b.refuse(
                        f"state.{k}", f"model '{mid}': expected a number of inches (0 or more)"
                    )
                else:
                    b.vars[k] = float(v)
        for k in ("operator", "on"):
            if k in state:
                if not isinstance(state[k], str):
                    b.refuse(f"state.{k}", f"model '{mid}': expected a model or terrain id")
                else:
                    b.vars[k] = state[k]
        if is_drone and "operator" not in state:
            b.refuse(
                "state.operator",
                f"model '{mid}': a drone needs its operator: "
                f'state = {{ operator = "<model id>" }} (UMR-DRONE)',
            )
        if not is_drone and "operator" in state:
            b.refuse("state.operator", f"model '{mid}': only a drone has an operator")


def build_model(
    spec: Mapping[str, Any], profiles: Mapping[str, Mapping[str, Any]]
) -> tuple[Model | None, list[tuple[str, str]]]:
    """Build a UMR character (or drone) from an entry with these ``profiles`` (an army
    list's): the model and (where, problem) pairs; any problem means no model."""
    return UmrBuilder(load("umr"), profiles).build(spec)


def complete_problems(m: Model) -> list[tuple[str, str]]:
    """Why a roster character is not fully built (UMR Step 2 "Add three personality
    points", Step 3 "Select one special ability"); drones have neither. Why only for
    army rosters: a scenario poses a rules question and may field the Step-1 template or
    a "dumbed down" figure (UMR-I-POINTS); an army list is a player's legal team."""
    ability = str(m.stats.get("ability", ""))
    if ability == DRONE:
        return []
    probs = []
    if not ability:
        probs.append(
            ("stats.ability", f"model '{m.id}': select one special ability (UMR-ABILITIES)")
        )
    spent = sum(int(m.stats.get(k, 0)) for k in STATS)
    budget = point_budget(ability)
    if spent < budget:
        probs.append(
            (
                "stats",
                f"model '{m.id}': {spent} personality points spent; a character adds "
                f"{budget} (UMR-PERSONALITY)",
            )
        )
    return probs


def check_army(models: list[Model]) -> list[tuple[str, str]]:
    """Army-wide limits: abilities per army (UMR-ABILITIES) and drones per operator."""
    probs: list[tuple[str, str]] = []
    seen: Counter[tuple[str, str]] = Counter()
    by_id = {m.id: m for m in models}
    for m in models:
        abil = ability_of(m.stats)
        if abil is None or abil.limit is None:
            continue
        seen[(m.side, abil.key)] += 1
        n = seen[(m.side, abil.key)]
        if n > abil.limit:
            probs.append(
                (
                    m.id,
                    f"model '{m.id}': side '{m.side}' fields {n} "
                    f"{abil.name.lower()}s; the limit is {abil.limit} per army "
                    f"({abil.rule})",
                )
            )
    drones: Counter[str] = Counter()
    for m in models:
        if m.stats.get("ability") != DRONE:
            continue
        op = mv(m).get("operator", "")
        owner = by_id.get(op)
        if owner is None:
            probs.append(
                (m.id, f"model '{m.id}': its operator '{op}' is not in the scenario (UMR-DRONE)")
            )
            continue
        if owner.stats.get("ability") != "drone_operator" or owner.side != m.side:
            probs.append(
                (
                    m.id,
                    f"model '{m.id}': '{op}' is not a drone operator of side "
                    f"'{m.side}' (UMR-DRONE)",
                )
            )
            continue
        drones[op] += 1
        if drones[op] > DRONES_PER_OPERATOR:
            probs.append(
                (
                    m.id,
                    f"model '{m.id}': operator '{op}' already has "
                    f"{DRONES_PER_OPERATOR} drones; the limit is "
                    f"{DRONES_PER_OPERATOR} per operator (UMR-DRONE)",
                )
            )
    return probs
