"""Inter Arma 1.06 (Andrew J. McCory), skirmish-size wargaming in the ancient and
medieval ages; rulebook seeds/001_59aed166d8383ab5.txt (the shared rulebooks).

Measured in centimetres (2 cm = 1 inch, the text's conversion): the engine keeps
inches, and every text this ruleset writes shows cm. The class wires the engine's
interface to the ruleset's skeleton: build (figures), flow (the turn), rules (the
dispatch to the chapters: movement, ranged, melee, combat, morale, measure in cm...),
candidates, odds, score and victory.
"""

from __future__ import annotations

from typing import Any

from engine import actions as act
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model
from rulesets.inter_arma import build, candidates, flow, odds, rules, score, victory
from rulesets.inter_arma.chapters import measure, movement
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs

CONDITIONS = ("day", "rain", "fog", "night")


@register
class InterArma(Ruleset):
    key = "inter_arma"
    title = "Inter Arma 1.06"
    rulebook = "seeds/001_59aed166d8383ab5.txt"
    max_die = 6
    stat_keys = build.STAT_KEYS
    stat_defaults = build.DEFAULTS
    builder = build.IaBuilder
    model_keys = ()
    verbs = ()
    unit_name = "cm"
    unit_per_inch = T.CM_PER_INCH

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        gs(state).setdefault("conditions", "day")
        flow.start(state, ctx, first)

    def check(self, state: GameState, action: act.Action, ctx: Context) -> Legality:
        why = rules.check(state, action, ctx)
        return Legality.no(*why) if why else Legality.yes()

    def apply(self, state: GameState, action: act.Action, ctx: Context) -> None:
        rules.apply(state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[act.Action]:
        return candidates.candidates(state, side, ctx)

    #: its menus never list an action twice (tests/engine/test_distinct_proposals.py)
    distinct_proposals = True

    def proposals(
        self, state: GameState, side: str, ctx: Context
    ) -> tuple[list[act.Action], list[act.Action]] | None:
        """The menu before ``check``, for the lazy random pick and the search's rollout
        policy (see ``engine.agents.random_agent``)."""
        return candidates.proposals(state, side, ctx)

    def advance(self, state: GameState, ctx: Context) -> act.Action | None:
        return flow.advance(state)

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        """Inches the figure may move now in ``mode`` (IA-MOVE allowance less the
        reductions that do not depend on the path)."""
        m = state.models.get(actor)
        if m is None:
            return None
        mode = mode or movement.mode_of(m, act.Move(actor=actor))
        if movement.base_cm(m, mode) is None:
            return None
        allow, _ = movement.allowance_cm(state, ctx, m, mode, [m.pos])
        return T.inches(allow)

    def sight_radius(self, state: GameState, actor: str, ctx: Context) -> float | None:
        """IA-SIGHT, IA-WEATHER, IA-NIGHT: the figure's sight in the open (woods on its own
        ground included), for the window's sight circle."""
        m = state.models.get(actor)
        if m is None:
            return None
        return T.inches(measure.sight_cm(state, ctx, m, m)[0])

    def odds(self, state: GameState, action: act.Action, ctx: Context) -> Odds | None:
        return odds.odds(state, action, ctx)

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        return score.score(state, side, ctx)

    def losses(self, state: GameState, side: str) -> float:
        return victory.losses(state, side)

    def victory_text(self, scenario: Any) -> str:
        return victory.victory_text(scenario)

    def model_view(self, model: Model) -> dict[str, Any]:
        st = sorted(model.status)
        return {
            "hp": model.hp,
            "status": st,
            "class": model.stats.get("class"),
            "type": model.stats.get("type"),
        }
