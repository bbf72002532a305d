"""Small Inter Arma games in memory, acted on with forced dice.

Why inline: a rule test needs two or three figures on an open table; the setup sits
next to its assertions. Bases are 25 mm (0.984 in), so a centre-to-centre distance of
``BASE + cm / 2`` inches is ``cm`` centimetres edge to edge.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, EndPhase
from engine.battlefield import Battlefield, TerrainFeature
from engine.events import Event
from engine.game import Game
from engine.ruleset import load
from engine.scenario import Scenario, new_game

RS = load("inter_arma")
BASE = 25.0 / 25.4


def fig(mid: str, side: str, x: float, y: float, **stats: Any) -> dict[str, Any]:
    weapons = stats.pop("weapons", [{"name": "sword", "kind": "sword"}])
    return {
        "id": mid,
        "side": side,
        "x": float(x),
        "y": float(y),
        "facing": 0.0,
        "stats": stats,
        "weapons": weapons,
    }


def box(
    fid: str, kind: str, x0: float, y0: float, x1: float, y1: float, height: float = 0.0
) -> TerrainFeature:
    return TerrainFeature(fid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def game(*specs: dict[str, Any], features: tuple[TerrainFeature, ...] = (), first: str = "blue",
         conditions: str = "", turn_limit: int = 0) -> Game:  # fmt: skip
    models = []
    for s in specs:
        m, probs = RS.build_model(s)
        assert not probs and m is not None, probs
        models.append(m)
    scn = Scenario(path="test", title="test", ruleset="inter_arma", seed=1, battlefield=Battlefield(72.0, 48.0, features),
                   models=models, first=first, turn_limit=turn_limit, conditions=conditions)  # fmt: skip
    return new_game(scn)


def act(g: Game, action: Action, dice: list[int] | tuple[int, ...] = ()) -> list[Event]:
    """Apply ``action`` with exactly these forced dice (all of them must be used)."""
    g.dice.force(list(dice))
    events = g.apply(action)
    assert not g.dice.forced, f"unused forced dice {g.dice.forced}: {[e.text for e in events]}"
    assert not any(e.kind == "refused" for e in events), [e.text for e in events]
    return events


def refused(g: Game, action: Action) -> str:
    events = g.apply(action)
    assert [e.kind for e in events] == ["refused"], [e.to_dict() for e in events]
    return events[0].text


def to_phase(g: Game, phase: str) -> None:
    while g.state.phase != phase:
        act(g, EndPhase())


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)
