"""What the window tells the player (issue 23 items 3, 4, 6, 7): the target card beside
the target with the refusal instead of odds, readable weapon lines, save notices and a
save that fails without losing the game."""

from __future__ import annotations

import pygame

from engine.ui.markup import event_html
from engine.ui.texts import weapon_text
from tests.ui.conftest import click, key, move_mouse, press, screen_pos, settle


def test_a_refused_target_shows_the_reason_beside_it_not_odds(battle):
    app = battle
    g = app.game
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)  # shoot
    mode = app.controller.mode
    assert mode is not None
    # a first shot, then the same shooter again: the toy rules refuse a second shot
    click(app, screen_pos(app, "r0"))
    settle(app, 1.0)
    click(app, screen_pos(app, "b0"))
    app.controller.set_mode(mode)  # the rules offer no second shot; aim it anyway
    t = next(m.id for m in g.state.live("red"))
    move_mouse(app, screen_pos(app, t))
    ov = app.battle.overlays()
    card = ov.odds
    assert card is not None and card.refused and card.chance is None
    assert "already shot" in card.lines[0]
    assert g.check(app.controller.target_action(t)).reason == card.lines[0]
    # drawn beside the target, never over it, with the reason in red
    app.battle.draw(app.screen)
    box = app.battle.renderer.card_rect
    tx, ty = screen_pos(app, t)
    assert not box.inflate(16, 0).collidepoint(tx, ty)
    reds = sum(
        1
        for x in range(box.left, box.right, 2)
        for y in range(box.top, box.bottom, 2)
        if app.screen.get_at((x, y))[0] > 200 and app.screen.get_at((x, y))[1] < 160
    )
    assert reds > 10


def test_weapon_lines_read_as_words():
    w = {"name": "boltgun", "range": 24, "arc": 90, "shots": 1, "heavy": False, "spear": True}
    assert weapon_text(w) == 'range 24", arc 90\u00b0, shots 1, spear'


def test_saving_shows_a_notice_and_a_failed_save_loses_nothing(battle, tmp_path):
    app = battle
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    press(app, app.hud.dialog[1].ok_button)
    assert app.notice is not None and app.notice[0].startswith("saved to") and app.notice[1]
    before = app.game.state.checksum()
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert not app.battle.save(blocked / "game.json")  # its folder is a file
    settle(app, 0.1)
    assert app.hud.is_open("message") and app.game.state.checksum() == before
    assert app.notice is not None and not app.notice[1]
    key(app, pygame.K_ESCAPE)
    assert app.notice is None  # a notice stays until the next input


def test_own_result_stays_on_top_of_the_log_until_the_next_input(app):
    """Against the computer, the player's shot is pinned above the computer's answer."""
    from tests.ui.conftest import make_game
    from tests.ui.test_solo import pump_until

    app.start(make_game(), {"blue": "human", "red": "normal"})
    settle(app, 0.2)
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)  # shoot
    click(app, screen_pos(app, "r0"))
    g = app.game
    mine = [e for e in g.log.events if e.actor == "b0" and e.kind == "resolution"]
    assert mine
    settle(app, 1.0)  # the dice roll on screen
    key(app, pygame.K_SPACE)  # end the activation: red answers
    assert pump_until(app, lambda: any(s.side == "red" for s in g.history), frames=200)
    settle(app, 0.2)
    html = app.hud.log.html_text
    assert html.startswith("<font color='#8fbcd4'><b>YOUR LAST ACTION</b>")
    top = html.split("since then")[0]
    assert event_html(mine[-1], app.battle.linker) in top
    assert "Computer:" not in top and "red (" not in top
    key(app, pygame.K_l)  # any input: the log goes back to newest first
    settle(app, 0.1)
    assert "YOUR LAST ACTION" not in app.hud.log.html_text


