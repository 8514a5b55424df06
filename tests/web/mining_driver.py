"""A test player for the mining screen that uses the page only as a person would: it reads the screen's phase
and the squares the field highlights, then clicks a highlighted square, a prompt button or a contract card."""

from __future__ import annotations

import re

# engine words a player must never read (issue 27): tile ids, counter ids, 0-based players, an event's audience,
# singular plurals, the generic key=value form, kinds in snake case
ENGINE_WORDS = re.compile(r"\bt\d\d\b|\bb\d-|\bplayer \d|\(to \[|\b1 (tiles|points|rockets)\b|\bsabotage \d|"
                          r"\w=[\[\d\"]|alien_encounter|mineral_scan|rocket_acquisition|pirate_attack|meteor_storm")

# how the test player answers each decision, by the controls a person would use
PASS_PHASES = {"pirate-window", "meteor-window", "bid-up-window", "reveal-choice", "sabotage-move", "alien-steal",
               "replace", "bid-up-replace"}
BOARD_PHASES = {"survey", "scan", "reveal", "bid-up-reveal", "alien-move", "sabotage-target"}


def screen_state(page) -> dict:
    return page.evaluate("""() => { const r = document.querySelector('.mn-root');
        return r ? {phase: r.dataset.phase, toAct: r.dataset.toAct === 'true', step: Number(r.dataset.step),
                    targets: window.deltavMining.targets(), status: r.dataset.status} : null; }""")


def assert_status_current(page) -> None:
    """The shell's status line describes the decision the screen shows now: the prompt's headline (issue 27: it
    kept saying "Rocket on the station selected..." through declaring, revealing and the end of the game)."""
    page.wait_for_function("""() => { const r = document.querySelector('.mn-root');
        return r && Number(r.dataset.step) === window.deltavShell.state().step; }""")
    status, head = page.evaluate("""() => [document.querySelector('.status').textContent,
        document.querySelector('.mn-prompt h2').textContent]""")
    assert status == head, (status, head)


def assert_words_not_ids(page) -> int:
    """The log and the screen's text name players, tiles, minerals and counters in words; the log's length."""
    log = page.eval_on_selector_all(".log-text", "els => els.map(e => e.textContent)")
    for line in log + [page.inner_text(".mn-root")]:
        assert not ENGINE_WORDS.search(line), line
    return len(log)


# the middle of a square in the viewport, scrolled into view first as a person would (the field may be taller than
# the part of the page it has: a phone, the replay page's screen above its log); null when something covers it
SQUARE_AT = """(sq) => {
    const m = window.deltavMining, c = m.canvas;
    const at = () => { const r = c.getBoundingClientRect(), [x, y] = m.board.centre(sq); return [r.left + x, r.top + y]; };
    const shown = ([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === c;
    let p = at();
    for (let el = c.parentElement; el && !shown(p); el = el.parentElement) {
        const st = getComputedStyle(el).overflowY;
        if (el.scrollHeight <= el.clientHeight || st === 'visible' || st === 'hidden') continue;
        const box = el.getBoundingClientRect();
        el.scrollTop += p[1] - box.top - Math.min(box.height, innerHeight) / 3;
        p = at();
    }
    if (!shown(p)) { scrollBy(0, p[1] - innerHeight / 3); p = at(); }
    return shown(p) ? p : null;
}"""


def square_point(page, sq: int) -> tuple[float, float]:
    got = page.evaluate(SQUARE_AT, sq)
    assert got is not None, f"square {sq} cannot be brought into view"
    return got[0], got[1]


def click_square(page, sq: int, touch: bool = False) -> None:
    """Click (or, with ``touch``, tap) the middle of a square of the field."""
    x, y = square_point(page, sq)
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def confirm_choice(page, touch: bool = False) -> None:
    """A board click that needs a choice (whose rocket to bump or sabotage) opens it in the prompt: take the first."""
    click_first(page, ".mn-choose button[data-action=move], .mn-choose button[data-action=sabotage], "
                      ".mn-choose button[data-action=sabotage-move]", touch)


