"""Inter Arma's actions: the engine's move, shoot and fight, each in its phase of the
turn (IA-SEQUENCE), and end_phase and concede. The rulebook needs no kind of its own.
"""

from __future__ import annotations

from engine import actions as act

#: the phase each action kind belongs to (IA-SEQUENCE)
PHASE_OF: dict[type[act.Action], str] = {
    act.Move: "movement",
    act.Shoot: "ranged",
    act.Fight: "melee",
}
