"""GEM — the Generic Miniatures game (Shawn P. Garbett, 1993), rulebook
seed 000_ac6e90e504dc9bba.txt.

Why this class is thin: each of GEM's rules lives in the module named after it
(movement, missile, melee, morale, magic, vehicles, transport, points, blocks, cards,
deploy); the plugin wires them to the engine's interface and keeps the per-game setup in
one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.actions import Action
from engine.battlefield import Battlefield
from engine.ruleset import Context, Legality, Odds, Ruleset, register
from engine.state import GameState, Model

from . import actions as _actions  # noqa: F401  (registers GEM's action kinds)
from . import build, flow, rules, victory
from .chapters import blocks
from .chapters.transport import carried
from .chapters.transport import check_army as transport_check_army
from .state import gs, in_block_order, is_block, mtype, mv, svars, unit_models


def read_options(state: GameState) -> dict[str, bool]:
    """Scenario options (GEM-I-OPTIONS): ``svars(state)["options"]`` when the runner passes
    one, else an objectives entry ``{ kind = "options", cards = true, deployment = true }``
    (the older form, kept for saved scenarios)."""
    opts: dict[str, bool] = {}
    raw = svars(state).get("options")
    if isinstance(raw, dict):
        opts.update({k: bool(v) for k, v in raw.items()})
    for o in svars(state).get("objectives", []) or []:
        if isinstance(o, dict) and o.get("kind") == "options":
            opts.update({k: bool(v) for k, v in o.items() if k != "kind"})
    return opts


@register
class Gem(Ruleset):
    key = "gem"
    title = "GEM: Generic Miniatures"
    rulebook = "GEM — Generic Miniature game (Shawn P. Garbett, 1993)"
    max_die = 20
    stat_keys = build.STAT_KEYS
    stat_defaults = build.DEFAULTS
    hp_stat = "HIT"
    model_keys = build.MODEL_KEYS
    builder = build.GemBuilder
    verbs = (
        "cast",
        "change_frontage",
        "change_order",
        "drive",
        "embark",
        "disembark",
        "replace_driver",
        "plan",
        "deploy",
        "place_terrain",
    )
    unit_name = "in"
    #: the search's rollouts weigh charges (``engine.agents.policy``): a charge carries
    #: no damage odds, its blows falling in the melee segment, and a rollout that never
    #: charged took the enemy's answer to a move into its reach to be "end movement"
    rollout_charges = True

    def redact(self, state: GameState, viewer: str) -> GameState:
        """Hide the other sides' spell power and deployment plans (GEM-3.5.2, GEM-2.0.4)."""
        from .chapters import view

        return GameState.from_dict(view.redact(state, viewer))

    # --- building ---------------------------------------------------------------
    def check_army(self, models: list[Model]) -> list[tuple[str, str]]:
        """Blocks must be legal formations (GEM-2.1.2) of one figure type and side."""
        out: list[tuple[str, str]] = []
        units: dict[str, list[Model]] = {}
        for m in models:
            units.setdefault(m.unit, []).append(m)
        for unit, ms in units.items():
            if len({m.side for m in ms}) > 1:
                out.append((ms[1].id, f"unit {unit} mixes sides"))
                continue
            if any(in_block_order(m) for m in ms):
                if not all(in_block_order(m) for m in ms):
                    out.append(
                        (ms[0].id, f"block {unit} mixes block figures with others (GEM-2.1.2)")
                    )
                    continue
                rec = blocks.derive(ms)
                why = blocks.shape_problem(len(ms), rec["files"])
                if why:
                    out.append((ms[0].id, f"block {unit}: {why} (GEM-2.1.2)"))
        return out + transport_check_army(models)

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        gg = gs(state)
        gg["options"] = read_options(state)
        gg["strength"] = {
            u: sum(m.hp for m in ms if not m.removed or carried(m))
            for u, ms in state.units(live=False).items()
        }
        for m in state.models.values():
            v = state.models.get(str(mv(m).get("aboard", "")))
            if v is not None:
                m.x, m.y, m.facing = v.x, v.y, v.facing
        gg["blocks"] = {}
        for u, ms in state.units().items():
            if in_block_order(ms[0]):
                gg["blocks"][u] = blocks.derive(ms)
        gg["melee"] = []
        flow.start_turn(state, ctx, first)

    # --- playing ------------------------------------------------------------------
    turns = flow.TURNS

    def start_turn(self, state: GameState, ctx: Context) -> None:
        """A new turn (GEM-2): vehicles' turn start, initiative, the segments."""
        flow.start_turn(state, ctx)

    def at_turn_limit(self, state: GameState, ctx: Context) -> None:
        victory.turn_limit(state, ctx)

    def check(self, state: GameState, action: Action, ctx: Context) -> Legality:
        return rules.check(state, action, ctx)

    def apply(self, state: GameState, action: Action, ctx: Context) -> None:
        rules.apply(state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[Action]:
        from .candidates import candidates

        return candidates(state, side, ctx)

    def proposals(
        self, state: GameState, side: str, ctx: Context
    ) -> tuple[list[Action], list[Action]] | None:
        """The menu before ``check``, for the random agent's lazy pick (see
        ``engine.agents.random_agent``)."""
        from .candidates import proposals

        return proposals(state, side, ctx)

    def advance(self, state: GameState, ctx: Context) -> Action | None:
        return flow.advance(state, ctx)

    def answer_problems(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> list[str]:
        """The setup's decisions (GEM-2.0.2 to GEM-2.0.4): terrain_setup.py and deploy.py
        judge the answers."""
        found: list[str] = flow.setup_step(decision).problems(state, decision, action, ctx)
        return found

    def answer(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> None:
        flow.answer(state, dict(decision), action, ctx)

    def replies(self, state: GameState, decision: Mapping[str, Any], ctx: Context) -> list[Action]:
        found: list[Action] = flow.setup_step(decision).replies(state, decision, ctx)
        return found

    def placed_terrain(self, battlefield: Battlefield, state: GameState) -> Battlefield:
        """The bunches where the setup put them (GEM-2.0.2, terrain_setup.py)."""
        gem = svars(state).get("gem")
        if not gem or "bunches" not in gem:
            return battlefield
        from .chapters.terrain_setup import placed

        return placed(battlefield, state)

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        """GEM-2.1.1: MOV, twice it in a rush, less an obstacle still being crossed (off
        the road: the road bonus depends on the path). A block moves by its lead figure;
        a vehicle drives by speed and turns (GEM-3.1), so it has no allowance in inches."""
        m = state.models.get(actor)
        if m is None or m.removed or mtype(m) == "vehicle":
            return None
        from .chapters.movement import allowance

        lead = blocks.live_order(state, m.unit)[0] if is_block(state, m.unit) else m
        return allowance(state, ctx, lead, [lead.pos], mode == "rush")[0]

    def odds(self, state: GameState, action: Action, ctx: Context) -> Odds | None:
        from .odds import odds

        return odds(state, action, ctx)

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        """Points kept against the enemy's, objectives held or denied, and a small pull
        toward targets (score.py): what the turn limit and objectives decide on."""
        from .score import score

        return score(state, side)

    def victory_text(self, scenario: Any) -> str:
        return victory.victory_text(scenario)

    def points_report(self, path: str | Path) -> str | None:
        """GEM-4: each figure priced by the point formula (GEM-4.2.2), the army's limits checked."""
        from .chapters.points import points_report

        return points_report(path)

    def study(self, **options: Any) -> tuple[str, bool] | None:
        """GEM's point study (GEM-4): duels across the stats against the point ratio."""
        from .chapters.balance import run

        return run(**options)

    def model_view(self, model: Model) -> dict[str, Any]:
        """hp and status for every figure; a vehicle adds its speed and the radius of its
        wheels (GEM-3.1: the speed; twice it with a dragging wheel, 0 when it may only
        turn in place), which the window draws as its turning arcs."""
        view: dict[str, Any] = {"hp": model.hp, "status": sorted(model.status)}
        if mtype(model) == "vehicle":
            from .chapters.vehicles import turn_radius

            view["speed"] = float(mv(model).get("speed", 0.0))
            view["turn_radius"] = turn_radius(model)
        return view


__all__ = ["Gem", "is_block", "unit_models"]
