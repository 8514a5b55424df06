"""A player of Delta-V tactical through the page, for the whole-game journeys (test_tactical_journeys.py): it reads
the screen's snapshot and the engine's notes to decide as a plain player would (head for the enemy or the
objective, no crash, no needless risk; fire when a shot can hit; launch a torpedo that would hit), and acts only
through the page's inputs of one mode:

- ``keyboard``: keys only (Tab, 1-6, Shift+1-6, 0, ], T, Enter, Esc, the replay's End);
- ``mouse``: clicks on the map (ships, burn arrows, enemy ships) and on the panel's buttons, no modifier key;
- ``touch``: taps only (a 375x812 phone: the panel's pad and buttons, ships on the map).

It also answers the shell's dialogs on the way (the scenario briefing, the first-game guide's offer, the "what
happened" cards) with the same mode, and photographs every phase the first time it comes."""

from __future__ import annotations

import contextlib
import math
import re
import time

from tests.web.conftest import banner_whole

SQRT3 = math.sqrt(3)
GLYPH = ["↘", "↗", "↑", "↖", "↙", "↓"]


def world(h) -> tuple[float, float]:
    return 1.5 * h[0], SQRT3 / 2 * h[0] + SQRT3 * h[1]


def hexdist(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def key_hex(k: str) -> tuple[int, int]:
    q, r = k.split(",")
    return int(q), int(r)


class Player:
    def __init__(self, pg, mode: str, screenshots, name: str, follow_guide: bool = False):
        assert mode in ("keyboard", "mouse", "touch")
        self.follow_guide = follow_guide
        self.briefing = ""  # the scenario briefing's text, when it came
        self.guide_steps: list[str] = []  # the guide's step titles as they were shown
        self.cards: list[str] = []  # the "what happened" cards' texts
        self.pg = pg
        self.mode = mode
        self.shots = screenshots
        self.name = name
        self.seen: set[str] = set()
        self.log: list[str] = []  # what the player did, for a failure's message
        self.fired = 0
        self.launched = 0
        self.overloads = 0
        self.bought: list[str] = []

    # --- reading the page -----------------------------------------------------------------------------------------
    def snap(self) -> dict:
        return self.pg.evaluate("window.deltavTactical.screen.snapshot()")

    def scene(self) -> dict:
        return self.pg.evaluate("(() => { const s = window.deltavTactical.screen.sceneForTests(); return {selected: s.selected, "
                                "chosenDir: s.chosenDir, overloadDir: s.overloadDir, overloadPick: !!s.overloadPick, "
                                "arrows: s.arrows, target: s.target}; })()")

    def status(self) -> str:
        return self.pg.inner_text(".match .status")

    def shoot(self, what: str) -> None:
        if what in self.seen:
            return
        self.seen.add(what)
        self.pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        self.pg.screenshot(path=str(self.shots / f"tactical-journey-{self.name}-{what}.png"))
        banner_whole(self.pg)

    def settle(self) -> None:
        self.pg.wait_for_function("window.deltavTactical.view.camera.settled", timeout=5000)

    def screen_point(self, wx: float, wy: float) -> tuple[float, float] | None:
        """The page point of a world point, when the map shows it there (not under the minimap or a chip)."""
        return self.pg.evaluate("""([wx, wy]) => { const v = window.deltavTactical.view;
            const [sx, sy] = v.camera.toScreen(wx, wy); const b = v.canvas.getBoundingClientRect();
            const x = b.left + sx, y = b.top + sy;
            if (x < b.left + 4 || y < b.top + 4 || x > b.right - 4 || y > b.bottom - 4) return null;
            return document.elementFromPoint(x, y) === v.canvas ? [x, y] : null; }""", [wx, wy])

    # --- the three ways to act ----------------------------------------------------------------------------------------
    def press(self, locator) -> None:
        """A button or link: clicked, tapped, or reached with Tab and pressed with Enter (a "what happened" card
        in the way is read and continued first, as a person would)."""
        card = self.pg.locator(".ack-card")
        if card.count() and card.first.is_visible():
            self.cards.append(card.first.inner_text())
            self.shoot("what-happened")
            self.raw_press(card.first.locator(".ack-continue"))
            self.pg.wait_for_timeout(150)
        self.raw_press(locator)

    def raw_press(self, locator) -> None:
        if not locator.count():
            self.pg.screenshot(path=str(self.shots / f"tactical-journey-{self.name}-FAILED.png"))
            raise AssertionError(f"no {locator} on the page: {self.status()}\n{self.log[-12:]}\n"
                                 f"{self.pg.inner_text('.tac-panel')}")
        if self.mode == "mouse":
            locator.click()
        elif self.mode == "touch":
            locator.tap()
        else:
            self.tab_to(locator)
            self.pg.keyboard.press("Enter")

    def tab_to(self, locator) -> None:
        handle = locator.element_handle()
        for _ in range(120):
            if self.pg.evaluate("(e) => document.activeElement === e", handle):
                return
            self.pg.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {locator}")

    def point(self, xy) -> None:
        if self.mode == "touch":
            self.pg.touchscreen.tap(*xy)
        else:
            self.pg.mouse.click(*xy)

    # --- the shell's dialogs ------------------------------------------------------------------------------------------
    def dialogs(self) -> bool:
        """Answer a dialog in the way of the game; True if one was there. The guide is skipped, or followed
        (``follow_guide``): Next on each step, and the game played on through an interactive one."""
        pg = self.pg
        guide = pg.locator(".guide-card")
        if guide.count() and guide.first.is_visible():
            title = guide.first.locator("h2, h3").first.inner_text() if guide.first.locator("h2, h3").count() else "?"
            if not self.guide_steps or self.guide_steps[-1] != title:
                self.guide_steps.append(title)
                self.shoot(f"guide-{len(self.guide_steps)}")
            if not self.follow_guide:
                self.log.append("guide skipped")
                if self.mode == "keyboard":
                    pg.keyboard.press("Escape")
                else:
                    self.press(guide.first.locator(".guide-skip"))
                pg.wait_for_timeout(150)
                return True
            nxt = guide.first.locator(".guide-next")
            if nxt.count() and nxt.first.is_enabled():
                self.press(nxt.first)
                pg.wait_for_timeout(150)
                return True
            return False  # an interactive step: the player plays on, the guide follows
        for sel, button, key, shot in ((".dialog-briefing", ".briefing-begin", "Enter", "briefing"),
                                       (".ack-card", ".ack-continue", "Enter", "what-happened")):
            box = pg.locator(sel)
            if box.count() and box.first.is_visible():
                self.shoot(shot)
                if shot == "briefing":
                    self.briefing = box.first.inner_text()
                else:
                    self.cards.append(box.first.inner_text())
                if self.mode == "keyboard":
                    pg.keyboard.press(key)
                else:
                    self.raw_press(box.first.locator(button).first)
                pg.wait_for_timeout(150)
                self.log.append(f"answered {shot}")
                return True
        return False

    # --- the game --------------------------------------------------------------------------------------------------
    def play(self, buys=(), race: bool = False, limit_s: float = 400) -> dict:
        """Play until the game is over; returns the final snapshot."""
        self.bought = list(buys)
        t0 = time.time()
        done = None  # the decision acted on: (step, and for astrogation its turn, player and phase)
        while time.time() - t0 < limit_s:
            if self.dialogs():
                continue
            s = self.snap()
            if s["status"] == "over":
                return s
            busy = self.pg.evaluate("window.deltavTactical.screen.sending()")
            v = s["view"]
            # astrogation is one decision of several entries (each ship's order, then the end): it is over when
            # the phase or the turn changed, not at its first accepted order
            same = done is not None and (s["step"] == done[0] or (done[1] == "astrogation" and
                                                                   (v["phase"], v["turn"], v["active_player"]) == done[1:]))
            if not s["to_act"] or same or busy:
                self.pg.wait_for_timeout(80)
                if same and time.time() - self.since > 30:
                    raise AssertionError(f"stuck after {done}: {self.status()}\n{self.log[-12:]}")
                if not s["to_act"]:
                    done = None
                continue
            self.pg.wait_for_timeout(60)  # a card that comes with this decision is answered before it
            if self.dialogs():
                continue
            phase = v["phase"]
            self.shoot(phase)
            self.since = time.time()
            done = (s["step"], phase, v["turn"], v["active_player"])
            try:
                getattr(self, phase)(s, race)
            except AssertionError:
                # a "what happened" card came up with this decision and took the keys: answer it, decide again
                if not self.dialogs():
                    raise
                self.log.append("a card took the input: again")
                done = None
        raise AssertionError(f"the game did not end in {limit_s} s\n{self.log[-20:]}")

    since = 0.0

    # fleet building: buy the list, then Fleet ready
    def fleet_building(self, s, race):
        buys = [e for e in s["legal"] if e["action"]["type"] == "buy"]
        want = next((b for b in buys if self.bought and b["action"]["item"] == self.bought[0]), None)
        if want:
            self.bought.pop(0)
            label = self.pg.locator(".tac-list button", has_text=re.compile(f"^{want['action']['item']}", re.I)).first
            self.log.append(f"buy {want['action']['item']}")
            self.press(label)
            return
        self.log.append("fleet ready")
        if self.mode == "keyboard":
            self.pg.keyboard.press("Enter")
        else:
            self.press(self.pg.locator(".tac-actions button.primary"))

    # astrogation: every ship that may get an order, then Confirm
    def astrogation(self, s, race):
        ships = []
        for e in s["legal"]:
            a = e["action"]
            if a["type"] == "order" and a["ship"] not in ships:
                ships.append(a["ship"])
        planned = set()
        if race:
            for sid in ships:
                if self.plan(sid):
                    planned.add(sid)
        for sid in ships:
            if sid in planned:
                continue
            order = self.choose(s, sid)
            if order is None:
                continue
            self.select(sid)
            self.set_order(sid, order)
        self.confirm()

    def choose(self, s, sid) -> dict | None:
        """The order of ship ``sid`` that ends nearest to where it should go, with no crash and no warned risk."""
        view = s["view"]
        me = s["seat"]
        ship = next(x for x in view["ships"] if x["id"] == sid)
        enemies = [x for x in view["ships"] if x["owner"] != me and not x["destroyed"]]
        if enemies:
            e = min(enemies, key=lambda x: hexdist(x["position"], ship["position"]))
            goal = (e["position"][0] + e["velocity"][0], e["position"][1] + e["velocity"][1])
        else:
            home = view["players"][1 - me]["home"]
            goal = self.body_centre(home)
        best, best_score = None, None
        for entry in s["legal"]:
            a = entry["action"]
            if a["type"] != "order" or a["ship"] != sid or a["weak"] or a["land"]:
                continue
            n = entry.get("note") or {}
            if n.get("outcome") == "crash" or (n.get("off_map") and not n.get("escapes")):
                continue
            if any(w["kind"] != "capture" for w in n.get("warnings", [])):
                continue
            d = hexdist(key_hex(n["destination"]), goal)
            fuel = n.get("fuel_after")
            score = d + (3 if fuel is not None and fuel < 4 else 0) + 0.1 * (n.get("fuel_spent") or 0)
            if best_score is None or score < best_score:
                best, best_score = a, score
        return best

    def body_centre(self, name: str):
        return tuple(self.pg.evaluate(
            "(n) => window.deltavTactical.screen.sceneForTests().board.bodies.find(b => b.name === n).center", name))

    def label_of(self, sid) -> str:
        name = self.pg.evaluate("(id) => window.deltavTactical.screen.name(id)", sid)
        return re.sub(r"^your ", "", name)

    def select(self, sid) -> None:
        if self.scene()["selected"] == sid:
            return
        self.log.append(f"select {sid}")
        if self.mode == "keyboard":
            for _ in range(12):
                self.pg.keyboard.press("Tab")
                if self.scene()["selected"] == sid:
                    return
            raise AssertionError(f"Tab never selected {sid}")
        if self.mode == "mouse":
            self.settle()
            glyph = next((d for d in self.pg.evaluate("window.deltavTactical.screen.drawnForTests()")
                          if d["kind"] == "ship" and d.get("id") == sid), None)
            xy = self.screen_point(glyph["x"], glyph["y"]) if glyph else None
            if xy:
                self.point(xy)
                if self.scene()["selected"] == sid:
                    return
        label = self.label_of(sid)
        btn = self.pg.locator(".tac-shiplist:not(.tac-others) .tac-ship").filter(
            has=self.pg.locator(".tac-ship-name", has_text=re.compile(f"^{re.escape(label)}$", re.I)))
        self.press(btn.first)
        assert self.scene()["selected"] == sid, (sid, label, self.scene()["selected"])

    def arrow_point(self, d: int):
        sc = self.scene()
        a = next((x for x in (sc["arrows"] or {}).get("arrows", []) if x["dir"] == d), None)
        return self.screen_point(*world(a["at"])) if a else None

    def pad(self, d: int):
        return self.pg.locator(".tac-burnpad button", has_text=f"{GLYPH[d]} {d + 1}").first

    def set_order(self, sid, a) -> None:
        burn, over = a["burn"], a["overload"]
        self.log.append(f"{sid}: burn {burn} overload {over}")
        pg = self.pg
        if burn is None:
            if self.mode == "keyboard":
                pg.keyboard.press("0")
            else:
                self.press(pg.locator(".tac-controls button", has_text="Coast"))
        elif self.mode == "keyboard":
            pg.keyboard.press(str(burn + 1))
            if over is not None:
                pg.keyboard.press(f"Shift+Digit{over + 1}")
        else:
            self.settle()
            xy = self.arrow_point(burn) if self.mode == "mouse" else None
            if xy:
                self.point(xy)
            else:
                self.press(self.pad(burn))
            if over is not None:
                self.press(pg.locator(".tac-controls button", has_text="Overload"))
                assert self.scene()["overloadPick"], self.status()
                self.settle()
                xy = self.arrow_point(over) if self.mode == "mouse" else None
                if xy:
                    self.point(xy)
                else:
                    self.press(self.pad(over))
        if over is not None:
            self.overloads += 1
        sc = self.scene()
        assert (sc["chosenDir"], sc["overloadDir"]) == (burn, over), (sid, a, sc["chosenDir"], sc["overloadDir"], self.status())

    def plan(self, sid) -> bool:
        """The assistant's course to the objective, its first burn applied; False when it found none."""
        self.select(sid)
        pg = self.pg
        pg.evaluate("document.querySelectorAll('.tac-plan').forEach(e => e.remove())")
        if self.mode == "keyboard":
            pg.mouse.move(1, 1)  # no hovered hex: P plans to the objective
            pg.keyboard.press("p")
        else:
            self.press(pg.locator(".tac-controls button", has_text="Plan to objective"))
        pg.wait_for_function("(() => { const t = document.querySelector('.match .status').textContent; "
                             "return t.startsWith('Plan:') || t.startsWith('No course') || t.startsWith('The assistant'); })()",
                             timeout=60000)
        if not self.status().startswith("Plan:"):
            return False
        if self.mode == "keyboard":
            pg.keyboard.press("b")
        else:
            self.press(pg.locator(".tac-controls button", has_text="Apply plan"))
        self.log.append(f"{sid}: plan applied")
        return "Plan applied" in self.status()

    def confirm(self) -> None:
        pg = self.pg
        self.log.append("confirm")
        step = self.snap()["step"]
        for _ in range(2):
            if self.mode == "keyboard":
                pg.keyboard.press("Enter")
            else:
                self.press(pg.locator(".tac-actions button.primary"))
            pg.wait_for_timeout(60)
            if "again" not in self.status() or self.snap()["step"] != step:
                break

    # ordnance: a torpedo whose preview hits an enemy ship, else skip
    def ordnance(self, s, race):
        best = None
        for e in s["legal"]:
            a, n = e["action"], e.get("note") or {}
            hit = n.get("first_hit") or {}
            hits = a["type"] == "launch" and a["kind"] == "torpedo" and hit.get("what") == "ships" and not hit.get("own")
            if hits and (best is None or (a["boost"] or 0) < (best["boost"] or 0)):
                best = a
        pg = self.pg
        if best is None:
            self.log.append("skip ordnance")
            if self.mode == "keyboard":
                pg.keyboard.press("Enter")
            else:
                self.press(pg.locator(".tac-actions button.primary"))
            return
        self.log.append(f"torpedo {best}")
        self.select_launcher(best["ship"])
        if self.mode == "keyboard":
            pg.keyboard.press("t")
            for _ in range(best["boost"] or 0):
                pg.keyboard.press(str(best["boost_dir"] + 1))
            pg.keyboard.press("Enter")
        else:
            self.press(pg.locator(".tac-controls button", has_text="T torpedo"))
            for _ in range(best["boost"] or 0):
                self.press(self.pad(best["boost_dir"]))
            self.shoot("launch-preview")
            self.press(pg.locator(".tac-actions button.primary", has_text="Launch"))
        self.launched += 1

    def select_launcher(self, sid):
        # the T key and the T button launch from the selected ship when it can, else the first that can
        if self.scene()["selected"] != sid:
            with contextlib.suppress(AssertionError):
                self.select(sid)

    # combat: the target with the best chance to hit, if any can be hit; else end combat
    def combat(self, s, race):
        end = next((e for e in s["legal"] if e["action"]["type"] == "end_combat"), None)
        attacks = ((end or {}).get("note") or {}).get("attacks", {})
        best = max(((t, a) for t, a in attacks.items() if (a.get("hit_chance") or a.get("destroy_chance") or 0) > 0),
                   key=lambda x: x[1].get("hit_chance") or x[1].get("destroy_chance") or 0, default=None)
        pg = self.pg
        if best is None or race:  # a race: no time for a fight
            self.log.append("end combat")
            if self.mode == "keyboard":
                pg.keyboard.press("Escape")
                pg.keyboard.press("Enter")
            else:
                self.press(pg.locator(".tac-actions button.primary"))
            return
        target = best[0]
        self.log.append(f"attack {target}")
        if self.mode == "keyboard":
            for _ in range(8):
                pg.keyboard.press("]")
                if self.scene()["target"] == target:
                    break
        else:
            self.settle()
            glyph = next((d for d in pg.evaluate("window.deltavTactical.screen.drawnForTests()")
                          if d["kind"] == "ship" and d.get("id") == target), None)
            xy = self.screen_point(glyph["x"], glyph["y"]) if glyph else None
            if xy:
                self.point(xy)
            while self.scene()["target"] != target:
                self.press(pg.locator(".tac-controls button", has_text="Next target"))
        assert self.scene()["target"] == target, (target, self.status())
        self.shoot("attack-preview")
        if self.mode == "keyboard":
            pg.keyboard.press("Enter")
        else:
            self.press(pg.locator(".tac-actions button.primary", has_text="Attack"))
        self.fired += 1
        pg.wait_for_function("document.querySelector('.tac-rolls') && document.querySelector('.tac-rolls').textContent"
                             ".includes('rolled')", timeout=20000)
        self.shoot("attack-result")

    def logistics(self, s, race):
        self.log.append("logistics done")
        if self.mode == "keyboard":
            self.pg.keyboard.press("Enter")
        else:
            self.press(self.pg.locator(".tac-actions button.primary"))
