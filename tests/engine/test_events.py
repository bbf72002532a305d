"""Events: the JSON form the runner prints (SCENARIO_FORMAT.md)."""

from engine.events import Event, EventLog


def test_refusal_has_a_reason_and_the_action_index():
    log = EventLog()
    log.action = 1
    e = log.emit("refused", 'target out of range (31.2" > 24")', actor="g2")
    d = e.to_dict()
    assert d["kind"] == "refused" and d["action"] == 1 and d["actor"] == "g2"
    assert d["reason"] == 'target out of range (31.2" > 24")'
    assert Event.from_dict(d).to_dict() == d


def test_resolution_keys():
    e = Event(
        "resolution",
        "PR 4 + WR 3 + 4 = 11 beats 8",
        actor="marine",
        target="g1",
        rule="Shooting contest",
        chance=0.63,
        rolls=[4, 3],
        outcome="hit",
        action=0,
    )
    d = e.to_dict()
    assert {
        k: d[k]
        for k in ("kind", "action", "actor", "target", "rule", "chance", "rolls", "outcome", "text")
    } == {
        "kind": "resolution",
        "action": 0,
        "actor": "marine",
        "target": "g1",
        "rule": "Shooting contest",
        "chance": 0.63,
        "rolls": [4, 3],
        "outcome": "hit",
        "text": "PR 4 + WR 3 + 4 = 11 beats 8",
    }
