"""The engine's model builder and its hooks (engine/building.py): the common keys, the
profile merge, refusals in a ruleset's own words, its own keys and vars, and DROP."""

from __future__ import annotations

from typing import Any

from engine.building import DROP, Build, Builder
from engine.ruleset import Ruleset
from engine.state import Model

PROFILES: dict[str, Any] = {
    "trooper": {"stats": {"SK": 2, "HP": 3}, "base": [20, 40], "weapons": [{"name": "gun"}]}
}


class Plain(Ruleset):
    key = "plain"
    stat_keys = ("SK", "HP")
    stat_defaults = {"SK": 0}

    def __init__(self) -> None:
        super().__init__()
        self.catalog = {"profiles": PROFILES}


class Worded(Builder):
    """A builder with every hook: its own refusal texts, a stopping profile, state keys,
    a stat refused and dropped, its own key read into vars, a check on the made model."""

    texts = {
        "unknown_profile": "no profile '{name}' for {mid} (known: {known})",
        "unknown_stat": "{mid}: {key} is not one of {words}",
    }
    profile_stops = True
    state_keys = ("hp", "rank")

    def stat_value(self, b: Build, key: str, value: Any) -> Any:
        if not isinstance(value, int):
            b.refuse(f"stats.{key}", f"{key} is a whole number")
            return DROP
        return value

    def own_keys(self, b: Build) -> None:
        if "HP" not in b.stats:
            b.refuse("stats.HP", f"'{b.mid}' needs HP")
        b.own["kind"] = b.take("kind", "foot")

    def model_vars(self, b: Build) -> dict[str, Any]:
        return {"kind": b.own["kind"], "rank": b.state.get("rank", 0)}

    def finish(self, b: Build, model: Model) -> None:
        if model.vars["rank"] > model.max_hp:
            b.refuse("state.rank", "a rank above the hit points")


class WithWords(Plain):
    key = "worded"
    builder = Worded


def spec(**kw: Any) -> dict[str, Any]:
    return {"id": "m1", "side": "blue", "x": 1.0, "y": 2.0, **kw}


def test_default_merges_defaults_profile_and_entry() -> None:
    m, probs = Plain().build_model(spec(profile="trooper", stats={"HP": 5}, state={"hp": 4}))
    assert probs == [] and m is not None
    assert m.stats == {"SK": 2, "HP": 5}
    assert (m.hp, m.max_hp, m.base, m.unit) == (4, 5, (20.0, 40.0), "m1")
    assert m.weapons == [{"name": "gun"}] and m.weapons[0] is not PROFILES["trooper"]["weapons"][0]


def test_default_refusals_are_all_reported() -> None:
    m, probs = Plain().build_model(spec(profile="nope", stats={"WS": 3}))
    assert m is None
    assert probs == [
        ("profile", "unknown plain profile 'nope'"),
        ("stats.WS", "unknown stat (plain stats: SK, HP)"),
    ]


def test_default_keeps_other_state_keys_as_vars() -> None:
    m, _ = Plain().build_model(spec(state={"status": ["pinned"], "moved": 2.0}))
    assert m is not None and m.status == ["pinned"] and m.vars == {"moved": 2.0}


def test_texts_and_a_stopping_profile() -> None:
    _, probs = WithWords().build_model(spec(profile="nope", stats={"WS": 3}))
    assert probs == [("profile", "no profile 'nope' for m1 (known: trooper)")]


def test_unknown_stat_dropped_value_and_state_key_in_order() -> None:
    _, probs = WithWords().build_model(spec(stats={"WS": 3, "HP": "x"}, state={"zz": 1}))
    assert probs == [
        ("stats.WS", "m1: WS is not one of SK HP"),
        ("stats.HP", "HP is a whole number"),
        ("stats.HP", "'m1' needs HP"),  # the refused value was dropped, not kept
        ("state.zz", "unknown state key (worded state: hp, rank)"),
    ]


def test_own_vars_and_a_refusal_after_the_model_is_made() -> None:
    m, probs = WithWords().build_model(spec(profile="trooper", kind="horse", state={"rank": 2}))
    assert probs == [] and m is not None and m.vars == {"kind": "horse", "rank": 2}
    m, probs = WithWords().build_model(spec(profile="trooper", state={"rank": 9}))
    assert m is None and probs == [("state.rank", "a rank above the hit points")]
