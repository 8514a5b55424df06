"""One line of English for a mining action or event (CLI logs, replays, the terminal player).

Squares are shown as their number with the 1-based row and column ("10 (r2 c4)"), the station as "the
station". This module owns wording only; it must not touch states.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from deltav.games.mining.scenarios import GRID, STATION
from deltav.games.mining.view import squares_of


def square(s: Any) -> str:
    if s is None:
        return "?"
    if s == STATION:
        return "the station"
    return f"{s} (r{s // GRID + 1} c{s % GRID + 1})"


def _squares(xs) -> str:
    return ", ".join(square(s) for s in xs) if xs else "nothing"


_TEXTS: dict[str, Callable[[Mapping, str], str]] = {
    # actions
    "move": lambda obj, who: f"move a rocket from {square(obj['frm'])} to {square(obj['to'])}"
    + (f", bumping player {obj['bump']}'s rocket" if obj.get("bump") is not None else ""),
    "end-moves": lambda obj, who: "stop moving rockets",
    "prospect": lambda obj, who: "prospect under your rockets",
    "survey": lambda obj, who: f"satellite survey, paying bribe {obj['bribe']}",
    "look": lambda obj, who: f"look at {square(obj['square'])}",
    "end-looks": lambda obj, who: "stop looking",
    "buy-rocket": lambda obj, who: "buy a rocket",
    "discard": lambda obj, who: f"discard incident {obj['incident']}",
    "sabotage": lambda obj, who: f"sabotage player {obj['victim']}'s rocket on {square(obj['square'])}",
    "sabotage-move": lambda obj, who: f"move your rocket from {square(obj['frm'])} into the sabotaged square"
                             + (f", bumping player {obj['bump']}" if obj.get("bump") is not None else ""),
    "reveal-incident": lambda obj, who: f"reveal the incident on {square(obj['square'])}",
    "move-alien": lambda obj, who: f"move the alien to {square(obj['square'])}",
    "steal": lambda obj, who: f"steal {obj['item']}",
    "declare": lambda obj, who: f"attempt contract {obj['contract']}",
    "reveal": lambda obj, who: f"reveal {square(obj['square'])}",
    "replace": lambda obj, who: f"replace the mineral with bribe {obj['bribe']}",
    "bid-up": lambda obj, who: f"{who} bids up with {obj['bribe']} ({obj['mineral']})" if "mineral" in obj
    else f"bid up with {obj['bribe']}",
    "pass": lambda obj, who: "pass",
    # events
    "turn-started": lambda obj, who: f"turn {obj['turn']}: {who} to play",
    "passed": lambda obj, who: {"moving": f"{who} stops moving rockets", "survey": f"{who} ends the survey",
                       "scan": f"{who} ends the scan"}.get(obj["what"], f"{who} passes ({obj['what']})"),
    "rocket-moved": lambda obj, who: f"{who} moves a rocket from {square(obj['frm'])} to {square(obj['dest'])}",
    "rockets-bumped": lambda obj, who: f"{who}'s rocket bumps player(s) {list(obj['victims'])} on {square(obj['square'])}; "
    "both go back to their shipyards",
    "rocket-bought": lambda obj, who: f"{who} buys a rocket",
    "rocket-placed": lambda obj, who: f"{who} places a rocket on {square(obj['square'])}",
    "rocket-removed": lambda obj, who: f"{who} sabotages player {obj['victim']}'s rocket on {square(obj['square'])}",
    "looked": lambda obj, who: f"{who} looks secretly at {_squares(obj['squares'])} ({obj['how']})",
    "tile-seen": lambda obj, who: f"{who} sees {obj['kind']} {obj['value']} ({obj['tile']}) on {square(obj['square'])}",
    "bribe-spent": lambda obj, who: f"{who} spends bribe {obj['bribe']} ({obj['purpose']})",
    "tile-revealed": lambda obj, who: f"{who} reveals {obj['kind']}"
    + (f" {obj['value']}" if obj.get("value") else "") + f" ({obj['tile']}) on {square(obj['square'])}",
    "rockets-to-station": lambda obj, who: f"rockets on {square(obj['square'])} return to the station",
    "incident-taken": lambda obj, who: f"{who} takes incident {obj['kind']} ({obj['tile']})",
    "incident-discarded": lambda obj, who: f"{who} discards {obj['kind']} ({obj['tile']})"
    + (f" against player {obj['target']}" if obj.get("target") is not None else ""),
    "alien-encounter": lambda obj, who: f"{who} uncovers Alien Encounter #{obj['number']} on {square(obj['square'])}",
    "alien-moved": lambda obj, who: f"{who} moves the alien to {square(obj['square'])}",
    "stolen": lambda obj, who: f"player {obj['thief']} steals {obj['item']} from player {obj['victim']}",
    "contract-declared": lambda obj, who: f"{who} attempts contract {obj['contract']}",
    "mineral-replaced": lambda obj, who: f"{who} bribes: the tile on {square(obj['square'])} counts as {obj['mineral']}",
    "attempt-failed": lambda obj, who: f"{who} fails contract {obj['contract']} ({obj['reason']}); "
    f"flipped back: {_squares(obj['flipped_back'])}",
    "contract-fulfilled": lambda obj, who: f"{who} fulfils contract {obj['contract']} with {len(obj['tiles'])} tiles "
    f"for {obj['points']} points",
    "game-ended": lambda obj, who: f"game over: {obj['reason']}; scores {list(obj['scores'])}, "
    f"winners {list(obj['winners'])}",
}


def text(obj: Mapping) -> str | None:
    """The sentence for a value's JSON form, or None when this module has none for its type."""
    fn = _TEXTS.get(obj.get("type"))
    if fn is None:
        return None
    line = fn(obj, f"player {obj.get('player')}")
    if isinstance(obj.get("to"), list | tuple):  # an event's audience (the move action's "to" is a square)
        line = f"(to {list(obj['to'])}) {line}"
    return line


