"""The ruleset plugin interface: what every rulebook implements, and how one is loaded.

Why this shape: the window, the scenario runner, the AI and the contract tests all talk
to a ruleset through these few calls. ``check`` rolls no dice (the window calls it on
hover); ``apply`` rolls through the context's dice and writes events; ``candidates`` is
the finite list an AI chooses from; ``odds`` gives the exact chances the preview and the
AI both read.
"""

from __future__ import annotations

import atexit
import importlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, cast

from engine.actions import Action, Choose
from engine.battlefield import Battlefield
from engine.building import Builder
from engine.dice import Dice
from engine.events import EventLog
from engine.state import GameState, Model

if TYPE_CHECKING:  # pragma: no cover
    from engine.geometry import Geometry
    from engine.physics import Physics
    from engine.table import Memo, Table


#: refusal codes the engine, the window and the agents read (``Reason.code``); a ruleset
#: may add its own, but these mean the same in every ruleset
NOT_YOUR_TURN = "not_your_turn"
ALREADY_ACTIVATED = "already_activated"
ACTIVATING = "activating"
#: the turn's sequence has not reached this action yet (another phase, segment or card)
NOT_NOW = "not_now"
GAME_OVER = "game_over"
NO_SUCH_MODEL = "no_such_model"
UNKNOWN_ACTION = "unknown_action"
OUT_OF_RANGE = "out_of_range"
OUT_OF_ARC = "out_of_arc"
NO_SIGHT = "no_sight"
TOO_FAR = "too_far"
TOO_SHORT = "too_short"
PENDING = "pending"


class Reason(str):
    """One reason an action is refused: the words a player reads (the string itself),
    a ``code`` a program reads, and the numbers behind it (``data``: distance, limit...).

    Why a ``str``: every ruleset, log line and test already handles reasons as text, so
    a coded reason is still the same text everywhere; the window and the agents read the
    code and the data instead of parsing English (a model called ``arc1`` is not an arc).
    """

    code: str
    data: dict[str, Any]

    def __new__(cls, text: str, code: str = "", **data: Any) -> Reason:
        r = super().__new__(cls, text)
        r.code = code
        r.data = data
        return r

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reason, (str(self), self.code, self.data))


def _reason(text: str, code: str, data: dict[str, Any]) -> Reason:
    return Reason(text, code, **data)


def decision(
    side: str, kind: str, text: str, options: Any = (), verbs: Any = ("choose",), **data: Any
) -> dict[str, Any]:
    """One pending decision as ``GameState.pending`` holds it (``Ruleset.ask``), for a
    ruleset that must place one before older ones (a consequence answered first)."""
    return {
        "side": side,
        "kind": kind,
        "text": text,
        "options": list(options),
        "verbs": list(verbs),
        "data": data,
    }


def code_of(reason: str) -> str:
    """The code of a reason ("" for a plain string)."""
    return getattr(reason, "code", "")


@dataclass(frozen=True)
class Legality:
    """Whether an action may be taken now, and if not, every reason why.

    Reasons are strings; those a program needs to tell apart are ``Reason``s with a
    code and data (``find``)."""

    ok: bool
    reasons: tuple[str, ...] = ()

    @classmethod
    def yes(cls) -> Legality:
        return cls(True)

    @classmethod
    def no(cls, *reasons: str) -> Legality:
        return cls(False, tuple(reasons))

    def __bool__(self) -> bool:
        return self.ok

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes of the coded reasons, in order."""
        return tuple(c for c in (code_of(r) for r in self.reasons) if c)

    def find(self, code: str) -> Reason | None:
        """The first reason with ``code`` (None if there is none)."""
        for r in self.reasons:
            if isinstance(r, Reason) and r.code == code:
                return r
        return None


#: what an Odds distribution counts (``Odds.measures``)
DAMAGE = "damage"
DISTANCE = "distance"


@dataclass
class Odds:
    """The exact result distribution of an action before it is taken.

    ``chance``: probability the acting side gets what it wants (a hit, a win).
    ``dist``: distribution of the main quantity (damage dealt, hits) where there is one.
    ``lines``: a short explanation, each modifier with its reason and rule.
    ``measures``: what ``dist`` and ``expected`` count — "damage" (harm done: damage,
    hits, casualties) or "distance" (inches a movement roll gives). Why it is said: an
    agent ranking attacks by expected harm must not mistake a long move for a big hit.
    """

    chance: Fraction
    dist: dict[int, Fraction] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    expected: Fraction | None = None
    measures: str = DAMAGE

    def summary(self) -> str:
        from engine.dice import percent

        s = f"chance {percent(self.chance)}"
        if self.expected is not None:
            s += f", expected {float(self.expected):.2f}"
        return s


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (None = draw) and why."""

    winner: str | None
    reason: str
    turns: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "turns": self.turns}


