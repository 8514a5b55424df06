"""Touch and motion on the tactical screen in a real Chromium: a two-finger pinch (two touch points through the
DevTools protocol's Input.dispatchTouchEvent) zooms about the fingers' midpoint; after a movement phase a ship
glides along its path for about 400 ms (drawn part way between hexes), and with prefers-reduced-motion it jumps."""

from __future__ import annotations

from tests.web.test_tactical_screen import play, settle, snap, wait_my_astrogation

SAMPLER = """() => { window.glide = []; const t0 = performance.now();
  const step0 = window.deltavTactical.screen.snapshot().step;
  const f = () => { const s = window.deltavTactical.screen; const sc = s.sceneForTests();
    const sh = sc && sc.ships.find(x => x.id === 'p0s0');
    if (s.snapshot().step > step0 && sh) window.glide.push([performance.now() - t0, sh.position[0], sh.position[1]]);
    if (performance.now() - t0 < 6000) requestAnimationFrame(f); };
  requestAnimationFrame(f); }"""


def glide_samples(pg):
    wait_my_astrogation(pg)
    settle(pg)
    pg.keyboard.press("6")  # take off toward Venus
    pg.evaluate(SAMPLER)
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    pg.wait_for_timeout(900)
    final = next(s for s in snap(pg)["view"]["ships"] if s["id"] == "p0s0")["position"]
    return pg.evaluate("window.glide"), final


def test_a_ship_glides_along_its_path_after_moving(live_server, new_page):
    pg = play(live_server, new_page, seed=2)
    samples, final = glide_samples(pg)
    assert samples, "no frame drawn after the move"
    between = [s for s in samples if not (float(s[1]).is_integer() and float(s[2]).is_integer())]
    assert between, samples[:5]  # drawn part way between hexes
    span = between[-1][0] - samples[0][0]
    # about 400 ms: the glide is timed, so a frame the browser drew late (a loaded machine) can only show its end
    # that much later; a glide of seconds would still fail
    gap = max((b[0] - a[0] for a, b in zip(samples, samples[1:])), default=0.0)
    assert 150 < span < 550 + gap, (span, gap)
    assert samples[-1][1:] == final  # and it ends where the engine put it
    assert not pg.errors, pg.errors


def test_no_glide_with_reduced_motion(live_server, new_page):
    room = live_server.create("tactical", ["human", "bot:random"], seed=2, name="ann", scenario="biplanetary")
    pg = new_page(reduced_motion=True)
    live_server.open_seat(pg, room)
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    samples, final = glide_samples(pg)
    assert samples and all(float(s[1]).is_integer() and float(s[2]).is_integer() for s in samples), samples[:5]
    assert samples[-1][1:] == final


def test_pinch_zooms_about_the_fingers(live_server, new_page, screenshots):
    pg = play(live_server, new_page, seed=5, width=375, height=812, mobile=True)
    wait_my_astrogation(pg)
    settle(pg)
    box = pg.locator(".tac-board canvas, canvas").first.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    z0 = pg.evaluate("window.deltavTactical.view.camera.zoom")
    world0 = pg.evaluate(f"window.deltavTactical.view.camera.toWorld({cx - box['x']}, {cy - box['y']})")
    cdp = pg.context.new_cdp_session(pg)

    def touch(kind, pts):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
            {"x": x, "y": y, "id": i, "radiusX": 2, "radiusY": 2, "force": 1} for i, (x, y) in enumerate(pts)]})

    touch("touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for k in range(1, 11):  # the fingers spread from 60 to 180 px apart
        touch("touchMove", [(cx - 30 - 6 * k, cy), (cx + 30 + 6 * k, cy)])
    touch("touchEnd", [])
    settle(pg)
    z1 = pg.evaluate("window.deltavTactical.view.camera.zoom")
    assert 2.4 < z1 / z0 < 3.6, (z0, z1)  # about the fingers' spread (x3), within the camera's limits
    world1 = pg.evaluate(f"window.deltavTactical.view.camera.toWorld({cx - box['x']}, {cy - box['y']})")
    assert abs(world1[0] - world0[0]) < 0.3 and abs(world1[1] - world0[1]) < 0.3, (world0, world1)
    pg.screenshot(path=str(screenshots / "tactical-pinched.png"))
    assert snap(pg)["status"] == "playing" and not pg.errors, pg.errors
