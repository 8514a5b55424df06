"""The board preview page in a real Chromium (Playwright), served over real HTTP: it draws the map (pixels,
not just a canvas element), pans and zooms with keys, wheel, drag and the minimap, explains the hovered hex,
and logs no errors. Screenshots go to build/screenshots/ for a person to look at."""

from __future__ import annotations

import math

import pytest

SQRT3 = math.sqrt(3)


def world(q: int, r: int) -> tuple[float, float]:
    """deltav.core.hexgrid.pixel with size 1 (the page's world units)."""
    return 1.5 * q, SQRT3 / 2 * q + SQRT3 * r


def _counts(message) -> bool:
    """Console errors and warnings count, except Chromium's hint caused by this file's own pixel readbacks."""
    return message.type in ("error", "warning") and "willReadFrequently" not in message.text


@pytest.fixture
def page(browser, static_server):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if _counts(m) else None)
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    pg.goto(static_server + "/board.html")
    pg.wait_for_selector("html[data-ready=true]", timeout=10_000)
    settle(pg)
    pg.errors = errors
    yield pg
    ctx.close()


def settle(pg) -> None:
    pg.wait_for_function("window.deltav.view.camera.settled", timeout=5_000)
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def state(pg) -> dict:
    return pg.evaluate("window.deltav.state()")


def pixel_at(pg, wx: float, wy: float) -> list[int]:
    """The RGBA of the board canvas at the screen point of a world point."""
    return pg.evaluate(
        """([wx, wy]) => {
            const v = window.deltav.view;
            const [sx, sy] = v.camera.toScreen(wx, wy);
            const dpr = window.devicePixelRatio || 1;
            const d = v.canvas.getContext('2d').getImageData(Math.round(sx * dpr), Math.round(sy * dpr), 1, 1).data;
            return Array.from(d);
        }""",
        [wx, wy],
    )


def canvas_stats(pg, selector: str = "#board") -> dict:
    return pg.evaluate(
        """(sel) => {
            const c = document.querySelector(sel);
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let lit = 0, colours = new Set();
            for (let i = 0; i < d.length; i += 4 * 7) {
                if (d[i] + d[i + 1] + d[i + 2] > 90) lit++;
                colours.add((d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | (d[i + 2] >> 4));
            }
            return {lit, colours: colours.size, samples: d.length / 28, width: c.width, height: c.height};
        }""",
        selector,
    )


def test_the_board_draws_the_map(page, screenshots):
    s = canvas_stats(page)
    assert s["width"] == 1280 and s["height"] == 800
    assert s["colours"] > 60, s  # not a blank or flat canvas
    assert s["lit"] > 2000, s
    sol = pixel_at(page, *world(-2, 2))
    assert sol[0] > 230 and sol[1] > 200 and sol[2] < sol[0] - 15, f"Sol is drawn bright yellow-white: {sol}"
    terra = pixel_at(page, *world(5, -5))
    assert terra[2] > terra[0] + 40, f"Terra is drawn blue: {terra}"
    empty = pixel_at(page, *world(12, 5))
    assert sum(empty[:3]) < 150, f"empty space stays dark: {empty}"
    mini = canvas_stats(page, "#minimap")
    assert mini["colours"] > 10 and mini["lit"] > 20, mini
    assert page.locator("#scenario-name").inner_text() == "Bi-Planetary"
    page.screenshot(path=str(screenshots / "board-fit.png"))
    assert page.errors == []


def test_keys_pan_and_zoom(page, screenshots):
    s0 = state(page)
    for _ in range(4):
        page.keyboard.press("+")
    settle(page)
    s1 = state(page)
    assert s1["zoom"] == pytest.approx(s0["zoom"] * 1.25 ** 4, rel=1e-6)
    page.screenshot(path=str(screenshots / "board-zoom-244.png"))
    page.keyboard.press("d")
    page.keyboard.press("ArrowRight")
    settle(page)
    s2 = state(page)
    assert s2["x"] > s1["x"] and s2["y"] == pytest.approx(s1["y"])
    page.keyboard.press("w")
    settle(page)
    s3 = state(page)
    assert s3["y"] < s2["y"] and s3["x"] == pytest.approx(s2["x"])
    page.keyboard.press("ArrowDown")
    page.keyboard.press("a")
    settle(page)
    s4 = state(page)
    assert s4["y"] > s3["y"] and s4["x"] < s3["x"]
    page.keyboard.press("-")
    settle(page)
    assert state(page)["zoom"] == pytest.approx(s1["zoom"] / 1.25, rel=1e-6)
    assert state(page)["layerRenders"] > s0["layerRenders"]
    page.keyboard.press("h")
    settle(page)
    assert state(page)["zoom"] == pytest.approx(s0["zoom"])
    assert page.errors == []


