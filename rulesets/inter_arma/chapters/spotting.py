"""Who is seen (IA-SIGHT, IA-WEATHER, IA-NIGHT): sentries, the crawling spot test and
water hiding, thrown once a turn when every side has moved.

Why one look a turn: the text rolls "to see" a crawler or a swimmer and has sentries
"roll 1d6 in 30 cm"; a roll inside ``check`` or the odds would throw dice for a mere
question, so the rolls are made once, when the movement phase ends (nothing moves
between it and the shooting), and their results are kept on the figures until the next
look (IA-I-SPOT). What they gate is the shot: a hidden crawler cannot be shot at, and a
side on watch sees no enemy to shoot until its sentries raise the alarm (IA-I-SENTRY).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import chain

from engine.battlefield import TERRAIN_CLASSES
from engine.geometry import crossings
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import in_arc
from rulesets.inter_arma.chapters import measure
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs, mv


def verdict(low: int, high: int, yes: str, no: str) -> Callable[[int, tuple[int, ...]], str]:
    """A roll's result word: ``yes`` when the total is from ``low`` to ``high``."""
    return lambda total, faces: yes if low <= total <= high else no


def able(m: Model) -> bool:
    return not m.removed and "wounded" not in m.status


def in_woods(ctx: Context, a: Model, b: Model) -> bool:
    """IA-I-SIGHT: either figure stands in woods or the line between them crosses woods."""
    under = (measure.kinds_under(ctx, a) | measure.kinds_under(ctx, b)) & set(measure.WOODS)
    return bool(under or crossings([a.pos, b.pos], ctx.battlefield, measure.WOODS))


def in_water(ctx: Context, m: Model) -> bool:
    return any(TERRAIN_CLASSES.get(k) == "water" for k in measure.kinds_under(ctx, m))


def hidden(m: Model) -> bool:
    """A crawling figure not spotted at the last look (IA-SIGHT, IA-I-SPOT)."""
    return "crawling" in m.status and not mv(m).get("spotted")


def on_watch(state: GameState, side: str) -> bool:
    """IA-I-SENTRY: a side with sentries sees no enemy until the alarm is raised."""
    if side in (gs(state).get("alarm") or []):
        return False
    return any(mv(m).get("sentry") for m in state.models.values() if m.side == side)


def unseen(state: GameState, m: Model, t: Model) -> str:
    """'' when nothing of this module hides ``t`` from ``m``; else the reason."""
    if on_watch(state, m.side):
        return (f"{m.side}'s sentries have not raised the alarm: {m.id} sees no enemy "
                f"(IA-SIGHT; IA-I-SENTRY)")  # fmt: skip
    if hidden(t):
        return f"{t.id} crawls unseen: not spotted this turn (IA-SIGHT; IA-I-SPOT)"
    return ""


def raise_alarm(state: GameState, ctx: Context, side: str, why: str) -> None:
    """IA-I-SENTRY: the side on watch is alarmed (a sentry's sighting, or an attack)."""
    if not on_watch(state, side):
        return
    gs(state).setdefault("alarm", []).append(side)
    ctx.log.emit("status", f"{side} is alarmed: {why} (IA-I-SENTRY)", actor=side,
                 rule="IA-SIGHT", outcome="alarm")  # fmt: skip


def sentry_range(state: GameState) -> float:
    """IA-SIGHT, IA-NIGHT c: sentries roll for enemies within 30 cm, 10 cm less at night."""
    return T.SENTRY_CM - (T.SENTRY_NIGHT if measure.conditions(state) == "night" else 0)