def click_first(page, selector: str, touch: bool = False) -> bool:
    el = page.query_selector(selector)
    if el is None:
        return False
    if touch:
        el.tap()
    else:
        el.click()
    return True


def acknowledge(page, touch: bool = False, keys: bool = False) -> list[str] | None:
    """The shell's "what happened" card (the screen shows what changed your position while you waited, before
    your next decision): its lines, after pressing Continue (Enter, a tap or a click); None when there is none."""
    btn = page.query_selector(".ack-continue")
    if btn is None:
        return None
    lines = page.eval_on_selector_all(".ack-lines li", "els => els.map(e => e.textContent)")
    if keys:
        page.keyboard.press("Enter")
    elif touch:
        btn.tap()
    else:
        btn.click()
    page.wait_for_selector(".ack-layer", state="detached")
    return lines


def take_step(page, turn_moves: list[int], touch: bool = False) -> None:
    """One decision of this page's seat, made by clicking like a person (tapping, with ``touch``); a "what
    happened" card that came up meanwhile is read and continued first, as a person does."""
    acknowledge(page, touch)
    st = screen_state(page)
    phase = st["phase"]
    if click_first(page, ".mn-choose button[data-action]:not([data-action=survey])", touch):  # a bump / victim choice
        return
    if phase == "action":
        # alternate: fly a rocket out from the station, or prospect
        if 24 in st["targets"] and len(turn_moves) % 2 == 0:
            click_square(page, 24, touch)
            dests = [s for s in screen_state(page)["targets"] if s != 24]
            turn_moves.append(1)
            click_square(page, dests[len(turn_moves) * 7 % len(dests)], touch)
            confirm_choice(page, touch)
            return
        turn_moves.append(0)
        if not click_first(page, ".mn-prompt button[data-action=prospect]", touch):
            click_first(page, ".mn-prompt button[data-action=pass]", touch)
        return
    if phase == "moving":
        click_first(page, ".mn-prompt button[data-action=end-moves]", touch)
        return
    if phase == "attempt":
        if not click_first(page, "button.mn-card[data-action=declare]", touch):
            click_first(page, ".mn-prompt button[data-action=pass]", touch)
        return
    if phase in BOARD_PHASES and st["targets"]:
        # vary the pick with the step, so games differ
        click_square(page, st["targets"][(st["step"] * 5) % len(st["targets"])], touch)
        confirm_choice(page, touch)
        return
    if phase in PASS_PHASES or phase in BOARD_PHASES:
        if not click_first(page, ".mn-prompt button[data-action=pass]", touch):
            click_first(page, ".mn-prompt button[data-action=end-looks]", touch)
        return
    raise AssertionError(f"no control for phase {phase}")


def close_result_dialog(page, touch: bool = False) -> None:
    """Close the shell's result dialog (as a person would, with its close button) to see the screen."""
    page.wait_for_selector(".dialog-close", timeout=10_000)
    if touch:
        page.tap(".dialog-close")
    else:
        page.click(".dialog-close")


def key_to(page, goal: int) -> None:
    """Walk the field's keyboard cursor to ``goal`` with the arrow keys."""
    cur = page.evaluate("window.deltavMining.cursorSquare()")
    dr, dc = goal // 7 - cur // 7, goal % 7 - cur % 7
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    assert page.evaluate("window.deltavMining.cursorSquare()") == goal