KIND_CODES = {"alphatite": "A", "betamite": "B", "gammatite": "G", "deltamite": "D", "omnidium": "O",
              "alien_encounter": "AL", "mineral_scan": "MS", "sabotage": "SB", "rocket_acquisition": "RA",
              "pirate_attack": "PA", "meteor_storm": "MT"}


def _cell(e: Mapping, alien: Any) -> str:
    status = e["status"]
    if status == "station":
        body = "STN"
    elif status == "empty":
        body = " . "
    elif e["tile"] is None:
        body = "###"
    else:
        code = KIND_CODES.get(e["tile"]["kind"], "?")
        body = f"{code}{e['tile']['value'] or ''}"[:3].ljust(3)
        if status == "face_up":
            body = "AL!"
    marks = "".join(str(q) * min(c, 2) for q, c in enumerate(e["rockets"]) if c)[:3]
    alien_mark = "*" if e["square"] == alien else " "
    return f"{body}{alien_mark}{marks:<3}"


def render(view: Mapping) -> str:
    """A text picture of a view: the 7x7 grid (tile codes the viewer knows, ``###`` unknown, ``*`` the alien,
    digits for rockets by player) and one line per player. Uses only the view."""
    alien = view.get("alien")
    lines = [f"turn {view['turn']}, player {view['current_player']} to play; phase {view['phase']}; "
             f"aliens revealed {view['aliens_revealed']}"]
    lines.append("      " + "".join(f"c{c + 1:<7}" for c in range(GRID)))
    squares = squares_of(view)
    for r in range(GRID):
        row = [_cell(squares[r * GRID + c], alien) for c in range(GRID)]
        lines.append(f"r{r + 1}  " + " ".join(row))
    for p in range(view["players"]):
        bribes = " ".join(
            (b["mineral"][:2] if not b["spent"] else "--") for b in view["bribes"] if b["holder"] == p)
        hand = ", ".join(f"{x['kind']}({x['id']})" for x in view["hands"][p]) or "no incidents"
        won = [c["id"] for c in view["contracts"] if c["owner"] == p]
        lines.append(f"player {p}: {view['scores'][p]} points, contracts {won or '-'}, shipyard "
                     f"{view['shipyards'][p]}, bribes [{bribes}], {hand}")
    open_ = [f"{c['id']}:{'+'.join(KIND_CODES[m] for m in c['minerals'])}" for c in view["contracts"]
             if c["owner"] is None]
    lines.append("open contracts: " + " ".join(open_))
    return "\n".join(lines)
