"""The offered shots sight enemies one at a time, nearest first, and stop at the limit
(issue 24): the lists must be exactly those of sighting every enemy and filtering."""

from __future__ import annotations

from pathlib import Path

from engine.agents import RandomAgent
from engine.scenario import load_scenario, new_game
from rulesets.swomp import candidates
from rulesets.swomp.chapters import core, shooting

SCENARIO = Path(__file__).resolve().parents[3] / "rulesets/swomp/scenarios/skirmish10.toml"


def _every_target(state, ctx, m, wpn):
    """The straightforward list: every enemy sighted, the targeting rule, then range."""
    rng = float(wpn.get("range", 0)) + 1e-9
    seen = shooting.seen_enemies(state, ctx, m, wpn)
    return [s for s in shooting.legal_targets(seen) if s.dist <= rng]


def test_reachable_is_the_first_legal_targets_in_range_of_the_full_list():
    game = new_game(load_scenario(SCENARIO))
    agents = {s: RandomAgent(i + 3) for i, s in enumerate(game.state.sides)}
    compared = 0
    for n in range(40):
        side = game.to_act()
        if side is None:
            break
        if n % 4 == 0:
            for m in game.state.live():
                for wpn in core.ranged(m)[:2]:
                    full = _every_target(game.state, game.ctx, m, wpn)
                    for k in (1, 2, None):
                        got = candidates.reachable(game.state, game.ctx, m, wpn, k)
                        assert got == (full if k is None else full[:k])
                    compared += bool(full)
        game.apply(agents[side].choose(game.clone(dice_seed=n), side))
    assert compared > 5
