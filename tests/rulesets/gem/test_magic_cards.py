"""Magic cards in card activation (GEM-2.5): "a card is made for a unit if it can cast
magic/psychic. If using the Tactical Magic system, don't make a card for magic"; the
scenario option ``magic_cards`` plays without the tactical magic segments
(GEM-I-MAGICCARDS)."""

from engine.actions import EndPhase
from engine.testing import apply, logged
from rulesets.gem.actions import Cast
from rulesets.gem.chapters.pricing import mov

from .helpers import make, model

#: The deck before its shuffle, by unit id: b move, b fire, r move, r fire, rw move,
#: rw magic, w move, w magic. Fisher-Yates rolls a d8 down to a d2; a roll of i+1 keeps
#: card i in place, so 1 then 7..2 only swaps the last card (w's magic) to the top.
W_MAGIC_FIRST = [1, 7, 6, 5, 4, 3, 2]
#: rw's magic card (index 5) first, then w's magic card (index 7) second
RW_THEN_W = [2, 7, 1, 5, 4, 3, 2]


def _wizards(options, shuffle):
    specs = [
        model("w", "blue", 10, 10, 90, profile="wizard"),
        model("b", "blue", 12, 10, 90, profile="archer"),
        model("rw", "red", 10, 30, 270, profile="wizard"),
        model("r", "red", 12, 30, 270, profile="archer"),
    ]
    return make(specs, vars_={"options": options}, force=shuffle)


def test_a_magic_card_for_each_unit_that_can_cast():
    """GEM-2.5: with magic cards there is no magic segment; each wizard's unit adds a
    magic card to the move and fire cards (8, not 6)."""
    g = _wizards({"cards": True, "magic_cards": True}, W_MAGIC_FIRST)
    deck = g.state.vars["gem"]["deck"]
    assert len(deck) == 8
    assert sorted(c for c in deck if c[1] == "magic") == [["rw", "magic"], ["w", "magic"]]
    assert g.state.phase == "cards" and deck[0] == ["w", "magic"]
    assert g.state.active == "blue"


def test_tactical_magic_makes_no_magic_card():
    """GEM-2.5: "If using the Tactical Magic system, don't make a card for magic"; the
    magic segments come first, and the deck has move and fire cards only."""
    g = _wizards({"cards": True}, [])
    assert g.state.phase == "magic_offence"
    g.apply(EndPhase())
    g.apply(EndPhase())
    g.apply(EndPhase())
    g.dice.force([6, 5, 4, 3, 2])
    g.apply(EndPhase())
    assert g.state.phase == "cards"
    assert all(c[1] != "magic" for c in g.state.vars["gem"]["deck"])


def test_a_spell_on_a_magic_card_is_worked_out_at_once():
    """GEM-2.5 "the results of the card are immediatly worked out": Haste of Gygax at
    power 3 beats MAG 2 on 8+ (GEM-3.5.3) and adds 3 MOV at once; the card stays up for
    w's offensive spell (GEM-3.5.1: one of each kind), Sloth of Grimgut at 4 against
    MAG 2 needs 6+, then the next card shows."""
    g = _wizards({"cards": True, "magic_cards": True}, W_MAGIC_FIRST)
    ev = apply(g, Cast(actor="w", target="b", spell="Haste of Gygax", power=3), dice=[8])
    assert [e.outcome for e in ev if e.kind == "resolution"] == ["succeeds"]
    assert mov(g.state, g.state.models["b"]) == 8.0
    assert g.state.vars["gem"]["card"] == 0  # still w's magic card
    ev = apply(g, Cast(actor="w", target="r", spell="Sloth of Grimgut", power=4), dice=[6])
    assert [e.outcome for e in ev if e.kind == "resolution"] == ["succeeds"]
    assert mov(g.state, g.state.models["r"]) == 1.0
    assert g.state.vars["gem"]["deck"][g.state.vars["gem"]["card"]] == ["b", "fire"]


def test_a_defensive_card_lying_by_the_unit_opposes_a_later_spell():
    """GEM-3.5.3 at once (GEM-I-MAGICCARDS): red's Haste of Gygax (power 2) lies by r
    from rw's magic card; blue's Sloth of Grimgut (power 4) on w's card must first beat
    it (4 vs 2 needs 6+): a 5 fails, and MAG is never rolled."""
    g = _wizards({"cards": True, "magic_cards": True}, RW_THEN_W)
    assert g.state.vars["gem"]["deck"][:2] == [["rw", "magic"], ["w", "magic"]]
    apply(g, Cast(actor="rw", target="r", spell="Haste of Gygax", power=2), dice=[20])
    g.apply(EndPhase())  # rw keeps its offensive points: end the card
    assert g.state.active == "blue"
    ev = apply(g, Cast(actor="w", target="r", spell="Sloth of Grimgut", power=4), dice=[5])
    res = [e for e in ev if e.kind == "resolution"]
    assert len(res) == 1 and "Haste of Gygax (2)" in res[0].text and res[0].outcome == "fails"
    assert mov(g.state, g.state.models["r"]) == 7.0  # 5 + Haste 2, no Sloth


def test_a_spell_waits_for_its_units_magic_card():
    """GEM-2.5: spells are cast on the unit's own magic card, not on another card."""
    g = _wizards({"cards": True, "magic_cards": True}, RW_THEN_W)
    why = g.check(Cast(actor="w", target="r", spell="Sloth of Grimgut", power=4)).reason
    assert "it is red's turn" in why
    assert logged(g, "note")[-1].text.startswith("card 1 of 8: magic for rw")
