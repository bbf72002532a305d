"""The passive agent: a baseline that never acts, so a user can read "beats passive".

It ends every activation or phase it is given. Why a baseline this plain: an opponent
that only presses "end" is what a new player tries first, and a computer that cannot
beat it is no opponent (issue 20). Where the ruleset offers no way to end — a pending
decision to answer, or a step the rules require — it picks the least active candidate:
the decision's first answer (rulesets list the decline first), else anything that is
neither an attack nor a move, else the first candidate. No ruleset-specific code.
"""

from __future__ import annotations

from engine.actions import Action, Choose
from engine.game import Game

#: the shared verbs that finish something, most local first
ENDINGS = ("end_activation", "end_phase", "end_turn")
#: fields that make an action a move or an attack (it goes somewhere or hits someone)
ACTIVE_FIELDS = ("to", "path", "target", "weapon")


def is_active(action: Action) -> bool:
    """Whether ``action`` moves a model or aims at someone: a passive side avoids it."""
    return any(getattr(action, f, None) for f in ACTIVE_FIELDS) or action.KIND in (
        "move",
        "charge",
        "shoot",
        "fight",
        "ram",
    )


def least_active(options: list[Action]) -> Action:
    """The candidate that does least: an ending, else the first answer to a pending
    decision, else the first candidate that neither moves nor attacks, else the first."""
    for kind in ENDINGS:
        for a in options:
            if a.KIND == kind:
                return a
    for a in options:
        if isinstance(a, Choose):
            return a
    for a in options:
        if not is_active(a) and a.KIND != "concede":
            return a
    return options[0]


class PassiveAgent:
    name = "passive"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # unused: the agent draws nothing, so any seed plays the same

    def choose(self, game: Game, side: str) -> Action:
        options = game.candidates(side)
        if not options:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        return least_active(options)