def sentries(state: GameState, ctx: Context) -> None:
    """IA-SIGHT: each able sentry of a side on watch with an enemy within its range (and
    no tall terrain between) throws a d6 for the nearest: 4+ in the open, 6 in woods,
    sights it; a sighting raises the alarm and spots the figure if it crawls."""
    for side in state.sides:
        if not on_watch(state, side):
            continue
        for s in sorted((m for m in state.live(side) if mv(m).get("sentry") and able(m)),
                        key=lambda m: m.id):  # fmt: skip
            near = sorted(
                (measure.gap_cm(s, e), e.id, e)
                for e in state.live()
                if e.side != side and measure.gap_cm(s, e) <= sentry_range(state) + 1e-9
                and not measure.line_blocked(ctx, s, e)
            )  # fmt: skip
            if not near:
                continue
            d, _, e = near[0]
            need = T.SENTRY_WOODS if in_woods(ctx, s, e) else T.SENTRY_OPEN
            r = ctx.dice.roll(6, f"sentry {s.id} looks for {e.id} ({d:.1f} cm)", need=f"{need}+",
                              chance=Fraction(7 - need, 6), actor=s.id, rule="IA-SIGHT",
                              result=verdict(need, 99, "sights", "sees nothing"))  # fmt: skip
            ctx.log.emit("resolution", r.explain(), actor=s.id, target=e.id, rule="IA-SIGHT",
                         rolls=list(r.faces), outcome=str(r.result))  # fmt: skip
            if r.result == "sights":
                if "crawling" in e.status:
                    mv(e)["spotted"] = True
                raise_alarm(state, ctx, side, f"sentry {s.id} sights {e.id}")
                break


def spot_need(ctx: Context, looker: Model, c: Model) -> int:
    """IA-SIGHT: the highest face that spots a crawler: 2 in the open (3 armoured), 1 in
    woods (2 armoured)."""
    base = T.CRAWL_SPOT_WOODS if in_woods(ctx, looker, c) else T.CRAWL_SPOT_OPEN
    return base + (1 if c.stats.get("armored") else 0)


def crawler(state: GameState, ctx: Context, c: Model) -> None:
    """IA-SIGHT: each enemy who sees the crawler and faces it throws a d6 until one spots
    it; in water a d6 first, 4+ hides it for the turn. Rain, fog and night: no test, the
    crawler stays unseen (IA-WEATHER b, IA-NIGHT b)."""
    if measure.conditions(state) != "day":
        return
    # nearest first; sight is measured only as far down the list as the looking goes
    # (the dearest question on the table, issue 24)
    near = sorted(
        (e for e in state.live() if e.side != c.side and able(e) and in_arc(e, c, 180.0)),
        key=lambda e: (measure.gap_cm(e, c), e.id),
    )
    seeing = (e for e in near if measure.in_sight(state, ctx, e, c))
    first = next(seeing, None)
    if first is None:
        return
    if in_water(ctx, c):
        r = ctx.dice.roll(6, f"water hides {c.id}", need=f"{T.WATER_HIDES}+", chance=Fraction(7 - T.WATER_HIDES, 6),
                          actor=c.id, rule="IA-SIGHT",
                          result=verdict(T.WATER_HIDES, 99, "hidden", "seen through"))  # fmt: skip
        ctx.log.emit("resolution", r.explain(), actor=c.id, rule="IA-SIGHT", rolls=list(r.faces),
                     outcome=str(r.result))  # fmt: skip
        if r.result == "hidden":
            return
    for e in chain([first], seeing):
        k = spot_need(ctx, e, c)
        r = ctx.dice.roll(6, f"{e.id} looks for crawling {c.id}", need=f"1-{k}", chance=Fraction(k, 6),
                          actor=e.id, rule="IA-SIGHT",
                          result=verdict(1, k, "spotted", "unseen"))  # fmt: skip
        ctx.log.emit("resolution", r.explain(), actor=e.id, target=c.id, rule="IA-SIGHT",
                     rolls=list(r.faces), outcome=str(r.result))  # fmt: skip
        if r.result == "spotted":
            mv(c)["spotted"] = True
            return


def look(state: GameState, ctx: Context) -> None:
    """The turn's look, when every side has moved: crawlers start unseen, the sentries
    throw, then every crawler not yet sighted is tested."""
    crawlers = sorted((m for m in state.live() if "crawling" in m.status), key=lambda m: m.id)
    for c in crawlers:
        mv(c).pop("spotted", None)
    sentries(state, ctx)
    for c in crawlers:
        if not mv(c).get("spotted"):
            crawler(state, ctx, c)
