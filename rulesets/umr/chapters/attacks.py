"""Melee and ballistic attacks (UMR-MELEE, UMR-BALLISTIC): the checks, the rolls in the
order the rulebook makes them, and the damage they deal.

Roll order (forced dice are consumed in this order): the attack die; the defence die (a
commando's second defence die right after it; a guardian's reroll right after the die it
replaces); then the damage die and every die its sixes add; then a grenadier's or
brawler's extra damage die and its sixes; last a tank's counter die.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Fight, Shoot
from engine.dice import Modifier, percent
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr import flow
from rulesets.umr.chapters import action_dice, combat, common, measure
from rulesets.umr.chapters.abilities import ability_of
from rulesets.umr.chapters.combat import HIT, MISS, SAVED, Damage, Defence
from rulesets.umr.state import mv


def has(m: Model, key: str) -> bool:
    """``m`` owns ability ``key`` and has not used it this round."""
    a = ability_of(m.stats)
    return bool(a and a.key == key and key not in mv(m).get("used", ()))


def use(m: Model, key: str) -> None:
    mv(m)["used"] = [*mv(m).get("used", []), key]


def _stat(m: Model, key: str) -> int:
    return int(m.stats.get(key, 0))


# --------------------------------------------------------------------------- checks


def _common(
    state: GameState, ctx: Context, actor_id: str, target_id: str, group: str
) -> tuple[Model | None, Model | None, list[str]]:
    m, why = common.actor(state, actor_id)
    if m is None or why:
        return m, None, why
    why = common.climbing(m) + common.need_die(state, m, group)
    if measure.swimming(ctx, m):
        why.append(f"{m.id} is swimming: no attacks until it is out of the water (UMR-SWIMMING)")
    t = state.models.get(target_id) if target_id else None
    if target_id and t is None:
        why.append(f"unknown model '{target_id}'")
    elif t is not None:
        if t.removed:
            why.append(f"{t.id} has been removed from play")
        elif t.side == m.side:
            why.append(f"{t.id} is on your own side")
    return m, t, why


def check_shoot(state: GameState, a: Shoot, ctx: Context, quick: bool = False) -> list[str]:
    """Why the shot is illegal ([] when legal). ``quick`` (the AI's candidate list): the
    same verdict, but a blocked view is not traced to the features that block it."""
    m, t, why = _common(state, ctx, a.actor, a.target, "shoot")
    if m is None or (why and t is None):
        return why or ["name a target to shoot"]
    if t is None:
        return ["name a target to shoot"]
    if a.weapon and not any(w.get("name") == a.weapon for w in m.weapons):
        why.append(
            f"{m.id} carries no weapon '{a.weapon}': a UMR ballistic attack is the "
            f"character's own BALLISTIC score, so name no weapon (UMR-BALLISTIC)"
        )
    if why:
        return why
    foes = measure.foes_in_contact(state, m)
    if foes:
        why.append(
            f"{m.id} is in base contact with {foes[0].id}: no ballistic attacks "
            f"while in melee (UMR-MELEE)"
        )
    locked = measure.foes_in_contact(state, t)
    if locked:
        why.append(
            f"{t.id} is in melee with {locked[0].id}: no shooting into melee (UMR-BALLISTIC)"
        )
    if why:
        return why
    sniper = _is(m, "sniper")
    reason = (
        measure.no_shot(ctx, m, t, sniper)
        if quick
        else measure.line_of_fire(ctx, m, t, sniper).reason
    )
    if reason:
        why.append(reason)
    return why


def check_fight(state: GameState, a: Fight, ctx: Context) -> list[str]:
    m, t, why = _common(state, ctx, a.actor, a.target, "fight")
    if m is None or why:
        return why
    if t is None:
        foes = measure.foes_in_contact(state, m)
        if len(foes) != 1:
            return (
                [f"{m.id} is not in base contact with an enemy (UMR-MELEE)"]
                if not foes
                else [f"name the target: {m.id} touches {', '.join(f.id for f in foes)}"]
            )
        return []
    if not measure.in_contact(m, t):
        why.append(
            f"{t.id} is not in base contact with {m.id} "
            f'({measure.gap(m, t):.1f}" apart) (UMR-MELEE)'
        )
    return why


def _is(m: Model, key: str) -> bool:
    a = ability_of(m.stats)
    return bool(a and a.key == key)


def melee_target(state: GameState, a: Fight) -> Model:
    if a.target:
        return state.models[a.target]
    return measure.foes_in_contact(state, state.models[a.actor])[0]


# --------------------------------------------------------------------------- specs


def attack_mods(state: GameState, ctx: Context, m: Model, t: Model, ranged: bool) -> list[Modifier]:
    if not ranged:
        k = _stat(m, "MELEE")
        return [Modifier(k, "MELEE", "UMR-PERSONALITY")] if k else []
    k = _stat(m, "BALLISTIC")
    mods = [Modifier(k, "BALLISTIC", "UMR-PERSONALITY")] if k else []
    fire = measure.line_of_fire(ctx, m, t, sniper=_is(m, "sniper"))
    mods += [Modifier(v, why, rule) for v, why, rule in fire.mods]
    return mods


def gift(m: Model, roll: str) -> bool:
    """True when the leader has given ``m`` an extra ``roll`` die it has not used yet."""
    return roll in mv(m).get("gifts", ())


def use_gift(m: Model, roll: str) -> None:
    gifts = list(mv(m).get("gifts", []))
    gifts.remove(roll)
    mv(m)["gifts"] = gifts


def defence_spec(t: Model, ranged: bool) -> Defence:
    return Defence(
        mod=_stat(t, "DEFENSE"),
        extra_die=(ranged and has(t, "commando")) or gift(t, "defence"),
        reroll=(not ranged) and has(t, "guardian"),
    )


def damage_spec(m: Model, t: Model, ranged: bool) -> Damage:
    extra = ""
    if ranged and has(m, "grenadier"):
        extra = "added"
    elif not ranged and has(m, "brawler"):
        extra = "separate"
    elif gift(m, "damage"):
        extra = "added"
    return Damage(bonus=_stat(m, "DAMAGE"), extra=extra, counter=has(t, "tank"))


def odds_with(mods: list[Modifier], m: Model, t: Model, ranged: bool) -> combat.AttackOdds:
    """The odds of ``m`` attacking ``t`` with the attack's modifiers (``attack_mods``)."""
    return combat.attack_odds(
        sum(x.value for x in mods), defence_spec(t, ranged), damage_spec(m, t, ranged), t.hp
    )


# --------------------------------------------------------------------------- rolling


def roll_damage(ctx: Context, who: str, bonus: int, label: str, rule: str) -> tuple[int, list[int]]:
    """One damage die that keeps rolling on natural sixes (UMR-SIX-DAMAGE), + bonus."""
    faces: list[int] = []
    while True:
        r = ctx.dice.roll(6, label if not faces else f"{label} (after a six)", actor=who, rule=rule)
        faces.append(r.faces[0])
        if r.faces[0] != 6:
            break
    return sum(faces) + bonus, faces


def damage_text(groups: list[tuple[str, list[int]]], bonus: int) -> str:
    """'d6 6 + 4 (a six rolls again, UMR-SIX-DAMAGE) + grenadier's extra d6 3 + 2 DAMAGE'."""
    bits = []
    for label, faces in groups:
        s = f"{label} {' + '.join(str(f) for f in faces)}"
        if len(faces) > 1:
            s += " (sixes roll again, UMR-SIX-DAMAGE)"
        bits.append(s)
    out = " + ".join(bits)
    if bonus:
        out += f" + {bonus} DAMAGE"
    return out


def deal(
    state: GameState,
    ctx: Context,
    t: Model,
    amount: int,
    text: str,
    actor: str,
    rule: str,
    rolls: list[int],
) -> None:
    """Take ``amount`` off the target's health; remove it at zero (UMR-HEALTH)."""
    before = t.hp
    t.hp = max(0, t.hp - amount)
    ctx.log.emit(
        "resolution",
        f"{text}: {amount} damage, {t.id} {before} -> {t.hp} health",
        actor=actor,
        target=t.id,
        rule=rule,
        rolls=rolls,
        outcome=f"{amount} damage",
        data={"damage": amount, "hp": t.hp},
    )
    if t.hp <= 0:
        flow.remove(state, ctx, t, f"health reduced to zero by {actor}")


def resolve(state: GameState, ctx: Context, m: Model, t: Model, ranged: bool) -> str:
    """Spend a die and roll one attack; returns HIT, MISS or SAVED."""
    group = "shoot" if ranged else "fight"
    kind = "ballistic" if ranged else "melee"
    mods = attack_mods(state, ctx, m, t, ranged)
    dspec = defence_spec(t, ranged)
    res = combat.contest(sum(x.value for x in mods), dspec)
    src = action_dice.spend(m, group)
    rule = "UMR-BALLISTIC" if ranged else "UMR-MELEE"
    arule = action_dice.source_rule(m, src)
    ar = ctx.dice.roll(
        6,
        f"{kind} attack ({action_dice.source_name(m, src)})",
        modifiers=mods,
        actor=m.id,
        rule=rule,
        chance=res[HIT],
    )
    attack = ar.total
    six = action_dice.six_bonus(m, ar.faces[0], src)
    dmods = [Modifier(dspec.mod, "DEFENSE", "UMR-PERSONALITY")] if dspec.mod else []
    dr = ctx.dice.roll(6, "defence", modifiers=dmods, actor=t.id, rule="UMR-DEFENSE")
    dfaces = [dr.faces[0]]
    kept = dr.faces[0]
    notes: list[str] = []
    if dspec.extra_die:
        who, rule = ("commando", "UMR-COMMANDO")
        if ranged and has(t, "commando"):
            use(t, "commando")
        else:
            use_gift(t, "defence")
            who, rule = ("leader's", "UMR-LEADER")
        d2 = ctx.dice.roll(6, f"{who} extra defence die", actor=t.id, rule=rule)
        dfaces.append(d2.faces[0])
        kept = 6 if 6 in dfaces else max(dfaces)
        notes.append(f"{who} extra die {d2.faces[0]}, keeps {kept} ({rule})")
    elif dspec.reroll and kept != 6 and attack > kept + dspec.mod:
        use(t, "guardian")
        d2 = ctx.dice.roll(6, "guardian defence reroll", actor=t.id, rule="UMR-GUARDIAN")
        dfaces.append(d2.faces[0])
        notes.append(f"guardian rerolls {kept} -> {d2.faces[0]} (UMR-GUARDIAN)")
        kept = d2.faces[0]
    defence = kept + dspec.mod
    if kept == 6:
        outcome = SAVED
    elif attack > defence:
        outcome = HIT
    else:
        outcome = MISS
    where = ""
    if ranged:
        where = f' at {measure.gap(m, t):.1f}"'
    att = f"{kind} d6 {ar.faces[0]}{common.mods_text(mods)} = {attack}"
    dtxt = f"defence d6 {dfaces[0]}"
    if notes:
        dtxt += f" ({'; '.join(notes)})"
    dtxt += (f" + {dspec.mod} DEFENSE" if dspec.mod else "") + f" = {defence}"
    verdict = {
        HIT: f"{attack} beats {defence}: hit",
        MISS: f"{attack} does not beat {defence} (ties to the defender): miss",
        SAVED: "a natural six on defence wins outright: no damage, and the "
        "attacker's activation ends (UMR-SIX-DEFENSE)",
    }[outcome]
    extra = ""
    if src != "dice":
        extra = f"; paid with the {action_dice.source_name(m, src)} ({arule})"
    if six:
        extra += f"; a natural six earns {m.id} a bonus action die ({six})"
    text = (
        f"{m.id} attacks {t.id}{where}: {att} vs {dtxt}: {verdict} "
        f"(chance {percent(res[HIT])}, {rule}){extra}"
    )
    ctx.log.emit(
        "resolution",
        text,
        actor=m.id,
        target=t.id,
        rule=rule,
        chance=float(res[HIT]),
        rolls=[ar.faces[0], *dfaces],
        outcome=outcome,
        data={"attack": attack, "defence": defence, "kind": kind, "die": src},
    )
    if outcome == HIT:
        _damage(state, ctx, m, t, ranged)
    return outcome


def _damage(state: GameState, ctx: Context, m: Model, t: Model, ranged: bool) -> None:
    """Damage of one successful attack, in the rulebook's order: the damage die (and its
    sixes), the grenadier's or brawler's extra die, then the tank's counter die."""
    spec = damage_spec(m, t, ranged)
    _, faces = roll_damage(ctx, m.id, 0, "damage", "UMR-DAMAGE")
    # each part: (its dice as labelled groups, its bonus, the rule it cites)
    parts: list[tuple[list[tuple[str, list[int]]], int, str]] = [
        ([("d6", faces)], spec.bonus, "UMR-DAMAGE")
    ]
    if spec.extra == "added":
        who, rule, label = ("grenadier", "UMR-GRENADIER", "grenadier extra damage")
        if ranged and has(m, "grenadier"):
            use(m, "grenadier")
        else:
            use_gift(m, "damage")
            who, rule, label = ("leader", "UMR-LEADER", "leader's extra damage")
        _, f2 = roll_damage(ctx, m.id, 0, label, rule)
        parts = [([("d6", faces), (f"{who}'s extra d6", f2)], spec.bonus, rule)]
    elif spec.extra == "separate":
        use(m, "brawler")
        _, f2 = roll_damage(ctx, m.id, 0, "brawler second damage", "UMR-BRAWLER")
        parts.append(([("brawler's separate second d6", f2)], spec.bonus, "UMR-BRAWLER"))
    amounts = [sum(sum(f) for _, f in groups) + b for groups, b, _ in parts]
    counter = 0
    if spec.counter:
        use(t, "tank")
        counter = ctx.dice.roll(6, "tank counter die", actor=t.id, rule="UMR-TANK").faces[0]
    hi = max(range(len(amounts)), key=lambda i: amounts[i]) if counter else -1
    for i, ((groups, b, rule), amount) in enumerate(zip(parts, amounts, strict=True)):
        if t.removed:
            break
        txt = f"damage {damage_text(groups, b)} = {amount}"
        rolls = [f for _, fs in groups for f in fs]
        if i == hi:
            cut = min(counter, amount)
            txt += f", tank counter die {counter} negates {cut} (UMR-TANK)"
            amount -= cut
            rolls.append(counter)
        deal(state, ctx, t, amount, f"{m.id} damages {t.id}: {txt}", m.id, rule, rolls)


def apply_attack(state: GameState, ctx: Context, m: Model, t: Model, ranged: bool) -> bool:
    """Roll one attack; True when a defence six ended the attacker's activation."""
    common.start(state, m)
    outcome = resolve(state, ctx, m, t, ranged)
    common.after_die_action(state, m)
    if outcome == SAVED and not state.over:
        mv(m)["dice"] = 0
        mv(m)["bonus"] = 0
        mv(m)["granted"] = 0
        ctx.log.emit(
            "status",
            f"{t.id} rolled a natural six on defence: {m.id}'s "
            f"activation ends at once (UMR-SIX-DEFENSE)",
            actor=m.id,
            target=t.id,
            rule="UMR-SIX-DEFENSE",
            outcome="activation ends",
        )
        return True
    return False


def hit_chance(state: GameState, ctx: Context, m: Model, t: Model, ranged: bool) -> Fraction:
    mods = attack_mods(state, ctx, m, t, ranged)
    return combat.contest(sum(x.value for x in mods), defence_spec(t, ranged))[HIT]
