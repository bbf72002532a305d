"""Inter Arma 1.06: massed combat in play, spears from the second rank, closed formations
and the ambushed figure's initiative, with forced dice (sections 4.I, 5.I c, 5.V d,
5.V special)."""

from __future__ import annotations

from engine.actions import EndPhase, Fight, Move, Shoot
from rulesets.inter_arma.chapters import formation, massed
from tests.rulesets.inter_arma.helpers import BASE, act, box, fig, game, refused, texts, to_phase

SHIELD = {"shield": True}
SPEAR = [{"name": "spear", "kind": "spear"}]


def _lines(n: int, **extra: object) -> list[dict]:
    """n blue figures in a column at x=10 (touching each other), each touching the red
    figure across at x=10+BASE; diagonals are 0.42" apart, out of contact."""
    out = []
    for i in range(n):
        out.append(fig(f"a{i + 1}", "blue", 10, 10 + i, **extra))
        out.append(fig(f"r{i + 1}", "red", 10 + BASE, 10 + i, **extra))
    return out


def test_the_texts_example_in_play():
    """IA-MASSED (5.V d): A 6,5,3,1 against B 5,5,2,2 gives A, reroll, A, B; the tied rank
    rerolls one die each (3 against 4: B). Winners strike first, rank by rank."""
    g = game(*_lines(4))
    to_phase(g, "melee")
    assert massed.is_massed(g.state, Fight(actor="a1", target="r1"))
    dice = [6, 5, 3, 1, 5, 5, 2, 2, 3, 4] + [6] * 8  # ranks, the reroll, eight saves
    ev = act(g, Fight(actor="a1", target="r1"), dice)
    rows = next(e.data["ranks"] for e in ev if e.data and "ranks" in e.data)
    assert [r[5] for r in rows] == ["A", "B", "A", "B"]
    assert [(r[1], r[3]) for r in rows] == [(6, 5), (5, 5), (3, 2), (1, 2)]
    line = next(e.text for e in ev if e.data and "ranks" in e.data)
    assert "rank 1: 6 a1 v 5 r1, A; rank 2: 5 a2 v 5 r2, tied, B on the reroll" in line
    saves = [e.target for e in ev if e.rule == "IA-SAVE" and e.kind == "resolution"]
    # first a1 (rank 1), r2 (rank 2 after the reroll), a3, r4; then the losers
    assert saves == ["r1", "a2", "r3", "a4", "a1", "r2", "a3", "r4"]
    assert all(g.state.models[x].vars["clashed"] == 1 for x in ("a1", "a4", "r1", "r4"))


def test_massed_order_counts_an_unmatched_die_as_won():
    """IA-MASSED and IA-I-MASSED: the text's ranks; a die with none against it wins."""
    assert massed.order([6, 5, 3, 1], [5, 5, 2, 2]) == ["A", "reroll", "A", "B"]
    assert massed.order([4, 2, 1], [3]) == ["A", "A", "A"]


def test_massed_has_no_class_bonus_and_downs_stop_blows():
    """IA-MASSED: elites and commanders lose their initiative bonus (plain dice); a figure
    put down before its blow does not strike."""
    specs = _lines(2)
    specs[0]["stats"]["class"] = "commander"
    g = game(*specs)
    to_phase(g, "melee")
    # blue 1,1 against red 2,2: red wins both ranks; r1 wounds a1 (1+2 = 3), a2 saves (6),
    # a1 is down and does not strike, a2 strikes r2 (saved, 6)
    ev = act(g, Fight(actor="a1", target="r1"), [1, 1, 2, 2, 1, 6, 6])
    assert "wounded" in g.state.models["a1"].status
    assert [e.target for e in ev if e.rule == "IA-SAVE" and e.kind == "resolution"] == [
        "a1",
        "a2",
        "r2",
    ]


