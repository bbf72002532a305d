"""SWOMP — the contest-based miniatures rules by its two authors (rulebook:
seed 004_b239a5584a12b7d3.txt).

Every attack is a contest of two d10 rolls added to two values; a 1 always loses, a 10
always wins, ties go to the defender. Sides alternate unit actions after a d10
initiative roll. The rules reference (reference.toml) paraphrases each rule and lists
the designer's interpretations where the rulebook is silent or unfinished.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model

from . import actions as _actions  # noqa: F401  (registers SWOMP's verbs)
from . import build, candidates, flow, odds, rules, score
from .chapters import answers, core, vehicles
from .state import mv


@register
class Swomp(Ruleset):
    key = "swomp"
    title = "SWOMP"
    rulebook = "SWOMP — d10 contest system for 25–28 mm sci-fi"
    max_die = 10
    stat_keys = build.STAT_KEYS
    model_keys = build.MODEL_KEYS
    builder = build.Builder
    verbs = ("overwatch", "wait", "retreat", "rally", "clear_jam", "ram", "man", "deploy")
    unit_name = "in"

    def check_army(self, models: list[Model]) -> list[tuple[str, str]]:
        return build.army_problems(models)

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        flow.setup(state, ctx, first)

    def to_act(self, state: GameState) -> str | None:
        return flow.to_act(state)

    def check(self, state: GameState, action: Action, ctx: Context) -> Legality:
        return rules.check(state, action, ctx)

    def apply(self, state: GameState, action: Action, ctx: Context) -> None:
        rules.apply(state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[Action]:
        return candidates.candidates(state, side, ctx)

    def proposals(
        self, state: GameState, side: str, ctx: Context
    ) -> tuple[list[Action], list[Action]] | None:
        """The menu before ``check``, for the lazy random pick and the search's rollout
        policy (see ``engine.agents.random_agent``)."""
        return candidates.proposals(state, side, ctx)

    def advance(self, state: GameState, ctx: Context) -> Action | None:
        return rules.advance(state, ctx)

    # --- reactions: the engine's pending decisions (reactions.py) -------------------
    def replies(self, state: GameState, decision: Mapping[str, Any], ctx: Context) -> list[Action]:
        return candidates.reaction_options(state, ctx, dict(decision))

    def answer_problems(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> list[str]:
        return answers.answer_problems(state, decision, action, ctx)

    def answer(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> None:
        answers.answer(state, dict(decision), action, ctx)

    turns = flow.TURNS

    def at_turn_limit(self, state: GameState, ctx: Context) -> None:
        """SWOMP-I-VICTORY: casualties, then damage, units broken, ground taken."""
        from .victory import finish_on_points

        limit = state.turn_limit
        finish_on_points(state, ctx, f"turn limit ({limit}) reached")

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        """A trooper's move this action (SWOMP "Actions": 2 x MR moving only, 1 x MR
        with a shot...); a vehicle's farthest move at its speed and acceleration."""
        from .chapters import movement

        m = state.models.get(actor)
        if m is None or m.removed:
            return None
        if core.is_vehicle(m):
            return float(vehicles.speed_range(m)[1])
        return float(movement.allowance(m)[0])

    def odds(self, state: GameState, action: Action, ctx: Context) -> Odds | None:
        return odds.odds(state, action, ctx)

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        """Points-weighted HP taken less HP lost, broken units, and a small pull toward
        targets (score.py): the measures the turn limit is decided by; with the table
        at hand, also the balance of the shots each side has on the other."""
        return score.score(state, side, ctx)

    def victory_text(self, scenario: Any) -> str:
        return score.victory_text(scenario)

    def points_report(self, path: str | Path) -> str | None:
        """An army list priced by the designer's formula (SWOMP-I-POINTS, SWOMP-I-ARMY)."""
        from .chapters.points import points_report

        return points_report(path)

    def model_view(self, model: Model) -> dict[str, Any]:
        """HP and status for every model; a vehicle adds its speed, its locations and the
        radius of its turning arc in inches (SWOMP-I-TURN-RADIUS)."""
        view: dict[str, Any] = {"hp": model.hp, "status": sorted(model.status)}
        if core.is_vehicle(model):
            view["speed"] = mv(model).get("speed", 0.0)
            view["turn_radius"] = round(vehicles.turn_radius(model), 2)
            view["locations"] = dict(mv(model).get("loc", {}))
        return view