@atexit.register
def _release_spaces() -> None:
    """Free cached pymunk spaces before interpreter teardown (else pymunk's finalizer
    runs after its module is gone and prints a warning)."""
    import gc
    import sys

    table = sys.modules.get("engine.table")
    if table is not None:
        table.release_spaces()
    gc.collect()


class Context:
    """Services handed to every rules call: dice, log, battlefield and its table.

    ``table`` is the battlefield's measuring facade (``engine.table``): distances, arcs,
    sight, terrain paths and the memos rules keep, made once per battlefield and kept on
    it, so every context on the same battlefield (AI clones included) shares it and a
    freed battlefield takes its answers with it. ``geo`` and ``physics`` are the table's
    services, built lazily (a rules test that never measures never imports shapely); a
    physics space is mutable, so there is one per battlefield *per thread* — the window's
    thread and the computer's thinking thread never share one.
    """

    def __init__(
        self,
        battlefield: Battlefield,
        dice: Dice,
        log: EventLog,
        geo: Geometry | None = None,
    ) -> None:
        self.battlefield = battlefield
        self.dice = dice
        self.log = log
        self._geo = geo
        self._table: Table | None = None

    @property
    def table(self) -> Table:
        t = self._table
        if t is None:
            from engine.table import Table

            t = self._table = Table.of(self.battlefield)
        return t

    @property
    def geo(self) -> Geometry:
        if self._geo is None:
            self._geo = self.table.geo
        return self._geo

    @property
    def physics(self) -> Physics:
        return self.table.physics

    def memo(self, name: str) -> Memo:
        """The battlefield's memo called ``name`` (``Table.memo``)."""
        return self.table.memo(name)

    def fork(self, dice: Dice, log: EventLog | None = None) -> Context:
        """This context on other dice and ``log`` (a fresh one when None; an empty log
        given is used, not replaced: a clone's game and its context share one log)."""
        c = Context(self.battlefield, dice, EventLog() if log is None else log, self._geo)
        c._table = self._table
        return c


@dataclass(frozen=True)
class Section:
    """One entry of a ruleset's rules reference: our paraphrase and where it comes from."""

    id: str
    title: str
    text: str
    source: str = ""
    interpretation: bool = False


class Reference:
    """A ruleset's rules reference (reference.toml): sections and designer's interpretations."""

    def __init__(self, sections: Mapping[str, Section]) -> None:
        self.sections = dict(sections)

    @classmethod
    def load(cls, path: Path) -> Reference:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        secs: dict[str, Section] = {}
        for s in data.get("section", []):
            secs[s["id"]] = Section(s["id"], s["title"], s["text"], s.get("source", ""))
        for s in data.get("interpretation", []):
            secs[s["id"]] = Section(s["id"], s["title"], s["text"], s.get("source", ""), True)
        return cls(secs)

    def cite(self, sid: str) -> str:
        """'UMR 4.2 Ballistic attack' — raises KeyError for an unknown id so typos fail tests."""
        s = self.sections[sid]
        return f"{s.id} {s.title}"

    def interpretations(self) -> list[Section]:
        return [s for s in self.sections.values() if s.interpretation]


