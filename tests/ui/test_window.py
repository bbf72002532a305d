"""The game window driven headless with real pygame events: select, move, shoot with the
odds shown, undo, save, load, end turn, game over — checked by game state and by pixels."""

from __future__ import annotations

import json
import math

import pygame
import pygame_gui
import pytest

from engine.actions import Shoot
from engine.ruleset import Reference, Section
from engine.ui import style
from tests.ui.conftest import (
    click,
    drag,
    key,
    make_game,
    move_mouse,
    post,
    press,
    screen_pos,
    settle,
    step,
)


def near(c1, c2, tol: int = 12) -> bool:
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(c1[:3], c2[:3], strict=True))


def along(a, b, n: int = 12) -> list[tuple[int, int]]:
    return [
        (round(a[0] + (b[0] - a[0]) * k / n), round(a[1] + (b[1] - a[1]) * k / n))
        for k in range(2, n - 1)
    ]


@pytest.fixture
def secrets(monkeypatch):
    """The toy rules keeping a secret from the other side (as GEM keeps spell power)."""
    rules = type(make_game().ruleset)
    monkeypatch.setattr(rules, "redact", lambda self, state, viewer: state)


def test_no_hand_over_where_the_rules_keep_no_secrets(app):
    """Like UMR, the toy rules hide nothing: sides alternate without a notice each time."""
    app.start(make_game(), {"blue": "human", "red": "human"})
    step(app)
    assert not app.battle.awaiting and app.battle.human_to_act()
    press(app, app.hud.b_next)
    assert app.game.to_act() == "red" and not app.battle.awaiting


def test_hand_over_notice_opens_for_the_first_hotseat_player(app, secrets):
    app.start(make_game(), {"blue": "human", "red": "human"})
    step(app)
    assert app.battle.awaiting == "blue" and app.hud.is_open("handover")
    assert not app.battle.human_to_act()  # the table waits for the player to take the mouse
    key(app, pygame.K_RETURN)
    assert app.battle.awaiting == "" and app.battle.human_to_act()


def test_click_selects_and_the_centre_pixel_has_the_side_colour(battle):
    app = battle
    p = screen_pos(app, "b0")
    click(app, p)
    assert app.controller.selected == "b0"
    blue = style.side_colours(["blue", "red"])
    assert near(app.screen.get_at(p), blue["blue"])
    assert near(app.screen.get_at(screen_pos(app, "r0")), blue["red"])
    assert "b0" in app.hud.card.html_text


def test_terrain_kinds_have_their_own_colours_at_known_points(battle):
    app = battle
    step(app)
    expected = {
        "woods": (34.0, 24.0),
        "water": (55.0, 34.0),
        "building": (23.0, 33.0),
        "wheat_field": (55.0, 12.0),
        "hill": (61.0, 19.0),
        "road": (40.0, 45.0),
    }
    for kind, (x, y) in expected.items():
        px = app.camera.to_screen_i(x, y)
        # the majority colour of a small patch belongs to the kind's palette
        palette = style.TERRAIN[kind]
        hits = 0
        for dx in range(-3, 4, 3):
            for dy in range(-3, 4, 3):
                c = app.screen.get_at((px[0] + dx, px[1] + dy))
                if any(near(c, ref, 30) for ref in palette) or any(
                    near(c, style.shade(ref, f), 30)
                    for ref in palette
                    for f in (0.85, 0.88, 1.12, 1.25)
                ):
                    hits += 1
        assert hits >= 5, f"{kind} at {(x, y)}: {hits}/9"
        assert not near(app.screen.get_at(px), style.FELT, 6), kind


def test_drag_moves_with_path_length_and_allowance_shown(battle):
    app = battle
    a = screen_pos(app, "b0")
    m = app.game.state.models["b0"]
    b = app.camera.to_screen_i(m.x, m.y + 4.0)
    drag(app, a, b, release=False)
    pv = app.controller.preview()
    assert pv is not None and pv.legal
    assert abs(pv.length - 4.0) < 0.3
    assert pv.allowance == 6.0 and abs(pv.remaining - 2.0) < 0.3  # from the rules' refusal
    # the path is drawn in the "legal" colour along its length
    assert any(near(app.screen.get_at(p), style.GOOD, 40) for p in along(a, b))
    assert "allowed" in app.hud.odds.html_text
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    moved = app.game.state.models["b0"]
    assert abs(moved.y - 9.0) < 0.3 and app.game.history[-1].action["do"] == "move"