def test_names_replace_ids_in_whole_words_only():
    from engine.state import Model
    from engine.ui.names import Names, name_of

    models = [
        Model(id="wolf_rifleman", side="blue", unit="u", x=0, y=0, profile="rifleman"),
        Model(id="m2", side="blue", unit="u", x=0, y=0, profile="space_marine"),
        Model(id="m21", side="blue", unit="u", x=0, y=0),
    ]
    assert [name_of(m) for m in models] == ["wolf rifleman", "m2 (space marine)", "m21"]
    names = Names(models)
    text = "wolf_rifleman shoots m2; m21 and UMR-m2 stay (UMR-RANGE)"
    assert names.text(text) == (
        "wolf rifleman shoots m2 (space marine); m21 and UMR-m2 stay (UMR-RANGE)"
    )


def test_the_target_card_and_the_log_name_models_not_ids(app):
    """UMR's ids ("wolf_grenadier") read as names on the card, in the log and the card
    beside a hovered target (issue 23 item 6)."""
    from engine.scenario import load_scenario, new_game
    from tests.ui.test_every_action import ROOT

    game = new_game(load_scenario(ROOT / "rulesets/umr/scenarios/default.toml"))
    app.start(game, {s: "human" for s in game.state.sides})
    settle(app, 0.2)
    c = app.controller
    side = game.to_act()
    me = next(m for m in game.state.live(side) if "_" in m.id and c.actions(m.id))
    c.select(me.id)
    mode = next(md for md in c.modes() if md.offered)
    c.set_mode(mode)
    foe = next(t for t in c.classify(mode.proto) if "_" in t)
    move_mouse(app, screen_pos(app, foe))
    card = app.battle.overlays().odds
    assert card is not None
    assert foe.replace("_", " ") in card.title and foe not in card.title
    settle(app, 0.2)
    assert me.id.replace("_", " ") in app.hud.card.html_text
    # the log: the initiative and whatever came before name models, never raw ids
    log = app.hud.log.html_text
    ids = [m.id for m in game.state.models.values() if "_" in m.id]
    assert not any(i in log for i in ids)


def _umr(app):
    from engine.scenario import load_scenario, new_game
    from tests.ui.test_every_action import ROOT

    game = new_game(load_scenario(ROOT / "rulesets/umr/scenarios/default.toml"))
    app.start(game, {s: "human" for s in game.state.sides})
    settle(app, 0.2)
    return game


def test_stats_are_chips_whose_tooltip_says_what_they_do(app):
    """Hovering a stat shows its name and what it does, from the rules reference, and a
    click opens that rule (issue 23 item 6); UMR's personality points read as bonuses
    and its action dice as what is left (item 4)."""
    game = _umr(app)
    side = game.to_act()
    m = next(x for x in game.state.live(side) if x.unit != game.state.vars["act"].get("current"))
    click(app, screen_pos(app, m.id))
    settle(app, 0.2)
    chips = {b.text.split()[0]: b for b in app.hud.stat_chips}
    assert {"AD", "MOVE", "MELEE", "DEFENSE"} <= set(chips)
    move = chips["MOVE"]
    assert move.text == f"MOVE +{m.stats['MOVE']}"  # a bonus, not "cannot move"
    assert "not activated yet" in chips["AD"].text or "activated" in chips["AD"].text
    assert "UMR-MOVEMENT" in move.tool_tip_text and "MOVE bonus" in move.tool_tip_text
    # hover long enough for pygame_gui's tooltip, which shows the same text
    move_mouse(app, move.rect.center)
    settle(app, 1.5)
    assert move.tool_tip is not None and move.tool_tip.alive()
    press(app, move)
    assert app.hud.is_open("reference")


def test_the_card_counts_the_action_dice_of_the_activating_model(app):
    game = _umr(app)
    c = app.controller
    side = game.to_act()
    mover = next(a for a in game.candidates() if a.KIND == "move" and a.actor)
    c.select(mover.actor)
    m = game.state.models[mover.actor]
    assert app.battle._stat_chips(m)[0].text.startswith("AD ")
    app.battle.submit(mover)  # spends one action die
    settle(app, 1.0)
    assert game.to_act() == side
    if game.state.models[mover.actor].unit == (game.state.vars["act"].get("current")):
        ad = next(ch for ch in app.battle._stat_chips(m) if ch.text.startswith("AD "))
        assert ad.text.startswith(f"AD {int(m.vars['dice'])} of {int(m.stats['AD'])} left")
    else:
        raise AssertionError("the unit is not activating")
