"""A test player for the mining screen that uses the page only as a person would: it reads the screen's phase
and the squares the field highlights, then clicks a highlighted square, a prompt button or a contract card."""

from __future__ import annotations

# how the test player answers each decision, by the controls a person would use
PASS_PHASES = {"pirate-window", "meteor-window", "bid-up-window", "reveal-choice", "sabotage-move", "alien-steal",
               "replace", "bid-up-replace"}
BOARD_PHASES = {"survey", "scan", "reveal", "bid-up-reveal", "alien-move", "sabotage-target"}


def screen_state(page) -> dict:
    return page.evaluate("""() => { const r = document.querySelector('.mn-root');
        return r ? {phase: r.dataset.phase, toAct: r.dataset.toAct === 'true', step: Number(r.dataset.step),
                    targets: window.deltavMining.targets(), status: r.dataset.status} : null; }""")


def click_square(page, sq: int) -> None:
    x, y = page.evaluate(f"""() => {{ window.deltavMining.canvas.scrollIntoView({{block: "nearest"}});
        const m = window.deltavMining, r = m.canvas.getBoundingClientRect(),
        [x, y] = m.board.centre({sq}); return [r.left + x, r.top + y]; }}""")
    page.mouse.click(x, y)


def click_first(page, selector: str) -> bool:
    el = page.query_selector(selector)
    if el is None:
        return False
    el.click()
    return True


def take_step(page, turn_moves: list[int], harness: bool = False) -> None:
    """One decision of this page's seat, made by clicking like a person."""
    st = screen_state(page)
    phase = st["phase"]
    if click_first(page, ".mn-choose button[data-action]:not([data-action=survey])"):  # an open bump / victim choice
        return
    if phase == "action":
        # alternate: fly a rocket out from the station, or prospect
        if 24 in st["targets"] and len(turn_moves) % 2 == 0:
            click_square(page, 24)
            dests = [s for s in screen_state(page)["targets"] if s != 24]
            turn_moves.append(1)
            click_square(page, dests[len(turn_moves) * 7 % len(dests)])
            return
        turn_moves.append(0)
        if not click_first(page, ".mn-prompt button[data-action=prospect]"):
            click_first(page, ".mn-prompt button[data-action=pass]")
        return
    if phase == "moving":
        click_first(page, ".mn-prompt button[data-action=end-moves]")
        return
    if phase == "attempt":
        if not click_first(page, "button.mn-card[data-action=declare]"):
            click_first(page, ".mn-prompt button[data-action=pass]")
        return
    if phase in BOARD_PHASES and st["targets"]:
        # vary the pick with the step, so games differ
        click_square(page, st["targets"][(st["step"] * 5) % len(st["targets"])])
        return
    if phase in PASS_PHASES or phase in BOARD_PHASES:
        if not click_first(page, ".mn-prompt button[data-action=pass]"):
            click_first(page, ".mn-prompt button[data-action=end-looks]")
        return
    raise AssertionError(f"no control for phase {phase}")


def close_result_dialog(page) -> None:
    """Close the shell's result dialog (as a person would, with its close button) to see the screen."""
    page.wait_for_selector(".dialog-close", timeout=10_000)
    page.click(".dialog-close")