def key_step(page) -> None:
    """One decision made with the keyboard only: arrows walk the field's cursor to a highlighted square and Enter
    acts there; P prospects; the number keys press the prompt's numbered buttons and the contract cards."""
    st = screen_state(page)
    phase = st["phase"]
    if phase == "action":
        # alternate, as the mouse player does: fly a rocket out from the station (Enter on it, then on a
        # highlighted square), or prospect (P)
        if 24 in st["targets"] and st["step"] % 2 == 0:
            key_to(page, 24)
            page.keyboard.press("Enter")
            dests = [s for s in screen_state(page)["targets"] if s != 24]
            key_to(page, dests[st["step"] * 7 % len(dests)])
            page.keyboard.press("Enter")
            if page.query_selector(".mn-choose button[data-hotkey='1']"):
                page.keyboard.press("1")  # whose rocket to bump: the first
            return
        if page.query_selector(".mn-prompt button[data-action=prospect]"):
            page.keyboard.press("p")
            return
        # pirated: no action this turn, only the prompt's pass (its number key)
    if phase == "moving":
        page.keyboard.press("e")
        return
    if phase in BOARD_PHASES and st["targets"]:
        key_to(page, st["targets"][(st["step"] * 3) % len(st["targets"])])
        page.keyboard.press("Enter")
        if page.query_selector(".mn-choose button[data-hotkey='1']"):
            page.keyboard.press("1")  # whose rocket: the first
        return
    keys = page.eval_on_selector_all("[data-hotkey]", "els => els.map(e => [e.dataset.hotkey, e.dataset.action])")
    if phase == "attempt":
        declare = [k for k, a in keys if a == "declare"]
        page.keyboard.press(declare[0] if declare else keys[-1][0])
        return
    passes = [k for k, a in keys if a in ("pass", "end-looks")]
    page.keyboard.press(passes[-1] if passes else keys[-1][0])


def read_square(page, sq: int, how: str = "mouse") -> str:
    """Point at a square of the field (``how``: "mouse" hovers, "touch" taps, "keys" walks the cursor there); the
    readout under the field then."""
    if how == "keys":
        key_to(page, sq)
        return page.inner_text(".mn-readout")
    x, y = square_point(page, sq)
    if how == "touch":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.move(x, y)
    return page.inner_text(".mn-readout")


def tile_words(tile: dict) -> str:
    """A tile as the page names it ("Alphatite 3", "Mineral Scan")."""
    kind = tile["kind"].replace("_", " ").title()
    return f"{kind} {tile['value']}" if tile["kind"] in ("alphatite", "betamite", "gammatite", "deltamite", "omnidium") \
        else kind


def check_result_summary(page, names: list[str], winners: list[int] | None = None) -> None:
    """The result dialog shows the engine's match summary: the rulebook's scoring with its tie-breaks (a row per
    seat, by name), the statistics of each seat, and how the game ended."""
    page.wait_for_selector(".result-scores", timeout=15_000)
    cols = page.eval_on_selector_all(".result-scores th", "els => els.map(e => e.textContent)")
    for col in ("Points", "Contracts", "Unspent"):
        assert col in cols, (col, cols)
    assert "− 2 per bribe counter spent" in page.inner_text(".result-scores caption")
    rows = page.eval_on_selector_all(".result-scores tr th[scope=row]", "els => els.map(e => e.textContent)")
    assert sorted(rows) == sorted(names), (rows, names)
    assert len(set(names)) == len(names), names  # two easy bots are "Easy bot 1" and "Easy bot 2", never twins
    if winners is not None:  # the winners' rows are marked, and no other (a bot sharing the winner's name was)
        marked = page.eval_on_selector_all(".result-scores tr.winner th[scope=row]", "els => els.map(e => e.textContent)")
        assert sorted(marked) == sorted(names[w] for w in winners), (marked, winners, names)
    page.locator(".result-more summary").click()  # the match in numbers: folded until asked for
    stats = page.inner_text(".result-stats")
    for label in ("Contracts fulfilled", "Tiles collected", "Bribe counters spent", "Tiles revealed",
                  "Bribes: satellite surveys", "Rockets lost to bumps"):
        assert label in stats, label
    assert "The game ended:" in page.inner_text(".result-notes")


