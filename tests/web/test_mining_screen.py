"""The mining screen on snapshots from the real engine, in a real Chromium: each decision phase draws the field
and offers its controls, clicks stand for legal entries only, refused clicks are explained, and screenshots of
every phase go to build/screenshots/mining-*.png. (The end-to-end games against the server are in
test_mining_play.py.)"""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest

from tests.web.conftest import WEB, run_node
from tests.web.mining_fixtures import fixtures

HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>mining harness</title><link rel="icon" href="data:,">
<style>html,body{margin:0;height:100%;background:#03050b;color:#dfe6f3;font-family:system-ui}
#banner{position:fixed;top:0;left:0;right:0;height:28px;padding:4px 10px;font-size:14px;background:#0b1020}
#status{position:fixed;bottom:0;left:0;right:0;height:24px;padding:3px 10px;font-size:13px;background:#0b1020}
#root{position:fixed;top:28px;bottom:24px;left:0;right:0;overflow:auto}
#help{position:fixed;inset:40px;overflow:auto;background:#0b1020;padding:16px;z-index:9}
@media (max-width: 820px){#root{position:static;margin-top:28px}body{overflow:auto;height:auto}}
</style></head><body><div id="banner" aria-live="polite"></div><div id="root"></div>
<div id="status" role="status" aria-live="polite"></div><div id="help" hidden></div>
<script id="fixtures" type="application/json">FIXTURES</script><script type="module" src="harness.js"></script>
</body></html>"""

BUILD = """
import * as esbuild from "esbuild";
await esbuild.build({entryPoints: [process.argv[1]], outfile: process.argv[2], bundle: true, format: "esm",
  target: ["es2022"], logLevel: "warning"});
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    out = tmp_path_factory.mktemp("mining_harness")
    proc = run_node(["node", "--input-type=module", "-e", BUILD, str(WEB / "test" / "harness" / "mining.ts"),
                     str(out / "harness.js")])
    assert proc.returncode == 0, proc.stderr
    fx = fixtures(3)
    (out / "index.html").write_text(HTML.replace("FIXTURES", json.dumps(fx).replace("<", "\\u003c")))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html", fx
    finally:
        server.shutdown()
        server.server_close()


def open_page(browser, url, width=1280, height=800, **kw):
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, **kw)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("html[data-ready=true]")
    pg.errors = errors
    return ctx, pg


def show(pg, fx, label) -> dict:
    i = next(i for i, f in enumerate(fx) if f["label"] == label)
    pg.evaluate(f"window.harness.show({i})")
    pg.wait_for_function(f"document.querySelector('.mn-board').dataset.drawn === '{fx[i]['snapshot']['step']}'")
    return fx[i]["snapshot"]


def test_every_phase_draws_and_offers_its_controls(browser, harness, screenshots):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    for f in fx:
        snap = show(pg, fx, f["label"])
        pg.screenshot(path=str(screenshots / f"mining-phase-{f['label']}.png"))
        prompt = pg.inner_text(".mn-prompt h2")
        assert prompt, f["label"]
        if snap["to_act"]:
            # every button on the page stands for a legal entry type of this snapshot
            types = {e["action"]["type"] for e in snap["legal"]}
            shown = set(pg.eval_on_selector_all("[data-action]", "els => els.map(e => e.dataset.action)"))
            assert shown - {"survey-open"} <= types, (f["label"], shown, types)
    assert pg.errors == []
    ctx.close()
