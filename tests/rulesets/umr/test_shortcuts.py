"""The shortcuts that make UMR's checks and position score cheap (issue 24) give the
answers of the long way round: each is compared with it on positions of seeded random
games on the bench's borderlands table (UMR-BALLISTIC, UMR-MELEE, UMR-ROUND)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from engine.agents import RandomAgent
from engine.closing import pull
from engine.scenario import load_scenario, new_game
from engine.table import footprint
from rulesets.umr import flow, score
from rulesets.umr.chapters import measure
from rulesets.umr.state import frozen

ROOT = Path(__file__).resolve().parents[3]
SKIRMISH = ROOT / "rulesets" / "umr" / "scenarios" / "skirmish10.toml"


def positions(seed: int, steps: int = 120, every: int = 12):
    """Games (clones) at every ``every``-th decision of a seeded random game."""
    scn = load_scenario(SKIRMISH)
    scn.seed = seed
    g = new_game(scn)
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(g.state.sides)}
    for n in range(steps):
        side = g.to_act()
        if side is None:
            break
        if n % every == 0:
            yield g.clone(dice_seed=n)
        g.apply(agents[side].choose(g.clone(dice_seed=n), side))


def test_an_open_view_is_a_whole_view(seed=0):
    """UMR-BALLISTIC: where no hiding terrain comes near the line, the geometry service
    sees the whole target; and the shortcut does fire on this table (else it is dead)."""
    opened = 0
    for g in positions(seed, steps=100, every=50):
        live = g.state.live()
        for a, b in itertools.permutations(live, 2):
            fa, fb = measure.eye(g.ctx, a), footprint(b)
            if g.ctx.table.geo.surely_in_view(fa, fb):
                opened += 1
                assert g.ctx.table.visible(fa, fb)[0] == 1.0, (a.id, b.id)
    assert opened > 20


def test_engaged_are_the_models_with_foes_in_contact(seed=0):
    """UMR-MELEE: the one-pass melee scan names exactly the models a per-model scan
    finds in base contact with an enemy (and some are, in these positions)."""
    seen = 0
    for g in positions(seed, steps=300, every=6):
        st = g.state
        with frozen(st):
            busy = measure.engaged(st)
        assert busy == {m.id for m in st.live() if measure.foes_in_contact(st, m)}
        seen += len(busy)
    assert seen > 0


@pytest.mark.parametrize("seed", [0])
def test_ready_units_and_unit_models_match_the_engine(seed):
    """UMR-ROUND: the one-pass ready list and unit lookup give the engine's answers,
    frozen or not."""
    for g in positions(seed):
        st = g.state
        for side in st.sides:
            assert flow.ready(st, side) == flow.TURNS.ready_units(st, side)
        for unit, models in st.units().items():
            assert flow.unit_models(st, unit) == models
            with frozen(st):
                assert flow.unit_models(st, unit) == models


@pytest.mark.parametrize("seed", [0])
def test_closing_is_the_shared_pull(seed):
    """UMR-MELEE (the score's melee edge): the inline closing pull with its edge table
    equals ``engine.closing.pull`` with ``melee_edge`` worked out for every pair."""
    for g in positions(seed):
        st = g.state
        for side in st.sides:
            free = [m for m in st.live(side) if not measure.foes_in_contact(st, m)]
            foes = [e for e in st.live() if e.side != side]
            slow = score.MELEE_WEIGHT * pull(
                free,
                foes,
                reach=lambda m: 6.0 + int(m.stats.get("MOVE", 0)),
                span=score.MELEE_SPAN,
                gain=score.melee_edge,
                gap=measure.gap,
            )
            assert score.closing(st, side) == slow
