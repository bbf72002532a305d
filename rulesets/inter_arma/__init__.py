"""Inter Arma 1.06 (Andrew J. McCory), skirmish-size wargaming in the ancient and
medieval ages; rulebook seeds/001_59aed166d8383ab5.txt (the shared rulebooks).

Measured in centimetres (2 cm = 1 inch, the text's conversion): the engine keeps
inches, and every text this ruleset writes shows cm. The class wires the engine's
interface to the modules that hold the rules: build (figures), rules (the turn and the
dispatch), movement, ranged, melee, combat (saves and exact odds), morale, measure (cm,
sight) and ai (candidates, score).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import actions as act
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model
from rulesets.inter_arma import ai, build, measure, melee, movement, ranged, rules
from rulesets.inter_arma import tables as T

CONDITIONS = ("day", "rain", "fog", "night")


@register
class InterArma(Ruleset):
    key = "inter_arma"
    title = "Inter Arma 1.06"
    rulebook = "seeds/001_59aed166d8383ab5.txt"
    max_die = 6
    stat_keys = build.STAT_KEYS
    model_keys = ()
    verbs = ()
    unit_name = "cm"
    unit_per_inch = T.CM_PER_INCH

    def build_model(self, spec: Mapping[str, Any]) -> tuple[Model | None, list[tuple[str, str]]]:
        return build.build_model(spec, self.profiles())

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        state.vars.setdefault("conditions", "day")
        rules.start(state, ctx, first)

    def check(self, state: GameState, action: act.Action, ctx: Context) -> Legality:
        why = rules.check(state, action, ctx)
        return Legality.no(*why) if why else Legality.yes()

    def apply(self, state: GameState, action: act.Action, ctx: Context) -> None:
        rules.apply(state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[act.Action]:
        return ai.candidates(state, side, ctx)

    def advance(self, state: GameState, ctx: Context) -> act.Action | None:
        return None if state.over or state.active is None else act.EndPhase()

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
        if rules.check(state, action, ctx):
            return None
        if isinstance(action, act.Shoot):
            return ranged.odds(state, ctx, action)
        if isinstance(action, act.Fight):
            return melee.odds(state, ctx, action)
        return None

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        return ai.score(state, side, ctx)

    def victory_text(self, scenario: Any) -> str:
        return ai.victory_text(scenario)

    def model_view(self, model: Model) -> dict[str, Any]:
        st = sorted(model.status)
        return {
            "hp": model.hp,
            "status": st,
            "class": model.stats.get("class"),
            "type": model.stats.get("type"),
        }
