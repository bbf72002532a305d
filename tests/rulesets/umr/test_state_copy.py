"""A UMR state's copies share the models' stats (``engine.state.fixed_stats``): why that
is safe, and that everything else a copy holds is still its own (issue 24)."""

from __future__ import annotations

import copy

from engine.agents import make
from engine.scenario import load_scenario, new_game
from engine.state import GameState
from rulesets.umr import UMR  # noqa: F401  (registers UMR's fixed stats)
from tests.rulesets.umr.helpers import game, spec

SKIRMISH = "rulesets/umr/scenarios/skirmish10.toml"


def test_copy_shares_stats_and_nothing_else():
    """UMR-PERSONALITY: points are fixed at squad building, so a copy shares them; the
    status words, vars and places are the copy's own."""
    g = game(spec("b1", "blue", 10, 10), spec("r1", "red", 20, 10))
    c = g.state.copy()
    a, b = g.state.models["b1"], c.models["b1"]
    assert b.stats is a.stats
    assert b.vars is not a.vars and b.vars == a.vars
    assert b.status is not a.status and b.weapons is not a.weapons
    b.vars["moved"] = 3.0
    b.x = 30.0
    assert a.vars.get("moved") != 3.0 and a.x == 10.0
    assert c.checksum() != g.state.checksum()


def test_other_rulesets_copy_their_stats():
    """UMR-PERSONALITY: only a ruleset that declared its stats fixed shares them
    (Gemini's change in play)."""
    s = GameState.from_dict(
        game(spec("b1", "blue", 10, 10), spec("r1", "red", 20, 10)).state.to_dict()
    )
    s.ruleset = "gemini"
    c = s.copy()
    assert c.models["b1"].stats is not s.models["b1"].stats
    assert c.models["b1"].stats == s.models["b1"].stats


def test_no_rule_changes_stats_in_play():
    """UMR-PERSONALITY, what sharing relies on: whole random games (shots, melee, moves, climbs, the
    leader's gift, removals) leave every model's stats as the squad was built."""
    for seed in (1, 2, 3):
        scn = load_scenario(SKIRMISH)
        scn.seed = seed
        scn.turn_limit = 6
        g = new_game(scn)
        g.record = False
        built = {k: copy.deepcopy(m.stats) for k, m in g.state.models.items()}
        agents = {s: make("random", seed=seed + i) for i, s in enumerate(g.state.sides)}
        n = 0
        while (side := g.to_act()) is not None and n < 3000:
            g.apply(agents[side].choose(g.clone(dice_seed=n), side))
            n += 1
        assert n > 50
        assert {k: m.stats for k, m in g.state.models.items()} == built