def test_zoomed_in_view_and_hover_readout(page, screenshots):
    # centre on Terra and zoom in with the keyboard, then hover Terra's base hex
    page.evaluate("() => window.deltav.view.centreOn([6, -6])")
    for _ in range(9):
        page.keyboard.press("=")
    settle(page)
    z = state(page)["zoom"]
    assert z > 35
    sx, sy = page.evaluate("([x, y]) => window.deltav.view.camera.toScreen(x, y)", list(world(7, -7)))
    renders = state(page)["layerRenders"]
    page.mouse.move(sx, sy)
    page.wait_for_function("document.querySelector('#readout').textContent.includes('base')")
    assert state(page)["hover"] == [7, -7]
    assert state(page)["layerRenders"] == renders, "hovering redraws the overlay only, not the cached static layer"
    text = page.locator("#readout").inner_text()
    assert "hex 7, -7" in text and "planetary base of Terra" in text and "gravity toward Terra" in text
    page.screenshot(path=str(screenshots / "board-terra-zoomed.png"))
    sx, sy = page.evaluate("([x, y]) => window.deltav.view.camera.toScreen(x, y)", list(world(5, -5)))
    page.mouse.move(sx, sy)
    page.wait_for_function("document.querySelector('#readout').textContent.includes('surface')")
    assert "Terra (surface" in page.locator("#readout").inner_text()
    assert page.errors == []


def test_wheel_zoom_keeps_the_point_under_the_cursor(page):
    sx, sy = 700, 300
    before = page.evaluate("([x, y]) => window.deltav.view.camera.toWorld(x, y)", [sx, sy])
    page.mouse.move(sx, sy)
    z0 = state(page)["zoom"]
    page.mouse.wheel(0, -300)
    settle(page)
    assert state(page)["zoom"] > z0 * 1.2
    after = page.evaluate("([x, y]) => window.deltav.view.camera.toWorld(x, y)", [sx, sy])
    assert after == pytest.approx(before, abs=1e-6)


def test_drag_pans(page):
    for _ in range(3):
        page.keyboard.press("+")
    settle(page)
    s0 = state(page)
    page.mouse.move(600, 400)
    page.mouse.down()
    page.mouse.move(500, 450, steps=5)
    page.mouse.move(400, 500, steps=5)
    page.mouse.up()
    settle(page)
    s1 = state(page)
    assert s1["x"] == pytest.approx(s0["x"] + 200 / s0["zoom"], rel=1e-6)
    assert s1["y"] == pytest.approx(s0["y"] - 100 / s0["zoom"], rel=1e-6)


def test_minimap_click_moves_the_view(page, screenshots):
    for _ in range(6):
        page.keyboard.press("+")
    settle(page)
    box = page.locator("#minimap").bounding_box()
    # the minimap point of Jupiter
    mx, my = page.evaluate(
        """([x, y]) => { const m = window.deltav.view.minimap; const [a, b] = [m.toWorld(0, 0), m.toWorld(1, 1)];
                        return [(x - a[0]) / (b[0] - a[0]), (y - a[1]) / (b[1] - a[1])]; }""",
        list(world(-1, -18)),
    )
    page.mouse.click(box["x"] + mx, box["y"] + my)
    settle(page)
    s = state(page)
    jx, jy = world(-1, -18)
    assert s["x"] == pytest.approx(jx, abs=0.5) and s["y"] == pytest.approx(jy, abs=0.5)
    page.screenshot(path=str(screenshots / "board-jupiter-from-minimap.png"))
    assert page.errors == []


def test_legend_and_typing_in_a_field_does_not_pan(page, screenshots):
    page.click("#legend-toggle")
    assert page.locator("#legend").is_visible()
    assert page.locator("#legend li").count() == 6
    page.screenshot(path=str(screenshots / "board-legend.png"))
    # a text field (a chat box later) keeps its keys
    page.evaluate("""() => { const i = document.createElement('input'); i.id = 'chat';
        i.style.cssText = 'position:fixed;left:40%;top:45%;z-index:5'; document.body.append(i); }""")
    s0 = state(page)
    page.click("#chat")
    page.keyboard.type("wasd+-")
    settle(page)
    assert state(page)["x"] == s0["x"] and state(page)["zoom"] == s0["zoom"]
    assert page.locator("#chat").input_value() == "wasd+-"


def test_mobile_viewport(browser, static_server, screenshots):
    ctx = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2, has_touch=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(static_server + "/board.html")
    pg.wait_for_selector("html[data-ready=true]")
    settle(pg)
    s = canvas_stats(pg)
    assert s["width"] == 750 and s["height"] == 1624 and s["colours"] > 60
    pg.screenshot(path=str(screenshots / "board-mobile.png"))
    assert errors == []
    ctx.close()


def test_a_broken_board_says_so(browser, built_client, tmp_path):
    """A page whose embedded board is malformed shows an error naming the field instead of a blank map."""
    html = (built_client / "board.html").read_text()
    tag = '<script id="board-data" type="application/json">'
    start = html.index(tag) + len(tag)
    end = html.index("</script>", start)
    bad = html[:start] + html[start:end].replace('"minQ":-16', '"minQ":"x"') + html[end:]
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.route("**/board.html", lambda route: route.fulfill(body=bad, content_type="text/html"))
    pg.route("**/demo.js", lambda route: route.fulfill(path=str(built_client / "demo.js"),
                                                              content_type="text/javascript"))
    pg.route("**/style.css", lambda route: route.fulfill(path=str(built_client / "style.css"), content_type="text/css"))
    pg.goto("http://127.0.0.1.invalid/board.html")
    pg.wait_for_selector("#error:not([hidden])")
    assert "bounds.minQ" in pg.locator("#error").inner_text()
    ctx.close()
