"""Points (GEM-4): a model's value by the rulebook's formula, and army lists totalled
and checked (``points_report`` for ``main.py points FILE``).

Why multiplicative: GEM's author fitted the value of a figure to simulated combats and
found that defence and offence multiply (a hard-hitting figure that also lasts is worth
more than the sum of the two), so the base value has a product term and every other
factor (morale, base width, type, MAG, MOV) scales it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.data import Checker, load_toml
from engine.state import Model

from ..build import TYPES, check_stats, check_weapon
from ..state import mv
from .tables import points as ptable
from .tables import units


def _def(stats: Mapping[str, Any], vehicle: bool) -> float:
    if vehicle and "ARM" in stats:
        return float(stats["ARM"])
    d = stats.get("DEF", 1)
    if isinstance(d, dict):
        return sum(d.values()) / len(d)  # GEM-I-ARMOURPOINTS: the mean of the types
    return float(d)


def width_mod(base: Any) -> float:
    """GEM-4.1 base width table; widths between rows take the next row up."""
    w = float(base[0]) if isinstance(base, (list, tuple)) else float(base)
    for top, mod in ptable()["width"]["bands"]:
        if w <= top + 1e-9:
            return float(mod)
    return float(ptable()["width"]["huge"])


def fire_mod(reload: int) -> float:
    f = ptable()["fire"]
    return float(
        f["every_turn"]
        if reload <= 1
        else f["every_other_turn"]
        if reload == 2
        else f["every_third_or_more"]
    )


def missile_off(w: Mapping[str, Any]) -> float:
    """GEM-4.2.2: OFF x ATT x range x radius modifier / fire modifier; heavy x0.9."""
    radius = float(w.get("radius", 0) or 0)
    rmod = 1.0 if radius <= 0 else radius + 0.5
    v = (
        float(w.get("OFF", 1))
        * float(w.get("ATT", 1))
        * float(w.get("range", 0))
        * rmod
        / fire_mod(int(w.get("reload", 1)))
    )
    if w.get("heavy"):
        v *= 0.9
    return v


def off_att(stats: Mapping[str, Any], weapons: Sequence[Mapping[str, Any]]) -> float:
    """GEM-4.2.3: the best combination of attacks in one turn. A figure fires one weapon
    a turn and none while locked in melee, and no melee starts after the missile
    segment, so it is the better of its hand-to-hand attacks and its best missile
    weapon, never their sum (GEM-I-COMBO)."""
    melee = [w for w in weapons if not float(w.get("range", 0) or 0)]
    if melee:
        hand = max(
            float(w.get("OFF", stats.get("OFF", 1))) * float(w.get("ATT", stats.get("ATT", 1)))
            for w in melee
        )
    else:
        hand = float(stats.get("OFF", 1)) * float(stats.get("ATT", 1))
    missiles = [missile_off(w) for w in weapons if float(w.get("range", 0) or 0) > 0]
    return max([hand, *missiles])


def value(
    stats: Mapping[str, Any],
    weapons: Sequence[Mapping[str, Any]],
    mtype: str,
    base: Any,
    crew: int = 0,
) -> float:
    """GEM-4.1 (figures) and GEM-4.3 (vehicles)."""
    s = {"HIT": 1, "ATT": 1, "MOR": 0, "MAG": 2, "MOV": 4, "SIZ": 1, **dict(stats)}
    hit = float(s["HIT"])
    if mtype == "vehicle":
        dh = _def(s, True) * hit
        # one weapon fired a turn (GEM-I-COMBO): the best gun, not every gun summed
        missiles = max(
            (missile_off(w) for w in weapons if float(w.get("range", 0) or 0) > 0), default=0.0
        )
        oa = float(s["MOV"]) / 2 * hit + missiles
        base_value = 1.3 * dh + oa + oa * dh / 12 + crew / 9
    else:
        dh = _def(s, False) * hit
        oa = off_att(s, weapons)
        base_value = dh + oa + oa * dh / 16 + float(s["SIZ"]) / 18
    tmod = float(ptable()["type"].get(mtype, 1.0))
    return (
        base_value
        * (1 + float(s["MOR"]) / 50)
        * width_mod(base)
        * tmod
        * (float(s["MAG"]) + 18)
        / 20
        * (float(s["MOV"]) + 16)
        / 20
    )


def model_value(m: Model, full: bool = True) -> float:
    cap = mv(m).get("capacity")
    crew = int(cap) if cap is not None else int((mv(m).get("crew") or {}).get("count", 0))
    return value(
        m.stats,
        m.weapons,
        str(mv(m).get("type", "skirmisher")),
        list(m.base) if isinstance(m.base, tuple) else m.base,
        crew,
    )


def entry_value(entry: Mapping[str, Any], profiles: Mapping[str, Any]) -> float:
    prof = dict(profiles.get(entry.get("profile", ""), {}))
    stats = {**prof.get("stats", {}), **entry.get("stats", {})}
    return value(
        stats,
        entry.get("weapons", prof.get("weapons", [])),
        entry.get("type", prof.get("type", "skirmisher")),
        entry.get("base", prof.get("base", 25)),
        _capacity(entry, prof),
    )


def _capacity(entry: Mapping[str, Any], prof: Mapping[str, Any]) -> int:
    """GEM-4.3's carrying capacity: ``capacity``, else the crew record's count."""
    cap = entry.get("capacity", prof.get("capacity"))
    if cap is not None:
        return int(cap)
    return int((entry.get("crew", prof.get("crew")) or {}).get("count", 0))


FORMATIONS = {
    "skirmisher": "skirmish",
    "peltast": "skirmish",
    "block": "block",
    "heavy": "block",
    "cavalry": "cavalry",
}


def points_report(path: str | Path) -> str:
    """Read an army list, price every entry, total it and check its limits.

    Raises engine.data.DataError (one problem per line) for a list that cannot be read.
    """
    name = str(path)
    data = load_toml(path, display=name)
    chk = Checker(name)
    chk.known_keys(
        data,
        ("ruleset", "name", "era", "points_limit", "min_formation_share", "units", "description"),
        "",
    )
    profiles = units()["profiles"]
    entries = chk.array(data, "units", "units") or []
    lines = [f"{data.get('name', Path(name).stem)} ({data.get('era', 'any era')})"]
    total = 0.0
    by_form: dict[str, float] = {}
    for i, e in enumerate(entries):
        where = f"units[{i}]"
        if not isinstance(e, dict):
            chk.add(where, "expected a table")
            continue
        chk.known_keys(
            e,
            ("name", "profile", "count", "stats", "weapons", "type", "base", "crew", "capacity"),
            where,
        )
        if e.get("profile") and e["profile"] not in profiles:
            chk.add(f"{where}.profile", f"unknown gem profile '{e['profile']}'")
            continue
        count = chk.integer(e, "count", f"{where}.count", default=1)
        for w, what in check_stats(e.get("stats", {}), e.get("name", where)):
            chk.add(f"{where}.{w}", what)
        for j, w in enumerate(e.get("weapons", [])):
            for ww, what in check_weapon(w, f"weapons[{j}]", e.get("name", where)):
                chk.add(f"{where}.{ww}", what)
        t = e.get("type", profiles.get(e.get("profile", ""), {}).get("type", "skirmisher"))
        if t not in TYPES:
            chk.add(f"{where}.type", f"unknown gem figure type '{t}'")
            continue
        if not e.get("profile") and not {"OFF", "DEF"} <= set(e.get("stats", {})):
            chk.add(where, "needs a profile or stats with OFF and DEF")
            continue
        if chk.problems:
            continue
        v = entry_value(e, profiles)
        sub = v * (count or 1)
        total += sub
        form = FORMATIONS.get(t)
        if form:
            by_form[form] = by_form.get(form, 0.0) + sub
        lines.append(
            f"  {e.get('name', e.get('profile', where)):<22} {count:>3} x "
            f"{v:7.2f} = {sub:8.2f}   ({t})"
        )
    chk.raise_if_any()
    lines.append(f"  {'total':<22} {total:28.2f}")
    limit = data.get("points_limit")
    problems = []
    if isinstance(limit, (int, float)) and total > limit + 1e-9:
        problems.append(f"over the points limit: {total:.2f} > {limit}")
    elif isinstance(limit, (int, float)):
        lines.append(f"  within the limit of {limit} ({limit - total:.2f} to spare)")
    if data.get("era") in ("ancients", "fantasy"):
        share = float(data.get("min_formation_share", 0.1))
        for form in ("skirmish", "block", "cavalry"):
            got = by_form.get(form, 0.0)
            if total and got < share * total - 1e-9:
                problems.append(
                    f"{form} formations have {got:.2f} points, under the "
                    f"{share:.0%} minimum for each formation (GEM-I-MINFORM)"
                )
    for p in problems:
        lines.append(f"  problem: {p}")
    lines.append("  ok" if not problems else f"  {len(problems)} problem(s)")
    return "\n".join(lines)
