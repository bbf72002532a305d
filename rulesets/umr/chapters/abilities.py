"""The special abilities of the Universal Miniatures Rules: names, army limits, what die
each one adds, and the rule section that explains it.

Why a table: character creation checks the army limits, the action-dice pool asks which
extra die an ability gives, and the combat pipeline asks which once-per-round trick a
model owns. One table keeps all three in step with the rulebook's list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ability:
    """One special ability. ``limit`` is the most an army may field (None: no limit).

    ``extra_die`` names the action group ("move", "shoot", "fight") that the ability's
    once-per-round extra action die may pay for; "" when it gives no such die.
    ``rpg`` marks the optional role-playing abilities; ``rpg_stat`` the stat they help.
    ``bonus`` holds flat stat bonuses (none of the rulebook's abilities has one, but the
    "no stat above +3 combined" limit is written against them so house abilities fit).
    """

    key: str
    name: str
    limit: int | None
    rule: str
    extra_die: str = ""
    rpg: bool = False
    rpg_stat: str = ""
    bonus: tuple[tuple[str, int], ...] = ()


ABILITIES: dict[str, Ability] = {
    a.key: a
    for a in (
        Ability("leader", "Leader", 1, "UMR-LEADER"),
        Ability("infantry", "Infantry", None, "UMR-INFANTRY"),
        Ability("drone_operator", "Drone operator", 2, "UMR-DRONE"),
        Ability("cavalry", "Mounted cavalry", 3, "UMR-CAVALRY", extra_die="move"),
        Ability("sniper", "Sniper", 2, "UMR-SNIPER"),
        Ability("assassin", "Assassin", 3, "UMR-ASSASSIN", extra_die="shoot"),
        Ability("grenadier", "Grenadier", None, "UMR-GRENADIER"),
        Ability("commando", "Commando", None, "UMR-COMMANDO"),
        Ability("guardian", "Guardian", None, "UMR-GUARDIAN"),
        Ability("tank", "Tank", 2, "UMR-TANK"),
        Ability("skirmisher", "Skirmisher", 3, "UMR-SKIRMISHER", extra_die="fight"),
        Ability("brawler", "Brawler", None, "UMR-BRAWLER"),
        Ability(
            "charismatic", "Charismatic", None, "UMR-RPG-ABILITIES", rpg=True, rpg_stat="DIPLOMACY"
        ),
        Ability(
            "investigator",
            "Investigator",
            None,
            "UMR-RPG-ABILITIES",
            rpg=True,
            rpg_stat="PERCEPTION",
        ),
        Ability("engineer", "Engineer", None, "UMR-RPG-ABILITIES", rpg=True, rpg_stat="MECHANICS"),
    )
}

#: Spellings a scenario may use for an ability (lower case, spaces or underscores).
ALIASES: dict[str, str] = {
    "drone operator": "drone_operator",
    "droneoperator": "drone_operator",
    "operator": "drone_operator",
    "mounted cavalry": "cavalry",
    "mounted_cavalry": "cavalry",
    "none": "",
    "": "",
}

#: The pseudo-ability that marks a drone (a model controlled by a drone operator).
DRONE = "drone"


def normalise(name: str) -> str | None:
    """The ability key for a spelling, "" for no ability, None when unknown."""
    s = " ".join(name.strip().lower().replace("-", " ").split())
    if s in ALIASES:
        return ALIASES[s]
    s = s.replace(" ", "_")
    if s in ABILITIES or s == DRONE:
        return s
    return ALIASES.get(s)


def ability_of(stats: dict) -> Ability | None:
    """The Ability a model's stats name, or None (no ability, or a drone)."""
    return ABILITIES.get(str(stats.get("ability", "")))


def known_names() -> str:
    return ", ".join(sorted(ABILITIES))
