"""Knight Hawks screen defects of issue 27, each reproduced in Chromium on the harness page (tests/web/kh_harness.py:
the screen alone, its host a real ``Session`` with the scripted bot on the other seat):

- the declared-shot list names the target ship (it read "Z'Gata LB -> LB");
- the map fits the screen at start (at 1400 px its east part was cut off until H), with a compass, the edges and
  the exit edge drawn;
- a speed change that ends a masking screen is warned before the plot is committed (the screen just vanished);
- the combat report reads oldest first, the damage under the attack that caused it;
- the labels of the pointers toward ships off screen never overlap;
- two seekers a ship dropped on different turns had the same words on the engine's side ("Activate a seeker
  dropped during the battle"); the buttons read "activate seeker 1", "activate seeker 2": each now says which
  seeker it is (by its ship and turn, as the engine words it) and the map marks it with the same words.

Screenshots: build/screenshots/knighthawks-defect-*.png.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.web.kh_harness import Driver, Server, build_harness, open_page
from tests.web.test_knighthawks_screen import play_one, shot, stage, wait_step_change


@pytest.fixture(scope="module")
def harness():
    out = build_harness(Path(tempfile.mkdtemp(prefix="kh-harness-")))
    srv = Server(out)
    try:
        yield srv.url
    finally:
        srv.close()


def to_stage(pg, wanted: str, seen: set[str] | None = None, limit: int = 200) -> None:
    """Play (by clicks, as play_one does) until the page is to act in stage ``wanted``."""
    seen = seen if seen is not None else {"move", "move-plot", "move-planned", "declare", "intercept", "repair"}
    for _ in range(limit):
        pg.wait_for_function("window.khScreen.snap && (window.khScreen.snap.to_act || window.khScreen.snap.status === 'over')")
        st = stage(pg)
        assert st["status"] != "over", f"the game ended before stage {wanted}"
        if st["stage"] == wanted and not st["plotting"]:
            return
        play_one(pg, seen)
    raise AssertionError(f"never reached stage {wanted}")


def test_the_declared_shots_name_their_target(harness, browser):
    d = Driver({"scenario": "escort"}, seed=2, seat=0)
    pg = open_page(browser, harness, d)
    assert stage(pg)["stage"] == "declare"  # the escort opens with the UPF's defensive fire
    target = pg.locator(".kh-weapons button[data-legal]").first
    action = pg.evaluate(f"window.khScreen.snap.legal[{target.get_attribute('data-legal')}].action")
    names = {s.id: s.name for s in d.session.state.ships}
    before = stage(pg)["step"]
    target.click()
    wait_step_change(pg, before)
    declared = pg.locator(".kh-plotted li").first.inner_text()
    assert declared.endswith(f"→ {names[action['target']]}"), declared
    assert names[action["ship"]] in declared
    shot(pg, "defect-declared")
    assert pg.errors == []
    pg.ctx.close()


def canvas_pixel(pg, x: float, y: float) -> list[int]:
    return pg.evaluate(f"""() => {{ const c = window.khScreen.map.canvas; const k = c.width / c.clientWidth;
        return [...c.getContext('2d').getImageData(Math.round({x} * k), Math.round({y} * k), 1, 1).data]; }}""")


def test_the_whole_map_fits_at_start_with_a_compass_and_the_exit_edge(harness, browser):
    d = Driver({"scenario": "escort"}, seed=2, seat=0)
    pg = open_page(browser, harness, d, viewport=(1400, 800))
    pg.wait_for_timeout(400)
    # every hex of the battle area (its six corner hexes stand for the rest) is on the canvas at start
    inside = pg.evaluate("""() => { const m = window.khScreen.map; const R = window.khScreen.view.map.radius;
        const c = m.canvas.getBoundingClientRect();
        return [[R, 0], [R, -R], [0, -R], [-R, 0], [-R, R], [0, R]].map(h => { const [x, y] = m.screenOf(h);
            return x > 0 && y > 0 && x < c.width && y < c.height; }); }""")
    assert all(inside), inside
    drawn = pg.evaluate("window.khScreen.map.drawn")
    cx, cy, r = drawn["compass"]["x"], drawn["compass"]["y"], drawn["compass"]["r"]
    assert r > 10
    north = canvas_pixel(pg, cx, cy - (r - 9) * 0.7)  # the red north arrow
    assert north[0] > 200 and north[1] < 150, north
    # the escort's exit is the east edge: its hexsides are drawn in green, on the right of the map
    assert len(drawn["exit"]) > 10
    xs = [p[0] for p in drawn["exit"]]
    centre = pg.evaluate("window.khScreen.map.screenOf([0, 0])[0]")
    assert min(xs) > centre
    x, y = drawn["exit"][len(drawn["exit"]) // 2]
    px = canvas_pixel(pg, x, y)
    assert px[1] > 150 and px[1] > px[0] + 40 and px[1] > px[2], px
    shot(pg, "defect-fit-1400")
    assert pg.errors == []
    pg.ctx.close()


def test_a_speed_change_that_ends_a_masking_screen_is_warned_first(harness, browser):
    d = Driver({"scenario": "escort"}, seed=2, seat=0)
    pg = open_page(browser, harness, d)
    to_stage(pg, "move")
    pg.locator(".kh-fleet [data-ship=gullwind]").click()
    s = stage(pg)["step"]
    pg.locator(".kh-controls button[data-legal]", has_text="release a masking screen").click()
    wait_step_change(pg, s)
    controls = pg.locator(".kh-controls")
    assert "masking screen is out" in controls.inner_text()
    gull = next(x for x in d.session.state.ships if x.id == "gullwind")
    other = controls.locator(".kh-speeds button[data-legal]").filter(has_not_text=str(gull.speed)).first
    assert "ends masking screen" in other.inner_text()
    s = stage(pg)["step"]
    other.click()  # the first press only warns
    pg.wait_for_timeout(300)
    assert stage(pg)["step"] == s
    assert "ends Gullwind's masking screen" in pg.evaluate("window.kh.said.at(-1)")
    shot(pg, "defect-masking-warned")
    controls.locator(".kh-speeds button.kh-masking[data-legal]").filter(has_text="again").click()
    wait_step_change(pg, s)
    assert stage(pg)["plotting"][0] == "gullwind"
    assert d.refusals == [] and pg.errors == []
    pg.ctx.close()


def test_the_combat_report_reads_oldest_first(harness, browser):
    d = Driver({"scenario": "skirmish", "fleet0": "destroyer,frigate", "fleet1": "heavy_cruiser", "turn_limit": 4},
               seed=1, seat=0)
    pg = open_page(browser, harness, d)
    seen = {"move", "move-plot", "move-planned", "declare", "intercept", "repair"}
    for _ in range(300):
        if pg.locator(".kh-report li.kh-damage").count() or not play_one(pg, seen):
            break
    lines = pg.locator(".kh-report li")
    kinds = pg.evaluate("[...document.querySelectorAll('.kh-report li')].map(li => li.className)")
    first_damage = kinds.index("kh-damage")
    assert kinds[first_damage - 1] == "kh-hit", kinds  # the hit that caused it, just above
    assert "is hit" in lines.nth(first_damage).inner_text()
    turn_lines = [i for i, k in enumerate(kinds) if k == "kh-turn"]
    assert turn_lines and turn_lines[0] < first_damage  # "Turn 1: ... moves" comes before what happened in it
    assert pg.evaluate("(() => { const r = document.querySelector('.kh-report'); "
                       "return r.scrollTop + r.clientHeight >= r.scrollHeight - 8; })()")  # following the newest
    shot(pg, "defect-report")
    assert pg.errors == []
    pg.ctx.close()


def test_the_pointers_toward_ships_off_screen_never_overlap(harness, browser):
    d = Driver({"scenario": "fleet_battle"}, seed=1, seat=0)
    pg = open_page(browser, harness, d)
    R = pg.evaluate("window.khScreen.view.map.radius")
    # zoom in on a far corner of the map: every ship is off screen, most of them in one direction
    pg.evaluate(f"window.khScreen.map.focus([{-R}, {R}], 40)")
    pg.wait_for_timeout(1200)
    labels = pg.evaluate("window.khScreen.map.drawn.pointers")
    ships = pg.evaluate("window.khScreen.view.ships.filter(s => s.status === 'active').length")
    assert 1 <= len(labels) < ships  # close pointers merged into one with a count
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            apart = (a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"] or a["y"] + a["h"] <= b["y"]
                     or b["y"] + b["h"] <= a["y"])
            assert apart, (a, b)
    shot(pg, "defect-pointers")
    assert pg.errors == []
    pg.ctx.close()


def _drop_seekers_on_two_turns(d: Driver) -> None:
    """Seat 0's minelayer holds its course and drops a seeker where it starts on turns 1 and 2 (through the session,
    as the page would send it); every other decision of seat 0 is the simplest legal one."""
    from deltav.games.knighthawks import messages as m

    s = d.session
    for turn in (1, 2):
        d.run_bots()
        ml = next(x for x in s.state.ships if x.owner == 0)
        s.submit(0, m.Course(ml.id, ml.speed, ml.facing).to_json())
        while s.state.plotting is not None:
            s.submit(0, s.state.legal_actions(0)[0].to_json())
        s.submit(0, m.Lay(ml.id, "S", 0).to_json())
        s.submit(0, m.EndMovement().to_json())
        for _ in range(200):
            d.run_bots()
            st = s.state
            if st.stage == "move" and st.mover == 0 and st.turn == turn + 1:
                break
            legal = st.legal_actions(0)
            simple = [a for a in legal if a.TYPE in ("fire", "end_repair", "intercept", "end_movement")]
            s.submit(0, (simple or legal)[0].to_json())
    d.since = s.step


def test_each_seeker_button_says_which_seeker_it_wakes(harness, browser):
    d = Driver({"scenario": "skirmish", "fleet0": "minelayer", "fleet1": "frigate"}, seed=1, seat=0)
    _drop_seekers_on_two_turns(d)
    pg = open_page(browser, harness, d)
    to_stage(pg, "move")
    row = pg.locator(".kh-controls .kh-row").filter(has_text="Seekers")
    texts = [t.strip() for t in row.locator("button[data-legal]").all_inner_texts()]
    assert texts == ["activate seeker 1 (placed before the battle)",
                     "activate the seeker Minelayer 1 dropped on turn 1",
                     "activate the seeker Minelayer 1 dropped on turn 2"]
    labels = pg.evaluate("window.khScreen.overlay().markers.filter((m) => m.kind === 'target').map((m) => m.label)")
    assert labels == ["seeker 1", "Minelayer 1, turn 1", "Minelayer 1, turn 2"]
    shot(pg, "defect-seekers-named")
    wanted = next(a for a in d.session.state.legal_actions(0) if a.TYPE == "activate" and a.turn == 1)
    s = stage(pg)["step"]
    row.locator("button[data-legal]", has_text="dropped on turn 1").click()
    wait_step_change(pg, s)
    assert d.session.state.activated == [wanted.seeker]
    assert d.refusals == [] and pg.errors == []
    pg.ctx.close()
