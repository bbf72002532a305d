"""The action panel scrolls: every action the rules offer has a button (issue 23 item 1).

Why: the panel shows eight buttons at once. A GEM armoured carrier in "convoy" is offered
twelve at the start (its weapons, embark and disembark, ram, the move modes); the panel
used to drop the last four, so the player could not make choices the computer makes.
Now the panel scrolls and the test reaches the last button the way a player does: the
mouse wheel over the panel, then a click.
"""

from __future__ import annotations

import pygame

from engine.ui.hud import ACTION_SLOTS
from tests.ui.conftest import click, move_mouse, post, step
from tests.ui.test_every_action import _start

CONVOY = "rulesets/gem/scenarios/convoy.toml"


def _wheel(app, pos: tuple[int, int], clicks: int) -> None:
    """Turn the mouse wheel ``clicks`` notches down over ``pos``."""
    move_mouse(app, pos)
    for _ in range(clicks):
        post(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
        step(app, 10)


def _visible(app, button) -> bool:
    return app.hud.actions_panel.rect.contains(button.rect)


def test_a_model_with_more_actions_than_slots_gets_a_button_for_each(app):
    game = _start(app, CONVOY)
    apc = game.state.models["apc"]
    assert apc.side == game.to_act()
    app.controller.select("apc")
    step(app)
    hud = app.hud
    assert hud.action_total == len(hud.action_buttons) == len(hud.action_items) == 12
    assert hud.action_total > ACTION_SLOTS
    # what the buttons offer is what the controller offers for the model
    c = app.controller
    offered = len(c.modes()) + len(c.direct_actions() + c.side_actions()) + len(c.move_modes())
    assert offered == 12
    first, last = hud.action_buttons[0], hud.action_buttons[-1]
    assert _visible(app, first) and not _visible(app, last)


def test_the_wheel_brings_the_last_button_into_view_and_a_click_presses_it(app):
    game = _start(app, CONVOY)
    app.controller.select("apc")
    step(app)
    hud = app.hud
    _wheel(app, hud.actions_panel.rect.center, 6)
    last, item = hud.action_buttons[-1], hud.action_items[-1]
    assert _visible(app, last), (last.rect, hud.actions_panel.rect)
    n = len(game.history)
    click(app, last.rect.center)
    step(app, 2)
    c = app.controller
    if item.mode:
        assert c.mode is not None and c.mode.label == item.label
    elif item.kind == "move" and item.label.startswith("move: "):
        assert c.move_mode == item.label[len("move: ") :]
    else:
        assert len(game.history) == n + 1


def test_another_model_starts_its_panel_at_the_top(app):
    game = _start(app, CONVOY)
    app.controller.select("apc")
    step(app)
    _wheel(app, app.hud.actions_panel.rect.center, 6)
    other = next(
        m.id
        for m in game.state.live(game.to_act())
        if m.id != "apc" and app.controller.actions(m.id)
    )
    app.controller.select(other)
    step(app, 2)
    assert app.hud.action_buttons and _visible(app, app.hud.action_buttons[0])


def test_a_deployment_button_aims_at_the_ground_and_lists_no_targets(app):
    """A place mode (SWOMP "Deployment": a point in the zone) has no target to list in
    its tooltip; asking for targets of it used to raise and stop the window."""
    game = _start(app, "rulesets/swomp/scenarios/deployment.toml")
    first = next(a for a in game.candidates() if a.KIND == "deploy")
    app.controller.select(first.actor)
    step(app)
    deploy = [it for it in app.hud.action_items if it.kind == "deploy"]
    assert deploy and all(it.mode for it in deploy)
    assert deploy[0].tip.endswith("click the ground")
    assert app.controller.classify(app.controller.modes()[0].proto) == {}
