"""The event log: every resolution, refusal and status change, with its explanation.

Why events: the window animates and lists them, the JSON runner prints them, replays
compare them, and a player learning the rules reads them. An event is plain data; its
``text`` reads as a sentence that cites the rule section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Event:
    """One thing that happened. ``kind``: resolution, refused, status, move, turn, ..."""

    kind: str
    text: str = ""
    actor: str = ""
    target: str = ""
    rule: str = ""
    chance: float | None = None
    rolls: list[int] = field(default_factory=list)
    outcome: str = ""
    action: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    detail: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.action is not None:
            d["action"] = self.action
        for k in ("actor", "target", "rule", "outcome", "text"):
            v = getattr(self, k)
            if v:
                d[k] = v
        if self.chance is not None:
            d["chance"] = round(self.chance, 4)
        if self.rolls:
            d["rolls"] = list(self.rolls)
        if self.kind == "refused":
            d["reason"] = self.text
        if self.data:
            d["data"] = self.data
        if self.detail:
            d["detail"] = self.detail
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(
            kind=d["kind"],
            text=d.get("text", d.get("reason", "")),
            actor=d.get("actor", ""),
            target=d.get("target", ""),
            rule=d.get("rule", ""),
            chance=d.get("chance"),
            rolls=list(d.get("rolls", [])),
            outcome=d.get("outcome", ""),
            action=d.get("action"),
            data=dict(d.get("data", {})),
            detail=list(d.get("detail", [])),
        )


class EventLog:
    """An append-only list of events; ``action`` stamps the script index on new events."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.action: int | None = None

    def emit(self, kind: str, text: str = "", **kw: Any) -> Event:
        e = Event(kind=kind, text=text, action=kw.pop("action", self.action), **kw)
        self.events.append(e)
        return e

    def __len__(self) -> int:
        return len(self.events)

    def since(self, n: int) -> list[Event]:
        return self.events[n:]

    def truncate(self, n: int) -> None:
        del self.events[n:]