def test_spears_strike_from_the_second_rank():
    """IA-MASSED: spears do damage from the second rank (a spearman 2 cm behind a1)."""
    specs = _lines(2) + [fig("s", "blue", 10 - 1.0, 10, weapons=SPEAR)]
    g = game(*specs)
    to_phase(g, "melee")
    assert [m.id for m in massed.second_rank(g.state, [g.state.models["a1"], g.state.models["a2"]],
                                             [g.state.models["r1"], g.state.models["r2"]])] == ["s"]  # fmt: skip
    # ranks A, A; a1, a2 strike (saved 6, 6), r1, r2 strike back (saved 6, 6), s strikes r1: 1 dead
    ev = act(g, Fight(actor="a1", target="r1"), [6, 5, 2, 1, 6, 6, 6, 6, 1])
    assert [e.target for e in ev if e.rule == "IA-SAVE" and e.kind == "resolution"][
        -1
    ] == "r1" and g.state.models["r1"].removed
    assert "+1 and +0 spears from the second rank" in texts(ev)


def test_a_sword_does_not_reach():
    """IA-MASSED: only spears and pikes (and mounted polearms) reach from the second rank."""
    specs = _lines(2) + [fig("s", "blue", 10 - 1.0, 10)]
    g = game(*specs)
    front = [g.state.models["a1"], g.state.models["a2"]]
    foes = [g.state.models["r1"], g.state.models["r2"]]
    assert massed.second_rank(g.state, front, foes) == []


def _wall(**extra: object) -> list[dict]:
    return [fig(f"b{i}", "blue", 10, 9 + i, **SHIELD, **extra) for i in (1, 2, 3)]


def test_closed_formation_save_in_melee():
    """IA-SAVE c: r strikes first (5 v 2), b2 saves 3+1 = 4, strikes back, r saves on 6."""
    g = game(*_wall(), fig("r", "red", 10 + BASE, 11), first="red")
    to_phase(g, "melee")
    ev = act(g, Fight(actor="r", target="b2"), [5, 2, 3, 6])
    assert "closed formation +1" in texts(ev) and "wounded" not in g.state.models["b2"].status


def test_two_shields_are_no_wall():
    """IA-I-CLOSED: two figures are not a closed formation."""
    g = game(*_wall()[:2], fig("r", "red", 40, 40))
    assert not formation.closed(g.state, g.ctx, g.state.models["b1"])


def test_volley_fire_ignores_the_wall():
    """IA-SAVE c: no protection against volley fire (a long-range shot, IA-I-CLOSED)."""
    bow = [{"name": "bow", "kind": "bow"}]
    g = game(*_wall(), fig("r", "red", 10 + BASE + 11, 11, weapons=bow), first="red")
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="r", target="b2"), [6, 3])
    assert "long range" in texts(ev) and "closed formation" not in texts(ev)
    assert "wounded" in g.state.models["b2"].status


def test_closed_formation_cannot_enter_heavy_woods():
    """IA-MOVE: units cannot enter heavy woods in closed formation."""
    g = game(*_wall(), fig("r", "red", 60, 40), features=(box("w", "heavy_woods", 4, 8, 8, 14),))
    why = refused(g, Move(actor="b2", to=(7.5, 11)))
    assert "closed formation, which cannot enter heavy woods" in why
    act(g, Move(actor="b2", to=(12, 11)))


def test_ambushed_figure_has_the_initiative_next_turn():
    """IA-AMBUSH: saved, a regular cannot strike back at once but has the initiative next
    turn (no initiative roll against its ambusher)."""
    g = game(fig("a", "blue", 10, 10), fig("r", "red", 10 + BASE, 10))
    g.state.models["a"].set_status("crawling")
    to_phase(g, "melee")
    ev = act(g, Fight(actor="a", target="r"), [6])
    assert "initiative next turn" in texts(ev)
    act(g, EndPhase())
    act(g, EndPhase())
    to_phase(g, "melee")
    act(g, EndPhase())  # blue's melee phase; red's comes next
    ev = act(g, Fight(actor="r", target="a"), [6, 6])
    assert "saved against an ambush last turn" in texts(ev)


def test_an_inspired_commander_strikes_one_harder():
    """IA-MORALE 12: the commander has +1 damage in his next combat (IA-I-INSPIRED): the
    struck figure's 4 becomes 3, wounded; the inspiration is spent."""
    g = game(fig("c", "blue", 10, 10, **{"class": "commander"}), fig("r", "red", 10 + BASE, 10))
    g.state.models["c"].vars["inspired"] = True
    to_phase(g, "melee")
    ev = act(g, Fight(actor="c", target="r"), [4, 3, 4])
    assert "inspired: +1 damage \u22121" in texts(ev) and "wounded" in g.state.models["r"].status
    assert "inspired" not in g.state.models["c"].vars
