"""The rulebook's tables, in centimetres as printed (Inter Arma 1.06).

Why one module of plain numbers: the rules modules, the odds and the tests all read the
same figures, and each table names the section it comes from. The engine keeps inches;
``cm``/``inches`` convert with the text's own rule (IA-MOVE: 2 cm = 1 inch).
"""

from __future__ import annotations

CM_PER_INCH = 2.0

CLASSES = ("regular", "elite", "commander", "conscript")
TYPES = ("infantry", "skirmisher", "cavalry")

#: IA-MELEE-1 quality table (conscripts from the 4th Appendix, IA-CONSCRIPT)
QUALITY = {"commander": 2, "elite": 1, "regular": 0, "conscript": -1}

#: IA-MOVE: walk / run / crawl in cm; None where the type cannot move so
MOVES: dict[tuple[str, bool], dict[str, float | None]] = {
    ("infantry", False): {"walk": 8, "run": 12, "crawl": 4},
    ("infantry", True): {"walk": 7, "run": 11, "crawl": 4},
    ("skirmisher", False): {"walk": 12, "run": 16, "crawl": 6},
    ("skirmisher", True): {"walk": 12, "run": 16, "crawl": 6},
    ("cavalry", False): {"walk": None, "run": 20, "crawl": None},
    ("cavalry", True): {"walk": None, "run": 18, "crawl": None},
}

#: IA-MOVE reductions in cm
DARK = 4
GET_UP = 2
UPHILL = 4
LOW_OBSTACLE = 5
HEAVY_WOODS = 3
SHOT_AT = 2
RAIN = 1

#: IA-FATIGUE: faces that halve the move and faces that tire the figure (no move)
FATIGUE = {"infantry": ({1}, {2}), "skirmisher": (set(), {2})}

#: IA-SIGHT in cm
SIGHT_FOOT = 30
SIGHT_MOUNTED = 35
SIGHT_WOODS = 6
SIGHT_RAIN = 4
SIGHT_NIGHT = 8
#: IA-SIGHT, IA-NIGHT c: sentries roll for enemies within 30 cm (10 less at night), and
#: sight them on 4+ in the open, 6 in woods
SENTRY_CM = 30
SENTRY_NIGHT = 10
SENTRY_OPEN = 4
SENTRY_WOODS = 6
#: IA-SIGHT: a crawler is spotted on 1-2 in the open, 1 in woods (one more if armoured)
CRAWL_SPOT_OPEN = 2
CRAWL_SPOT_WOODS = 1
#: IA-SIGHT: water hides a crawling figure on a d6 of 4+
WATER_HIDES = 4

#: IA-SAVE: (wounded on or below, dead on or below) for foot figures
SAVE_FOOT = {"infantry": (3, 2), "shield": (3, 1), "armored": (2, 1), "skirmisher": (3, 1)}
#: IA-CAVALRY: the rider's own table
SAVE_RIDER = {False: (3, 2), True: (2, 1)}

#: IA-RANGED: weapon kind -> (short, medium, long) in cm; None = no such band
RANGES: dict[str, tuple[float, float | None, float | None]] = {
    "bow": (10, 18, 25),
    "sling": (6, 15, 19),
    "javelin": (8, 11, None),
    "crossbow": (12, 16, 20),
}
#: IA-RANGED: the score to hit by band
TO_HIT = {"short": 3, "medium": 4, "long": 6}
#: IA-RANGED: cm added shooting down from a height (bows and crossbows only)
HEIGHT_BONUS = 4
HEIGHT_WEAPONS = ("bow", "crossbow")
#: IA-RANGED: terrain that reduces the hitting roll by 1
SHOT_COVER = ("wheat_field", "heavy_woods")

#: IA-MELEE-1: archers (missile troops) who shot this turn lose 1 on initiative
MISSILE_KINDS = tuple(RANGES)
#: IA-MASSED: weapons that reach from the second rank
REACH_KINDS = ("spear", "pike", "polearm")
#: IA-I-MASSED: how far (cm, base edge to edge) a spear reaches from the second rank
REACH_CM = 3.0


def cm(inches: float) -> float:
    """Inches of the engine's table -> the rulebook's centimetres."""
    return inches * CM_PER_INCH


def inches(centimetres: float) -> float:
    """The rulebook's centimetres -> inches of the engine's table."""
    return centimetres / CM_PER_INCH


def fmt_cm(inches_: float) -> str:
    """A table distance as the rulebook writes it: '23.4 cm'."""
    return f"{cm(inches_):.1f} cm"
