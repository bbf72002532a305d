"""Game: refusals change nothing, undo stops at the last roll, clones are independent,
and one play() loop runs any agents to the end."""

from engine.actions import EndActivation, EndTurn, Move, Shoot
from engine.agents import RandomAgent
from engine.game import Stepper, play
from tests.engine.conftest import make_toy_game


def test_illegal_action_is_refused_and_changes_nothing(toy_game):
    before = toy_game.state.checksum()
    events = toy_game.apply(Move(actor="b0", to=(10.0, 30.0)))  # 25" > 6"
    assert [e.kind for e in events] == ["refused"]
    assert "too far" in events[0].text
    assert toy_game.state.checksum() == before
    assert toy_game.history == []


def test_a_checked_apply_skips_the_check_and_gives_the_same_position(toy_game, monkeypatch):
    """``apply(checked=True)`` is for a caller that has found the action legal on this
    very position (the search's copies of one position): the rules' check is not asked
    again, and the position after is the one a checked apply gives."""
    shot = Shoot(actor="b0", target="r0")
    plain, trusted = toy_game.clone(stream=7), toy_game.clone(stream=7)
    plain.apply(Move(actor="b0", to=(10.0, 8.0)))
    trusted.apply(Move(actor="b0", to=(10.0, 8.0)))
    assert plain.check(shot).ok
    plain.apply(shot)
    asked: list[object] = []
    rules_check = trusted.ruleset.check
    monkeypatch.setattr(trusted.ruleset, "check", lambda *a: asked.append(a) or rules_check(*a))
    trusted.apply(shot, checked=True)
    assert asked == []
    assert trusted.state.checksum() == plain.state.checksum()
    assert trusted.dice.consumed == plain.dice.consumed


def test_wrong_side_is_refused(toy_game):
    events = toy_game.apply(Move(actor="r0", to=(10.0, 38.0)))
    assert events[0].kind == "refused" and "blue's turn" in events[0].text


def test_undo_goes_back_to_but_not_past_the_last_roll(toy_game):
    g = toy_game
    start = g.state.checksum()
    g.apply(Move(actor="b0", to=(10.0, 8.0)))
    assert g.state.models["b0"].y == 8.0
    assert g.undo()
    assert g.state.checksum() == start and g.history == []
    g.apply(Move(actor="b0", to=(10.0, 8.0)))
    g.dice.force([6])
    g.apply(Shoot(actor="b0", target="r0"))
    assert g.state.models["r0"].hp == 1
    assert not g.can_undo() and not g.undo()  # the roll cannot be taken back
    g.apply(EndActivation())
    assert g.undo()  # but the end of activation after it can
    assert g.state.models["r0"].hp == 1


def test_clone_is_independent_and_cannot_see_forced_dice(toy_game):
    g = toy_game
    g.dice.force([6, 6, 6])
    c = g.clone(dice_seed=3)
    assert c.dice.forced == []
    c.apply(Move(actor="b0", to=(10.0, 8.0)))
    assert g.state.models["b0"].y == 5.0
    assert c.state.models["b0"].y == 8.0


def test_a_clone_logs_into_its_own_log_and_apply_returns_its_events(toy_game):
    """A clone starts with an empty log; its context writes into that very log, so
    ``apply`` on a clone returns what happened (the window's move preview reads the
    rules' words from it), and the parent's log is untouched."""
    g = toy_game
    before = len(g.log)
    c = g.clone(dice_seed=3)
    assert c.ctx.log is c.log
    events = c.apply(Move(actor="b0", to=(10.0, 8.0)))
    assert events and events == c.log.events
    assert len(g.log) == before


def test_clone_with_a_stream_rolls_the_same_faces_wherever_the_game_stands(toy_game):
    """``clone(stream=S)`` starts a fresh stream of seed S, so two different positions
    roll the same faces (common random numbers for a search), while ``clone(dice_seed=)``
    forks from where the parent's stream stands; the real stream is never touched."""
    g = toy_game
    before = g.dice.get_state()
    on = g.clone(dice_seed=1)
    on.dice.face(6), on.dice.face(6)  # the copy's stream has moved on two rolls
    a, b = g.clone(stream=77).dice, on.clone(stream=77).dice
    assert [a.face(6) for _ in range(20)] == [b.face(6) for _ in range(20)]
    a, b = g.clone(dice_seed=77).dice, on.clone(dice_seed=77).dice
    assert [a.face(6) for _ in range(20)] != [b.face(6) for _ in range(20)]
    assert g.clone(stream=77).dice.forced == []
    assert g.dice.get_state() == before


def test_end_turn_clicks_through_the_activations():
    g = make_toy_game()
    events = g.apply(EndTurn())
    assert g.state.turn == 2
    assert sum(1 for s in g.history if s.action["do"] == "end_activation") == 4
    assert any(e.kind == "initiative" for e in events)


def test_play_loop_runs_random_agents_to_the_end():
    for seed in range(5):
        g = make_toy_game(seed=seed, turn_limit=30)
        out = play(g, {"blue": RandomAgent(seed), "red": RandomAgent(seed + 100)})
        assert out is not None
        assert g.to_act() is None


def test_stepping_a_game_by_hand_is_play():
    """The window and the batch runner step through Stepper; a game stepped by hand ends
    exactly where play() ends it: same state, same log, same number of actions."""
    a, b = make_toy_game(seed=3, turn_limit=6), make_toy_game(seed=3, turn_limit=6)
    play(a, {"blue": RandomAgent(3), "red": RandomAgent(103)})
    agents = {"blue": RandomAgent(3), "red": RandomAgent(103)}
    loop = Stepper(b)
    while (side := loop.side()) is not None:
        loop.commit(agents[side].choose(loop.view(side), side))
    assert b.state.checksum() == a.state.checksum()
    assert [e.text for e in b.log.events] == [e.text for e in a.log.events]
    assert loop.n == len(b.history) > 0


def test_stepper_stops_at_the_action_cap_and_logs_reasons_first():
    g = make_toy_game(seed=1)
    loop = Stepper(g, max_actions=1)
    side = loop.side()
    assert side == "blue"
    events = loop.commit(Move(actor="b0", to=(10.0, 8.0)), why="closes on red")
    assert [e.kind for e in events][0] == "decision" and events[0].text == "closes on red"
    assert loop.n == 1 and loop.side() is None  # capped, though the game goes on
    assert g.to_act() == "blue"