def test_a_path_past_the_allowance_is_trimmed_to_the_legal_end(battle):
    app = battle
    a = screen_pos(app, "b0")
    m = app.game.state.models["b0"]
    start = m.pos
    b = app.camera.to_screen_i(m.x + 9.0, m.y + 9.0)  # 12.7" against the toy's 6"
    drag(app, a, b, release=False)
    pv = app.controller.preview()
    assert pv.legal and abs(pv.length - 6.0) < 0.05
    assert pv.lines and pv.lines[0] == 'trimmed to the legal end (6.0")'
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    settle(app, 0.5)
    moved = app.game.state.models["b0"]
    assert abs(math.dist(start, moved.pos) - 6.0) < 0.05
    assert app.game.history[-1].action["path"][-1] == list(pv.path[-1])


def test_an_illegal_end_point_shows_the_reason_and_commits_nothing(battle):
    app = battle
    a = screen_pos(app, "b0")
    m = app.game.state.models["b0"]
    drag(app, a, app.camera.to_screen_i(m.x + 2.0, m.y))
    settle(app, 0.5)
    before = app.game.state.checksum()
    a = screen_pos(app, "b0")
    m = app.game.state.models["b0"]
    b = app.camera.to_screen_i(m.x + 3.0, m.y + 3.0)
    drag(app, a, b, release=False)
    pv = app.controller.preview()
    assert not pv.legal and "already moved" in pv.reason
    assert any(near(app.screen.get_at(p), style.BAD, 40) for p in along(a, b))
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    assert app.game.state.checksum() == before
    assert app.controller.note and "already moved" in app.controller.note[1]


def test_charge_preview_slides_into_base_contact(battle):
    app = battle
    a = screen_pos(app, "b0")
    drag(app, a, screen_pos(app, "r0"), release=False)
    pv = app.controller.preview()
    assert pv.charge_target == "r0"
    gx, gy = pv.ghost[:2]
    r0 = app.game.state.models["r0"]
    # two 25 mm bases touch when their centres are 25 mm apart
    assert abs(math.dist((gx, gy), r0.pos) - 25 / 25.4) < 0.05
    assert not pv.legal and "charge" in pv.reason  # the toy rules have no charge


def test_shoot_marks_targets_shows_odds_on_hover_and_logs_the_roll(battle):
    app = battle
    click(app, screen_pos(app, "b0"))
    assert [b.text for b in app.hud.action_buttons][0].endswith("shoot")
    key(app, pygame.K_1)  # the first action button: shoot
    assert app.controller.mode is not None
    move_mouse(app, screen_pos(app, "r0"))
    ov = app.battle.overlays()
    assert set(ov.targets) == {"r0", "r1"} and ov.targets["r0"].cls == "valid"
    want = app.game.odds(Shoot(actor="b0", target="r0"))
    assert ov.odds is not None and abs(ov.odds.chance - float(want.chance)) < 1e-9
    step(app, 8)  # the side panel follows the hover within a tenth of a second
    assert "66.7%" in app.hud.odds.html_text  # d6 + 1 needs 4+: 4/6, without a click
    assert ov.sight_lines  # rays from the shooter to the target
    app.game.dice.force([6])
    click(app, screen_pos(app, "r0"))
    assert app.game.state.models["r0"].hp == 1
    assert app.battle.dice is not None and app.battle.dice.faces == [6]
    assert "hit" in app.hud.log.html_text
    key(app, pygame.K_ESCAPE)  # skips the dice
    assert app.battle.dice is None


def test_undo_takes_back_the_move(battle):
    app = battle
    start = app.game.state.checksum()
    m = app.game.state.models["b0"]
    drag(app, screen_pos(app, "b0"), app.camera.to_screen_i(m.x + 2, m.y + 2))
    assert app.game.state.checksum() != start
    key(app, pygame.K_z, mod=pygame.KMOD_CTRL)
    assert app.game.state.checksum() == start


def test_undo_button_is_disabled_after_a_roll(battle):
    app = battle
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)
    app.game.dice.force([2])
    click(app, screen_pos(app, "r0"))
    settle(app, 1.0)
    assert not app.hud.b_undo.is_enabled
    press(app, app.hud.b_undo)
    assert app.game.history  # the shot stays


