"""Gemini and its skirmish rules (GASR); rulebook seeds/003_8b0deb6d94629f83.txt.

The text is a page of optional rules for a Rogue Trader style core it does not include.
So the ruleset has two layers: a small core of the classic figures (profiles M WS BS S
T W I A Ld Sv, to hit from BS, Strength against Toughness, armour saves, Ld tests on
2d6), recorded in reference.toml as designer's interpretations, and the text's optional
rules, each a switch a scenario's ``options`` table turns on (``switches``). Each model
is its own unit (the text's skirmish premise). README.md says where each switch plugs
into the rules.

The class wires the engine's interface to the skeleton's modules: build (models),
flow (the turn), rules (the dispatch to the chapters), candidates and score (the
computer), odds, victory; the rulebook's chapters are in ``chapters/`` (movement,
shooting, melee, wounds, morale, the Combat Score, the switches and ``options/``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import actions as act
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model
from rulesets.gemini import build, candidates, flow, odds, rules, score, victory
from rulesets.gemini.chapters import movement, reacting, switches, tables, view
from rulesets.gemini.chapters.options import tasks


@register
class Gemini(Ruleset):
    key = "gemini"
    title = "Gemini and its skirmish rules (GASR)"
    rulebook = "seeds/003_8b0deb6d94629f83.txt"
    max_die = 10
    stat_keys = build.STAT_KEYS
    stat_defaults = dict(tables.DEFAULTS)  # the core figures (GM-I-CORE)
    hp_stat = "W"
    verbs = rules.VERBS

    # --- building ---------------------------------------------------------------------
    def build_model(self, spec: Mapping[str, Any]) -> tuple[Model | None, list[tuple[str, str]]]:
        prof = self.profiles().get(str(spec.get("profile") or ""), {})
        ws = build.weapons(spec, prof, self.catalog.get("weapons", {}))
        probs = build.weapon_problems(ws)
        model, more = super().build_model({**spec, "weapons": ws})
        probs += more
        if probs:
            return None, probs
        return model, []

    def stat_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str]]:
        return build.stat_problems(stats)

    def option_problems(self, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        return switches.problems(options)

    def place_problems(
        self, places: Sequence[Mapping[str, Any]], options: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """GM-I-TASKS: the hidden things and tasks the skills and observation switches
        play (``options.tasks``)."""
        return tasks.place_problems(places, options)

    # --- the turn: the flow the ``turns`` switch picks ---------------------------------
    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        flow.setup(self, state, ctx, first)

    def to_act(self, state: GameState) -> str | None:
        side: str | None = flow.flow(state).to_act(state)
        return side

    def check(self, state: GameState, action: act.Action, ctx: Context) -> Legality:
        verdict: Legality = flow.flow(state).check(self, state, action, ctx)
        return verdict

    def apply(self, state: GameState, action: act.Action, ctx: Context) -> None:
        before = flow.step_key(state)
        flow.flow(state).apply(self, state, action, ctx)
        flow.stepped(state, ctx, before)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[act.Action]:
        found: list[act.Action] = flow.flow(state).candidates(self, state, side, ctx)
        return found

    def advance(self, state: GameState, ctx: Context) -> act.Action | None:
        step: act.Action | None = flow.flow(state).advance(self, state, ctx)
        return step

    def answer(
        self, state: GameState, decision: Mapping[str, Any], action: act.Action, ctx: Context
    ) -> None:
        """A reaction, charge reaction or overwatch decision (``reacting``), else the
        default."""
        if reacting.answers(dict(decision)):
            reacting.answer(state, ctx, dict(decision), action)
        else:
            super().answer(state, decision, action, ctx)

    def answer_problems(
        self, state: GameState, decision: Mapping[str, Any], action: act.Action, ctx: Context
    ) -> list[str]:
        return reacting.answer_problems(state, ctx, dict(decision), action)

    #: its menus never list an action twice (tests/engine/test_distinct_proposals.py)
    distinct_proposals = True

    def proposals(
        self, state: GameState, side: str, ctx: Context
    ) -> tuple[list[act.Action], list[act.Action]] | None:
        """The menu before ``check`` (issue 24: the random agent and the rollouts draw
        from it and check what they draw)."""
        return candidates.proposals(state, side, ctx)

    # --- the rules ----------------------------------------------------------------------
    def problems(self, state: GameState, action: act.Action, ctx: Context) -> list[str]:
        return rules.problems(state, action, ctx)

    def resolve(self, state: GameState, action: act.Action, ctx: Context) -> None:
        rules.resolve(state, action, ctx)

    def options(self, state: GameState, unit: str, ctx: Context) -> list[act.Action]:
        return candidates.options(state, unit, ctx)

    def at_turn_limit(self, state: GameState, ctx: Context) -> None:
        victory.at_turn_limit(state)

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        m = state.models.get(actor)
        return None if m is None else movement.allowance(state, m, mode)

    def odds(self, state: GameState, action: act.Action, ctx: Context) -> Odds | None:
        if not self.check(state, action, ctx).ok:
            return None
        return odds.action_odds(state, ctx, action)

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        return score.score(state, side, ctx)

    def model_view(self, model: Model) -> dict[str, Any]:
        return view.model_view(model)
