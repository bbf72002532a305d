"""Inter Arma's lazy menu and verdict-only checks (issue 24).

``proposals`` must be ``candidates``' menu: its legal actions are exactly the checked
candidates, in every phase, so the random agent's pick and the search's rollout attack
come from the same options. A verdict-only check (``engine.whether``) must give the
full check's verdict for every shot, and stop early for a target out of range.
"""

from __future__ import annotations

from pathlib import Path

from engine.actions import Shoot
from engine.agents import RandomAgent
from engine.scenario import load_scenario, new_game
from engine.whether import whether
from rulesets.inter_arma.chapters import measure

ROOT = Path(__file__).resolve().parents[3]


def _positions(scenario: str, actions: int, seed: int = 3):
    """Each position of a seeded random game, up to ``actions`` actions in."""
    game = new_game(load_scenario(ROOT / "rulesets/inter_arma/scenarios" / f"{scenario}.toml"))
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(game.state.sides)}
    for n in range(actions):
        side = game.to_act()
        if side is None:
            return
        yield game, side
        game.apply(agents[side].choose(game.clone(dice_seed=n), side))


def _keys(actions) -> list[str]:
    return [repr(a.to_dict()) for a in actions]


def test_the_lazy_menus_legal_actions_are_the_candidates():
    phases = set()
    for game, side in _positions("default", 90):
        menu = game.ruleset.proposals(game.state, side, game.ctx)
        assert menu is not None
        sure, unsure = menu
        assert all(game.check(a).ok for a in sure)
        legal = sure + [a for a in unsure if game.check(a).ok]
        assert sorted(_keys(legal)) == sorted(_keys(game.candidates(side)))
        phases.add(game.state.phase)
    assert phases == {"movement", "ranged", "melee"}


def test_a_verdict_only_shot_check_gives_the_full_verdict_and_stops_early():
    shorter = checked = 0
    for game, side in _positions("default", 60):
        if game.state.phase != "ranged":
            continue
        for m in game.state.live(side):
            for t in game.state.live():
                if t.side == side:
                    continue
                a = Shoot(actor=m.id, target=t.id)
                full = game.check(a)
                with whether():
                    quick = game.check(a)
                assert quick.ok == full.ok and set(quick.reasons) <= set(full.reasons)
                shorter += len(quick.reasons) < len(full.reasons)
                checked += 1
    assert checked and shorter


def test_in_sight_is_sees_verdict():
    """IA-SIGHT: ``in_sight`` (verdict only, far figures refused unmeasured) agrees with
    ``sees`` for every pair on the table at each position."""
    pairs = 0
    for game, _ in _positions("night_raid", 40):
        live = game.state.live()
        for m in live:
            for t in live:
                if m.id != t.id:
                    full = measure.sees(game.state, game.ctx, m, t)
                    assert measure.in_sight(game.state, game.ctx, m, t) == (not full)
                    pairs += 1
    assert pairs
