"""Universal Miniatures Rules ("Everything you need, and nothing you don't", Franz
Braatz), rulebook seed 002_3aa5b3ce80a45d83.txt: squads of characters built
from personality points and one special ability, two action dice each, every action one
d6 roll against another.

The class below only wires the engine's interface to the modules that hold the rules, on
the skeleton every ruleset shares: build (character creation), flow (setup, initiative,
activations), rules (check/apply: verb to chapter), candidates (the computer's options),
odds (previews), score (the computer's position value), victory (game end), state (what
is kept in ``vars``); the rulebook's chapters are in ``chapters/``.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model, fixed_stats
from engine.whether import only_whether
from rulesets.umr import build, candidates, flow, odds, rules, score, victory
from rulesets.umr.actions import Climb, Jump, Lead, RpgTest
from rulesets.umr.state import mv

__all__ = ["UMR", "Climb", "Jump", "Lead", "RpgTest"]

# a character's personality points and ability are fixed when the squad is built
# (UMR-PERSONALITY): no rule writes them in play, so state copies share them
fixed_stats("umr")


@register
class UMR(Ruleset):
    key = "umr"
    title = "Universal Miniatures Rules"
    rulebook = "Universal Miniatures Rules"
    max_die = 6
    stat_keys = build.STAT_KEYS
    builder = build.UmrBuilder
    model_keys = ()
    verbs = ("jump", "climb", "lead", "rpg_test")
    unit_name = "in"
    #: the normal level's pull toward the enemy, a share of the engine's
    #: (``engine.agents.greedy.ENGAGE_PER_INCH``, read in ``GreedyAgent.choose``). Why:
    #: at the full pull a 6" walk was worth about a hit at long range, so the computer
    #: spent nearly half its dice walking and lost the volume of fire to the rush agent,
    #: which shoots whenever it can (mirror 10/20; at 0.6 14/20, the default 14/20; the
    #: removal against a side that never acts stays at 65%: at 0.3 it fell to 49%)
    engage_scale = 0.6

    def check_army(self, models: list[Model]) -> list[tuple[str, str]]:
        return build.check_army(models)

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        flow.setup(state, ctx, first)

    def check(self, state: GameState, action: Action, ctx: Context) -> Legality:
        why = rules.check(state, action, ctx, only_whether())
        return Legality.no(*why) if why else Legality.yes()

    def apply(self, state: GameState, action: Action, ctx: Context) -> None:
        rules.apply(state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[Action]:
        return candidates.candidates(state, side, ctx)

    #: its menus never list an action twice (tests/engine/test_distinct_proposals.py)
    distinct_proposals = True

    def proposals(
        self, state: GameState, side: str, ctx: Context
    ) -> tuple[list[Action], list[Action]] | None:
        """The menu before ``check``, for the lazy random pick and the search's rollout
        policy (see ``engine.agents.random_agent``)."""
        return candidates.proposals(state, side, ctx)

    def advance(self, state: GameState, ctx: Context) -> Action | None:
        return rules.advance(state)

    turns = flow.TURNS

    def at_turn_limit(self, state: GameState, ctx: Context) -> None:
        victory.at_turn_limit(state)

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        """None: a UMR move is declared first and rolled after (UMR-MOVEMENT: an action
        die of inches, plus a personality's MOVE), so no allowance is known while the move is drawn."""
        return None

    def odds(self, state: GameState, action: Action, ctx: Context) -> Odds | None:
        return odds.odds(state, action, ctx)

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        return score.score(state, side, ctx)

    def losses(self, state: GameState, side: str) -> float:
        """The share of health lost: what UMR's turn limit counts (UMR-I-TURN-LIMIT)."""
        return victory.losses(state, side)

    def victory_text(self, scenario: Any) -> str:
        return victory.victory_text(scenario)

    def model_view(self, model: Model) -> dict[str, Any]:
        return {"hp": model.hp, "status": sorted(model.status)}

    def model_card(self, state: GameState, model: Model) -> dict[str, str]:
        """Action dice left this round (UMR-ACTION-DICE) and the personality points as the
        bonuses they are (UMR-PERSONALITY): "MOVE 0" read as "cannot move"."""
        from rulesets.umr.chapters import common

        out = {k: f"+{int(v)}" for k, v in model.stats.items() if k in build.STATS}
        ad = int(model.stats.get("AD", 2))
        if not common.fresh(state, model):
            v = mv(model)
            # dice beyond the normal ones (UMR-SIX-ACTION, UMR-LEADER)
            gifts = ((v.get("bonus", 0), "bonus"), (v.get("granted", 0), "from the leader"))
            extra = [f"{int(n)} {what}" for n, what in gifts if n]
            out["AD"] = f"{int(v.get('dice', 0))} of {ad} left" + "".join(f" + {e}" for e in extra)
        elif model.unit in flow.ready(state, model.side):
            out["AD"] = f"{ad} (not activated yet)"
        else:
            out["AD"] = f"0 of {ad} (activated this round)"
        return out