def test_save_and_load_through_the_file_dialog(battle, tmp_path):
    app = battle
    m = app.game.state.models["b0"]
    drag(app, screen_pos(app, "b0"), app.camera.to_screen_i(m.x + 1, m.y + 3))
    saved = app.game.state.checksum()
    key(app, pygame.K_s, mod=pygame.KMOD_CTRL)
    assert app.hud.dialog is not None and app.hud.dialog[0] == "save"
    press(app, app.hud.dialog[1].ok_button)
    files = list((tmp_path / "saves").glob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["checksum"] == saved
    # play on, then load the save back
    press(app, app.hud.b_next)
    assert app.game.state.checksum() != saved
    press(app, app.hud.b_load)
    assert app.hud.dialog is not None and app.hud.dialog[0] == "load"
    press(app, app.hud.dialog[1].ok_button)
    assert app.game.state.checksum() == saved
    assert any(msg.startswith("loaded") for msg in app.messages)


def test_end_turn_autosaves(battle, tmp_path):
    app = battle
    assert app.game.state.turn == 1
    key(app, pygame.K_END)
    assert app.hud.is_open("confirm") and app.game.state.turn == 1  # actions remain: asked
    press(app, next(b for b in app.hud.buttons if b.text == "Keep playing"))
    assert not app.hud.is_open("confirm") and app.game.state.turn == 1
    key(app, pygame.K_END)
    press(app, next(b for b in app.hud.buttons if b.text == "End turn" and b is not app.hud.b_turn))
    assert app.game.state.turn == 2
    assert len(list((tmp_path / "saves").glob("autosave-toy-*.json"))) == 1
    assert "turn 2" in app.hud.log.html_text


def test_end_activation_button_and_hand_over(app, secrets):
    app.start(make_game(), {"blue": "human", "red": "human"})
    step(app)
    key(app, pygame.K_RETURN)
    assert "End activation" in app.hud.b_next.text
    press(app, app.hud.b_next)
    assert app.game.to_act() == "red"
    assert app.battle.awaiting == "red" and app.hud.is_open("handover")
    press(app, next(b for b in app.hud.buttons if b.text == "Ready"))
    assert app.battle.human_to_act() and not app.battle.awaiting


def test_hotseat_game_from_first_turn_to_the_summary(battle):
    app = battle
    g = app.game
    for _ in range(60):
        if g.state.over:
            break
        if app.battle.awaiting:
            key(app, pygame.K_RETURN)
            continue
        side = g.to_act()
        if side == "blue":
            shooter = next(
                (
                    m.id
                    for m in g.state.live("blue")
                    if any(a.KIND == "shoot" for a in app.controller.actions(m.id))
                ),
                None,
            )
            if shooter is not None:
                click(app, screen_pos(app, shooter))
                key(app, pygame.K_1)
                target = g.state.live("red")[0].id
                g.dice.force([6])
                click(app, screen_pos(app, target))
                settle(app, 1.0)
        if not g.state.over:
            key(app, pygame.K_SPACE)
            settle(app, 0.2)
    settle(app, 1.5)
    assert g.state.over and g.outcome().winner == "blue"
    assert app.hud.is_open("summary")
    text = app.hud.windows["summary"].get_container().elements[0].html_text
    assert "BLUE wins" in text and "lost 2 of 2" in text and "Turns played" in text
    assert "red</b></font> 2/2" in app.hud.casualties.html_text


def test_help_overlay_lists_the_shortcuts(battle):
    app = battle
    key(app, pygame.K_F1)
    assert app.hud.is_open("help")
    boxes = app.hud.windows["help"].get_container().elements
    text = next(b.html_text for b in boxes if hasattr(b, "html_text"))
    assert "Ctrl+Z" in text and "Q / E" in text
    key(app, pygame.K_ESCAPE)
    assert not app.hud.is_open("help")
    key(app, pygame.K_SLASH, mod=pygame.KMOD_SHIFT, unicode="?")
    assert app.hud.is_open("help")


def test_rule_section_links_open_the_reference(app, monkeypatch):
    game = make_game()
    ref = Reference({"D6-3": Section("D6-3", "Shooting", "Roll a d6, add SK; 4+ hits.")})
    monkeypatch.setattr(game.ruleset, "reference", ref)
    app.start(game, {"blue": "human", "red": "human"})
    step(app)
    key(app, pygame.K_RETURN)
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)
    game.dice.force([5])
    click(app, screen_pos(app, "r0"))
    assert "href='rule:D6-3'" in app.hud.log.html_text
    post(
        app,
        pygame.event.Event(
            pygame_gui.UI_TEXT_BOX_LINK_CLICKED, link_target="rule:D6-3", ui_element=app.hud.log
        ),
    )
    assert app.hud.is_open("reference")
    body = app.hud.windows["reference"].get_container().elements[0].html_text
    assert "Roll a d6, add SK" in body


