"""Structured refusals: a coded reason is still its text everywhere (logs, tests, saves),
and carries a code and numbers a program reads instead of parsing English."""

import copy
import pickle

from engine.ruleset import OUT_OF_RANGE, TOO_FAR, Legality, Reason, code_of


def test_a_reason_is_its_text():
    r = Reason('target out of range (31.2" > 24")', OUT_OF_RANGE, distance=31.2, limit=24.0)
    assert r == 'target out of range (31.2" > 24")' and isinstance(r, str)
    assert f"{r}; x" == 'target out of range (31.2" > 24"); x'
    assert r.code == OUT_OF_RANGE and r.data == {"distance": 31.2, "limit": 24.0}


def test_codes_survive_copies_and_pickles():
    r = Reason("too far", TOO_FAR, limit=6.0)
    for c in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r), copy.copy(r)):
        assert c == r and c.code == TOO_FAR and c.data == {"limit": 6.0}


def test_legality_lists_codes_and_finds_a_reason():
    leg = Legality.no("it is red's turn", Reason("too far", TOO_FAR, limit=6.0))
    assert leg.reason == "it is red's turn; too far"
    assert leg.codes == (TOO_FAR,) and leg.find(TOO_FAR).data["limit"] == 6.0
    assert leg.find(OUT_OF_RANGE) is None and code_of("plain words") == ""


def test_a_name_with_arc_in_it_is_not_an_arc():
    """The window marked a refusal quoting a model called 'arc1' as out of arc; codes
    make the text irrelevant."""
    assert Legality.no("arc1 has already fired this turn").codes == ()
