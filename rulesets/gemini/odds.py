"""The exact odds of a Combat Score fight (GM-COMBAT-SCORE, GM-PARRY), for the window's
preview and the AI: every face of both sides' attack dice and parry re-rolls, reduced to
what the score reads of them (the highest die, the 1s, the 6s beyond the first).

Why exact and reduced: a contest of four dice against four with two re-rolls is 6^12
faces, but each side's dice matter only through three small numbers, so each side's
distribution is worked out once per (dice, re-rolls) and the two are crossed.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

from engine.actions import Action, Fight, Shoot
from engine.ruleset import Context, Odds
from engine.state import GameState, Model
from rulesets.gemini.chapters import combat_score as cs
from rulesets.gemini.chapters import melee, shooting, switches, wounds

Read = tuple[int, int, int]  # (highest die, number of 1s, 6s beyond the first)


@lru_cache(maxsize=64)
def side_dist(n: int, rerolls: int) -> dict[Read, Fraction]:
    """GM-COMBAT-SCORE 1-2, GM-PARRY: what ``n`` attack dice read as after ``rerolls``
    re-rolls of the highest die (the new face replaces it), exactly."""
    out: dict[Read, Fraction] = {}
    p = Fraction(1, 6 ** (n + rerolls))
    for faces in product(range(1, 7), repeat=n + rerolls):
        dice = list(faces[:n])
        for extra in faces[n:]:
            dice[dice.index(max(dice))] = extra
        key = (max(dice), dice.count(1), max(0, dice.count(6) - 1))
        out[key] = out.get(key, Fraction(0)) + p
    return out


def odds(state: GameState, ctx: Context, m: Model, foe: Model) -> Odds:
    """The chance ``m`` wins the contest, its hits' distribution and the wounds expected."""
    parry = bool(switches.of(state).parry)
    da = side_dist(cs.attack_dice(state, ctx, m, foe), cs.parries(foe, m) if parry else 0)
    db = side_dist(cs.attack_dice(state, ctx, foe, m), cs.parries(m, foe) if parry else 0)
    base_a = cs.ws_of(state, m) + sum(x.value for x in cs.modifiers(state, ctx, m, foe))
    base_b = cs.ws_of(state, foe) + sum(x.value for x in cs.modifiers(state, ctx, foe, m))
    tie_to_a = int(m.stat("I")) > int(foe.stat("I"))
    tie_to_b = int(foe.stat("I")) > int(m.stat("I"))
    hits: dict[int, Fraction] = {}
    lose = stand = Fraction(0)
    for (ha, ones_a, six_a), pa in da.items():
        for (hb, ones_b, six_b), pb in db.items():
            sa = ha + base_a + ones_b + six_a
            sb = hb + base_b + ones_a + six_b
            p = pa * pb
            if sa > sb or (sa == sb and tie_to_a):
                k = max(1, sa - sb)
                hits[k] = hits.get(k, Fraction(0)) + p
            elif sa < sb or tie_to_b:
                lose += p
            else:
                stand += p
    win = sum(hits.values(), Fraction(0))
    w = cs.hand_weapons(m)[0]
    per = wounds.p_wound_and_unsaved(int(w.get("S", m.stat("S"))), int(w.get("save", 0)), foe)
    dist = {0: 1 - win, **hits}
    lines = [
        f"Combat Score: wins {float(win):.0%}, loses {float(lose):.0%}, "
        f"stand-off {float(stand):.0%} (GM-COMBAT-SCORE)",
        f"each hit takes a wound {float(per):.0%} (GM-WOUND, GM-SAVE)",
    ]
    expected = sum((k * p for k, p in hits.items()), Fraction(0)) * per
    return Odds(win, dist=dist, lines=lines, expected=expected)


def action_odds(state: GameState, ctx: Context, action: Action) -> Odds | None:
    """The exact odds of a legal shot (GM-SHOOT), Combat Score fight (above) or WS-chart
    fight (GM-MELEE); None for an action that rolls nothing to hit."""
    if isinstance(action, Shoot):
        return shooting.odds(state, ctx, action)
    if isinstance(action, Fight) and switches.of(state).combat_score:
        return odds(state, ctx, state.models[action.actor], state.models[action.target])
    if isinstance(action, Fight):
        return melee.odds(state, ctx, action)
    return None