def test_q_where_the_rules_have_no_turn_says_so_and_turns_the_dragged_ghost(battle):
    """The toy rules, like UMR, have no turn on its own: Q on a selected model says how
    to turn instead of offering an Enter that would be refused; while dragging, Q turns
    the ghost and the move carries the facing."""
    app = battle
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_q)
    assert app.controller.pending_facing is None
    assert "while dragging" in app.controller.note[1]
    before = app.game.state.checksum()
    key(app, pygame.K_RETURN)
    assert app.game.state.checksum() == before
    m = app.game.state.models["b0"]
    drag(app, screen_pos(app, "b0"), app.camera.to_screen_i(m.x + 2, m.y), release=False)
    key(app, pygame.K_q)
    assert app.controller.pending_facing == (m.facing + 15.0) % 360
    assert app.controller.preview().ghost[2] == app.controller.pending_facing


def test_pan_and_zoom(battle):
    app = battle
    cam = app.camera
    p = (400, 400)
    world = cam.to_world(*p)
    level = cam.level
    move_mouse(app, p)
    post(
        app,
        pygame.event.Event(
            pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0
        ),
    )
    assert cam.level == level + 2
    after = cam.to_world(*p)
    assert math.dist(world, after) < 2 / cam.scale  # the point under the mouse stays put
    ox = cam.ox
    drag(app, (500, 400), (540, 420), button=3)
    assert cam.ox == ox + 40
    key(app, pygame.K_LEFT)
    assert cam.ox == ox + 120
    key(app, pygame.K_HOME)
    assert cam.level <= level


def test_computer_side_thinks_off_the_drawing_thread(app):
    app.start(make_game(), {"blue": "human", "red": "computer"})
    step(app)
    assert not app.battle.awaiting  # one human: no hand-over notices
    press(app, app.hud.b_next)  # blue ends its activation
    frames = 0
    while app.game.to_act() == "red" and frames < 200:
        app.step(None, 0.05)
        frames += 1
    assert app.game.to_act() == "blue"
    assert any(s.side == "red" for s in app.game.history)
    assert app.battle.job is None


def test_rendering_does_not_change_the_game(battle):
    app = battle
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)
    move_mouse(app, screen_pos(app, "r0"))
    before = app.game.state.checksum()
    app.draw()
    first = pygame.image.tobytes(app.screen, "RGB")
    app.draw()
    assert pygame.image.tobytes(app.screen, "RGB") == first
    assert app.game.state.checksum() == before


def test_a_target_half_behind_a_building_is_in_cover_with_its_shadow(app):
    from engine.battlefield import Battlefield, TerrainFeature
    from tests.ui.conftest import rect

    game = make_game()
    game.battlefield = Battlefield(
        72.0, 48.0, (TerrainFeature("b1", "building", rect(10.2, 30, 4, 3)),)
    )
    game.ctx.battlefield = game.battlefield
    app.start(game, {"blue": "human", "red": "human"})
    step(app)
    key(app, pygame.K_RETURN)
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)
    move_mouse(app, screen_pos(app, "r0"))
    ov = app.battle.overlays()
    mark = ov.targets["r0"]
    assert mark.cls == "cover" and 0.0 < mark.fraction < 1.0
    assert f"{mark.fraction:.0%} visible" in mark.label
    assert ov.shadow, "the hidden part of the target base is drawn"
    assert {band for _, _, band in ov.sight_lines} >= {"blocked"}


def test_a_rules_query_that_raises_is_shown_not_a_blank_box(battle, monkeypatch, capsys):
    """No silent fallback (issue 18): when the ruleset raises while listing a model's
    actions, the panel names the rules error instead of an empty, unexplained box."""
    app = battle
    g = app.game

    def broken(state, actor, ctx):
        raise ValueError("table lookup failed")

    monkeypatch.setattr(g.ruleset, "actions_for", broken)
    click(app, screen_pos(app, "b0"))
    step(app, 30, dt=0.05)
    assert app.controller.selected == "b0" and app.controller.actions() == []
    assert "rules error in the actions of b0: table lookup failed" in app.hud.odds.html_text
    assert "ValueError" in capsys.readouterr().err  # the traceback is printed for a report


def test_the_trim_note_speaks_the_ruleset_unit(battle, monkeypatch):
    """Inter Arma measures in cm (2 cm to the inch): the toy's 6" trim reads in cm."""
    app = battle
    monkeypatch.setattr(type(app.game.ruleset), "unit_name", "cm", raising=False)
    monkeypatch.setattr(type(app.game.ruleset), "unit_per_inch", 2.0, raising=False)
    m = app.game.state.models["b0"]
    drag(app, screen_pos(app, "b0"), app.camera.to_screen_i(m.x + 9.0, m.y + 9.0), release=False)
    pv = app.controller.preview()
    assert pv.lines[0] == f"trimmed to the legal end ({pv.length * 2:.1f} cm)"
    assert 11.8 < pv.length * 2 <= 12.0