class Ruleset:
    """Base class of every ruleset plugin. Subclasses live in ``rulesets/<key>/``."""

    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    rulebook: ClassVar[str] = ""
    #: the largest die the ruleset rolls (forced dice above it are rejected on load)
    max_die: ClassVar[int] = 6
    #: the stats keys a scenario may give (SCENARIO_FORMAT.md)
    stat_keys: ClassVar[tuple[str, ...]] = ()
    #: model keys beyond the common ones that this ruleset accepts (e.g. "type", "size")
    model_keys: ClassVar[tuple[str, ...]] = ()
    #: the verbs this ruleset offers (for messages and the window)
    verbs: ClassVar[tuple[str, ...]] = ()
    unit_name: ClassVar[str] = "in"
    #: ``unit_name``s per inch, for the window's rulers (inter_arma: 2 cm to the inch)
    unit_per_inch: ClassVar[float] = 1.0
    version: ClassVar[int] = 1
    #: the turn structure (an ``engine.turns.Flow``: ``AlternatingFlow(RollOff(6))``...).
    #: With one, the base class plays the game: setup, to_act, check, apply, candidates
    #: and advance come from it, and the ruleset writes only ``problems``, ``resolve``
    #: and ``options`` (its rules). Without one, the ruleset implements those itself.
    turns: ClassVar[Any] = None
    #: stats a model has unless its profile or its entry says otherwise
    stat_defaults: ClassVar[Mapping[str, Any]] = {}
    #: the stat that gives a model its hit points (``build_model``)
    hp_stat: ClassVar[str] = "HP"
    #: how model entries are built (``engine.building.Builder``: subclass it for a
    #: ruleset's own keys, refusal texts and vars)
    builder: ClassVar[type[Builder]] = Builder
    #: True when ``proposals`` never lists the same action twice in one menu: the random
    #: pick then draws from the menu as given instead of de-duplicating it first, which
    #: was about a tenth of a UMR random game (tests/engine/test_distinct_proposals.py
    #: holds each ruleset that says so to it over seeded games)
    distinct_proposals: ClassVar[bool] = False
    #: the share of the engine's pull toward the enemy (``ENGAGE_PER_INCH``) the greedy
    #: agent weighs this ruleset's options with: UMR walks less and shoots more at 0.6
    engage_scale: ClassVar[float] = 1.0
    #: the search's rollouts weigh charges (attacks without damage odds) before ending
    #: an activation (``engine.agents.policy``; the search's ``charges`` overrides it)
    rollout_charges: ClassVar[bool] = False

    def __init__(self) -> None:
        self.folder = Path(importlib.import_module(type(self).__module__).__file__ or "").parent
        ref = self.folder / "reference.toml"
        self.reference = Reference.load(ref) if ref.exists() else Reference({})
        units = self.folder / "units.toml"
        self.catalog: dict[str, Any] = {}
        self._builder: Builder | None = None
        if units.exists():
            with units.open("rb") as fh:
                self.catalog = tomllib.load(fh)

    # --- building a game ----------------------------------------------------------
    def profiles(self) -> dict[str, dict[str, Any]]:
        """Named profiles a scenario model may use (``profile = "..."``)."""
        return dict(self.catalog.get("profiles", {}))

    def build_model(self, spec: Mapping[str, Any]) -> tuple[Model | None, list[tuple[str, str]]]:
        """Make a state Model from a validated scenario model spec: the model and []
        or None and every (where, problem), ``where`` relative to the entry
        ("stats.MOVE"). The ``builder`` does it (``engine.building``: the common keys,
        the profile's stats under the entry's own, ``stat_defaults`` under both,
        unknown stats refused, ``stat_problems``, hit points from ``hp_stat``)."""
        if self._builder is None:
            self._builder = self.builder(self)
        return self._builder.build(spec)

    def stat_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The stat schema: (where, problem) for values the rulebook does not allow
        (``stats.SK``, "a skill is 0 to 3"). Default: none."""
        return []

    def check_army(self, models: list[Model]) -> list[tuple[str, str]]:
        """Army-wide limits (e.g. one leader per army): (model id, problem) pairs."""
        return []

    def option_problems(self, options: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The scenario's ``options`` table as this ruleset reads it: (where, problem)
        pairs, ``where`` relative to the table (``turns``: "'x' is not one of ...").
        Default: none (the schema's shared keys are checked already)."""
        return []

    def place_problems(
        self, places: Sequence[Mapping[str, Any]], options: Mapping[str, Any]
    ) -> list[tuple[str, str]]:
        """The scenario's ``objectives`` as this ruleset reads them (a place's task: a
        skill test, a hidden thing): (where from the top, problem) pairs. Default: none."""
        return []

    def placed_terrain(self, battlefield: Battlefield, state: GameState) -> Battlefield:
        """``battlefield`` with terrain where a setup placed it (GEM-2.0.2; Game's hook)."""
        return battlefield

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        """Prepare turn 1: initiative (``first`` if the scenario fixes it), activation order."""
        self._flow().setup(self, state, ctx, first)

    # --- playing ------------------------------------------------------------------
    def to_act(self, state: GameState) -> str | None:
        """The side whose decision it is (a pending decision's side first), or None once
        the game is over."""
        if self.turns is not None:
            return cast("str | None", self.turns.to_act(state))
        return None if state.over else state.active

    def check(self, state: GameState, action: Action, ctx: Context) -> Legality:
        return cast(Legality, self._flow().check(self, state, action, ctx))

    def apply(self, state: GameState, action: Action, ctx: Context) -> None:
        self._flow().apply(self, state, action, ctx)

    def candidates(self, state: GameState, side: str, ctx: Context) -> list[Action]:
        return cast("list[Action]", self._flow().candidates(self, state, side, ctx))

    def _flow(self) -> Any:
        if self.turns is None:
            raise NotImplementedError(f"{self.key} declares no turn structure (turns)")
        return self.turns

    # --- the rules, for a ruleset on the base flow ----------------------------------
    def problems(self, state: GameState, action: Action, ctx: Context) -> list[str]:
        """Every reason the rules forbid ``action`` (the turn structure has already
        checked whose turn it is). No dice, no writes."""
        raise NotImplementedError

    def resolve(self, state: GameState, action: Action, ctx: Context) -> None:
        """Carry out a legal action: roll with ``ctx.dice``, log, change the state."""
        raise NotImplementedError

    def options(self, state: GameState, unit: str, ctx: Context) -> list[Action]:
        """Actions the AI may consider for ``unit`` now (the flow keeps the legal ones
        and adds the one that moves play on)."""
        return []

    def begin_activation(self, state: GameState, unit: str, ctx: Context) -> None:
        """A unit's first act of its activation (reset per-activation records)."""

    def end_activation(self, state: GameState, unit: str, ctx: Context) -> None:
        """A unit's activation ends (unused dice are lost, vehicles coast...)."""

    def at_turn_limit(self, state: GameState, ctx: Context) -> None:
        """The game ends at the scenario's turn limit. Default: a draw."""
        state.over = {"winner": None, "reason": "turn limit"}

    def last_side(self, state: GameState, alive: list[str], ctx: Context) -> None:
        """One side (or none) has models left. Default: it wins."""
        state.over = {"winner": alive[0] if alive else None, "reason": "last side standing"}

    def remove(
        self, state: GameState, model: Model, ctx: Context, why: str, rule: str = ""
    ) -> None:
        """A model leaves the table at once (it stays in ``state.models``)."""
        model.removed = True
        ctx.log.emit("removed", f"{model.id} is removed: {why}", actor=model.id, rule=rule)

    # --- pending decisions ----------------------------------------------------------
    def ask(
        self,
        state: GameState,
        side: str,
        kind: str,
        text: str,
        options: tuple[str, ...] = (),
        verbs: tuple[str, ...] = ("choose",),
        **data: Any,
    ) -> None:
        """Owe a decision to ``side`` (a reaction, a saving choice): ``to_act`` hands it
        over, only its ``verbs`` (``Choose`` among ``options`` by default) are legal
        until it is answered, then play resumes where it was."""
        state.pending.append(decision(side, kind, text, options, verbs, **data))

    def replies(self, state: GameState, decision: Mapping[str, Any], ctx: Context) -> list[Action]:
        """The answers the AI may give to ``decision``. Default: one Choose per option."""
        return [Choose(option=o) for o in decision.get("options", [])]

    def answer_problems(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> list[str]:
        """Why ``action`` (one of the decision's verbs) is not a legal answer. Default:
        none (a Choose among the options is checked by the flow)."""
        return []

    def answer(
        self, state: GameState, decision: Mapping[str, Any], action: Action, ctx: Context
    ) -> None:
        """Carry out the answer to ``decision`` (already taken off ``state.pending``)."""
        self.resolve(state, action, ctx)

    def actions_for(self, state: GameState, actor: str, ctx: Context) -> list[Action]:
        """The legal actions a player may pick for ``actor`` (a model or unit id) right
        now, for the window's buttons. Moves are built by dragging, so they may be left
        out. Default: the AI candidates that name this actor or its unit."""
        side = self.to_act(state)
        if side is None:
            return []
        m = state.models.get(actor)
        ids = {actor} | ({m.unit} if m else set())
        return [a for a in self.candidates(state, side, ctx) if a.actor in ids]

    def advance(self, state: GameState, ctx: Context) -> Action | None:
        """The 'end activation / end phase' a player would click to move play on."""
        return cast("Action | None", self._flow().advance(self, state, ctx))

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float | None:
        """How far ``actor`` (a model id) may move now in ``mode`` (inches), as the rules
        count it; None when the rules know no fixed figure (a rolled move). The window
        draws it while a move is dragged. Default: None."""
        return None

    def odds(self, state: GameState, action: Action, ctx: Context) -> Odds | None:
        return None

    def outcome(self, state: GameState) -> Outcome | None:
        if state.over:
            return Outcome(state.over.get("winner"), state.over.get("reason", ""), state.turn)
        return None

    def score(self, state: GameState, side: str, ctx: Context | None = None) -> float:
        """Heuristic position value for the AI: own strength minus the enemy's.

        ``ctx`` (the battlefield and its measuring services) lets a ruleset value the
        table too — who is in cover, who has a shot; without it only the state counts."""
        own = sum(m.hp for m in state.live(side))
        other = sum(m.hp for m in state.live() if m.side != side)
        return float(own - other)

    def losses(self, state: GameState, side: str) -> float:
        """The share of ``side``'s starting strength it has lost, 0 to 1, counted as the
        ruleset's victory counts it: the benches' "removed" column (issue 20) must not
        call a figure that is out of the fight a survivor. A ruleset whose victory
        counts wounded figures, or points, says so here. Default: the share of the
        side's models removed from the table."""
        mine = [m for m in state.models.values() if m.side == side]
        return sum(1 for m in mine if m.removed) / len(mine) if mine else 0.0

    def victory_text(self, scenario: Any) -> str:
        """How the scenario is won, in a sentence or two for the new-game screen: a
        player should know what the computer plays for (issue 20). ``scenario`` is an
        ``engine.scenario.Scenario``. The default knows only the turn limit; a ruleset
        says what decides its games."""
        limit = int(getattr(scenario, "turn_limit", 0) or 0)
        return f"The game ends after {limit} turns." if limit else ""

    # --- armies and points ------------------------------------------------------------
    def points_report(self, path: str | Path) -> str | None:
        """The point values of an army list or scenario of this ruleset (the ``points``
        command); None when the rulebook has no points. Raises ``engine.data.DataError``
        for a file it cannot read."""
        return None

    def study(self, **options: Any) -> tuple[str, bool] | None:
        """Rerun the ruleset's point study (the ``balance`` command: pairs, duels, seed,
        out_dir, scheduler, workers, quiet): (the report, interrupted); None when the
        ruleset has none."""
        return None

    def redact(self, state: GameState, viewer: str) -> GameState:
        """What ``viewer`` may know of the state: hide the other sides' secrets (spell
        power, deployment plans). Agents only ever see a redacted clone. Default: all."""
        return state

    def sight_radius(self, state: GameState, actor: str, ctx: Context) -> float | None:
        """Inches the model sees (the window's sight circle); None: only terrain limits it."""
        return None

    def model_view(self, model: Model) -> dict[str, Any]:
        """What the JSON runner and the window show of a model (hp, status)."""
        return {"hp": model.hp, "status": sorted(model.status)}

    def model_card(self, state: GameState, model: Model) -> dict[str, str]:
        """How the window's model card reads a model's stats where the bare number would
        mislead, by stat key ('MOVE': '+0', a bonus, not "cannot move"), and facts of
        the game in progress ('AD': '1 of 2 left'). Only the window reads it; stats not
        named here show as they are."""
        return {}


_REGISTRY: dict[str, type[Ruleset]] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator used in ``rulesets/<key>/__init__.py``."""
    _REGISTRY[cls.key] = cls
    return cls


class UnknownRuleset(KeyError):
    pass


_INSTANCES: dict[str, Ruleset] = {}


def load(key: str) -> Ruleset:
    """The ruleset called ``key`` (imports ``rulesets.<key>`` on first use)."""
    if key in _INSTANCES:
        return _INSTANCES[key]
    if key not in _REGISTRY:
        try:
            importlib.import_module(f"rulesets.{key}")
        except ModuleNotFoundError as e:
            if e.name in (f"rulesets.{key}", "rulesets"):
                raise UnknownRuleset(key) from None
            raise
    if key not in _REGISTRY:
        raise UnknownRuleset(key)
    _INSTANCES[key] = _REGISTRY[key]()
    return _INSTANCES[key]


def available() -> list[str]:
    """Keys of the rulesets that are present in ``rulesets/``."""
    root = Path(__file__).resolve().parent.parent / "rulesets"
    return sorted(p.name for p in root.iterdir() if (p / "__init__.py").exists())