def replay_go(page, where: str, how: str) -> None:
    """The replay to its start or end: Home / End, or a click or tap on its buttons."""
    if how == "keys":
        page.keyboard.press("Home" if where == "start" else "End")
        return
    btn = page.locator(f".replay-bar button[aria-label='{'To the start' if where == 'start' else 'To the end'}']")
    if how == "touch":
        btn.tap()
    else:
        btn.click()


def open_replay_from_result(page, how: str) -> None:
    """The result dialog's Replay link, by a click, a tap, or Tab to it and Enter."""
    link = page.locator(".result-actions a", has_text="Replay")
    if how == "keys":
        for _ in range(12):
            if page.evaluate("document.activeElement?.textContent") == "Replay":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement?.textContent") == "Replay"
        page.keyboard.press("Enter")
    elif how == "touch":
        link.tap()
    else:
        link.click()
    page.wait_for_url("**/replay/**")


def check_full_view_replay(page, server, code: str, screenshots, name: str, how: str = "mouse") -> None:
    """The replay of a finished match (the page the result dialog links to) shows the full view: at the start and
    at the end, every face-down tile's face, said in the readout of its square (pointed at, tapped or reached by
    the keyboard's cursor, by ``how``)."""
    page.wait_for_selector(".mn-root[data-phase]", timeout=15_000)
    state = page.evaluate("window.deltavReplay.state()")
    assert state["view"] == "full", state
    for label, index in (("end", state["positions"] - 1), ("start", 0)):
        replay_go(page, label, how)
        page.wait_for_function(f"window.deltavReplay.state().index === {index}")
        step = page.evaluate("window.deltavReplay.state().step")
        page.wait_for_function(f"document.querySelector('.mn-root').dataset.step === '{step}'")
        status, got = server.http("GET", f"/rooms/{code}/replay?match=1&step={step}&view=full")
        assert status == 200, got
        view = got["snapshot"]["view"]
        down = [s for s in range(49) if view["status"][s] == "face_down"]
        assert down and all(view["tiles"][s] is not None for s in down), label
        for s in down[:: max(1, len(down) // 5)]:
            text = read_square(page, s, how)
            assert tile_words(view["tiles"][s]) in text, (label, s, text)
            assert s in view["public"] or "every tile is shown" in text, (label, s, text)
        page.screenshot(path=str(screenshots / f"{name}-{label}.png"))


def check_seat_view_replay(page, server, code: str, seat: int, screenshots, name: str) -> None:
    """The replay's View choice set to one seat: the field shows what that seat knew at the end (the tiles it saw,
    the others face down)."""
    page.select_option("#replay-view", str(seat))
    page.wait_for_function(f"window.deltavReplay.state().view === '{seat}'")
    replay_go(page, "end", "mouse")
    state = page.evaluate("window.deltavReplay.state()")
    page.wait_for_function(f"window.deltavReplay.state().index === {state['positions'] - 1}")
    step = page.evaluate("window.deltavReplay.state().step")
    page.wait_for_function(f"document.querySelector('.mn-root').dataset.step === '{step}'")
    status, got = server.http("GET", f"/rooms/{code}/replay?match=1&step={step}&view={seat}")
    assert status == 200, got
    view = got["snapshot"]["view"]
    down = [s for s in range(49) if view["status"][s] == "face_down"]
    seen = [s for s in down if view["tiles"][s] is not None and s not in view["public"]]
    unseen = [s for s in down if view["tiles"][s] is None]
    assert unseen, "a seat never knows every tile"
    for s in seen[:3]:
        text = read_square(page, s)
        assert "you saw" in text and tile_words(view["tiles"][s]) in text, (s, text)
    for s in unseen[:3]:
        text = read_square(page, s)
        assert "face-down tile" in text and "every tile is shown" not in text, (s, text)
    page.screenshot(path=str(screenshots / f"{name}.png"))
