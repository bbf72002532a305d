"""The rush agent: a plain, human-like plan a user can read as a baseline (issue 20).

Each model advances on the nearest enemy and attacks whatever it can with the best
odds. In order, among the ruleset's candidates:

1. an attack — one that names an enemy model or unit as its ``target``: those with
   exact damage odds (``Odds.measures == DAMAGE``) by expected damage, then charges
   (whose odds, if any, count inches or nothing) by their chance of going in;
2. else the move that most reduces the actor's distance to its nearest enemy, base edge
   to base edge (``engine.table.distance``), measured on the position after the move in
   a clone with the agent's own dice: the ruleset's legal paths are the ones it offers;
3. else the least active candidate (``passive.least_active``): end the activation.

No ruleset-specific code; the clone's dice stream is fixed by the seed, so a seed
always plays the same game.
"""

from __future__ import annotations

from engine.actions import Action, Charge
from engine.agents.passive import ENDINGS, least_active
from engine.game import Game
from engine.ruleset import DAMAGE
from engine.state import GameState, Model
from engine.table import distance

#: a move must gain this much (inches) to count as closing in
MIN_GAIN = 0.05
#: attacks weaker than this expected damage are not worth the action
MIN_DAMAGE = 1e-9


def enemy_ids(state: GameState, side: str) -> set[str]:
    """Ids of the live enemy models and of their units: what an attack may name."""
    out: set[str] = set()
    for m in state.live():
        if m.side != side:
            out.update((m.id, m.unit))
    return out


def actor_models(state: GameState, actor: str, side: str) -> list[Model]:
    """The live models an action's ``actor`` stands for (a model, or a unit's models)."""
    return [m for m in state.live(side) if actor and actor in (m.id, m.unit)]


def gap(state: GameState, actor: str, side: str) -> float | None:
    """Mean over the actor's models of the distance to the nearest live enemy model."""
    mine = actor_models(state, actor, side)
    foes = [m for m in state.live() if m.side != side]
    if not mine or not foes:
        return None
    return sum(min(distance(m, f) for f in foes) for m in mine) / len(mine)


class RushAgent:
    name = "rush"

    def __init__(self, seed: int = 0) -> None:
        self.stream = (seed * 2_654_435_761 + 0x2057) & 0xFFFFFFFF

    def attack_rank(self, game: Game, action: Action) -> tuple[int, float] | None:
        """(tier, strength) of an attack, higher first; None when ``action`` is none."""
        odds = game.odds(action)
        if odds is not None and odds.measures == DAMAGE and odds.expected is not None:
            e = float(odds.expected)
            return (1, e) if e > MIN_DAMAGE else None
        if isinstance(action, Charge) or action.KIND == "charge":
            return (0, float(odds.chance) if odds is not None else 1.0)
        return None

    def best_attack(self, game: Game, side: str, options: list[Action]) -> Action | None:
        foes = enemy_ids(game.state, side)
        best: tuple[tuple[int, float], Action] | None = None
        for a in options:
            if getattr(a, "target", "") not in foes:
                continue
            rank = self.attack_rank(game, a)
            if rank is not None and (best is None or rank > best[0]):
                best = (rank, a)
        return best[1] if best else None

    def best_move(self, game: Game, side: str, options: list[Action]) -> Action | None:
        """The candidate that goes somewhere and most closes on the nearest enemy."""
        best: tuple[float, Action] | None = None
        for a in options:
            if a.KIND in ENDINGS or not (getattr(a, "to", None) or getattr(a, "path", None)):
                continue
            before = gap(game.state, a.actor, side)
            if before is None:
                continue
            c = game.clone(stream=self.stream)
            try:
                c.apply(a)
            except Exception:  # a candidate the ruleset then refuses is simply not taken
                continue
            after = gap(c.state, a.actor, side)
            if after is None:
                continue
            gain = before - after
            if gain > MIN_GAIN and (best is None or gain > best[0]):
                best = (gain, a)
        return best[1] if best else None

    def choose(self, game: Game, side: str) -> Action:
        options = game.candidates(side)
        if not options:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        return (
            self.best_attack(game, side, options)
            or self.best_move(game, side, options)
            or least_active(options)
        )
