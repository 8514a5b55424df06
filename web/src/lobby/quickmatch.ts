/**
 * Quick match in the lobby: the dialog behind each game card's "Quick match" button. The player picks the
 * scenario (and, for a game with a player count, how many), joins the server's queue (`POST /queue`), and waits
 * in plain sight: the time waited, how many wait for the same match, Cancel. After the server's wait it offers a
 * bot now (the player picks the level; for 3+ seats, also bots in the empty seats if everyone waiting agrees),
 * and once the server has made the room it goes straight to `/play/CODE` with the seat's token kept as any seat's.
 * The entry's ticket is kept in sessionStorage, so a reload of the lobby waits on with the same place.
 *
 * Owns this dialog and its polling; the queue, the pairing and the rooms are the server's (server/matchmaking.py).
 */
import {
  agreeQueueBots, ApiError, botName, joinQueue, leaveQueue, LEVEL_BOTS, pollQueue, scenarioTitle,
  type GameInfo, type QueueState, type QueueWaiting,
} from "../shell/api";
import { button, el, trapFocus } from "../shell/dom";
import { playerName, saveSeatKey } from "../shell/storage";
import { scenarioPicker, startRoom } from "./start";

type Say = (t: string, kind?: "info" | "error") => void;

const KEPT = "deltav.quick";
let open: { close: () => void } | null = null;

function keep(v: { ticket: string; game: string } | null): void {
  try {
    if (v) sessionStorage.setItem(KEPT, JSON.stringify(v));
    else sessionStorage.removeItem(KEPT);
  } catch {
    /* no storage: a reload forgets the place (the server drops it after 30 s unpolled) */
  }
}

function kept(): { ticket: string; game: string } | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEPT) ?? "null") as { ticket?: unknown; game?: unknown } | null;
    return v && typeof v.ticket === "string" && typeof v.game === "string" ? { ticket: v.ticket, game: v.game } : null;
  } catch {
    return null;
  }
}

function gameTitle(g: GameInfo): string {
  return g.title.replace(/\s*\(.*\)\s*$/, "");
}

/** "0:07", "2:30" */
export function clockWords(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The lobby calls this once its catalogue is in: a place kept from before a reload is waited on again. */
export function resumeQuickMatch(catalogue: GameInfo[], say: Say): void {
  const k = kept();
  const g = k && catalogue.find((x) => x.id === k.game);
  if (k && g) openQuickMatch(g, say, k.ticket);
}

export function openQuickMatch(g: GameInfo, say: Say, resume?: string): void {
  open?.close();
  const back = el("div", "overlay quick-overlay");
  const frame = el("div", "dialog dialog-quick");
  frame.setAttribute("role", "dialog");
  frame.setAttribute("aria-modal", "true");
  frame.setAttribute("aria-labelledby", "quick-title");
  frame.dataset.game = g.id;
  const h = el("h2", "", `Quick match: ${gameTitle(g)}`);
  h.id = "quick-title";
  const body = el("div", "quick-body");
  const returnTo = document.activeElement as HTMLElement | null;
  let ticket: string | null = null;
  let timer: number | undefined;
  let ticker: number | undefined;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    window.clearTimeout(timer);
    window.clearInterval(ticker);
    if (ticket) {
      void leaveQueue(ticket).catch(() => undefined); // already matched or gone: nothing to undo here
      keep(null);
      say("You left the quick-match queue.");
    }
    back.remove();
    open = null;
    returnTo?.focus();
  };
  const x = button("×", close, "dialog-close", "Close (Esc): leaves the queue");
  x.setAttribute("aria-label", "Close");
  frame.append(h, x, body);
  back.append(frame);
  document.body.append(back);
  open = { close };
  back.addEventListener("keydown", (e) => {
    if (trapFocus(frame, e)) return;
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  });

  // --- the choice: scenario (and players) ---------------------------------------------------------------------
  const choose = (): void => {
    const form = el("form", "quick-form");
    const scenSel = scenarioPicker(g, "quick-scenario");
    const scenLabel = el("label", "", "Scenario");
    scenLabel.htmlFor = scenSel.id;
    const summary = el("p", "scen-summary dim");
    const scenRow = el("div", "opt-row");
    scenRow.append(scenLabel, scenSel, summary);
    const playersOpt = g.options.find((o) => o.name === "players");
    const playersSel = el("select");
    playersSel.id = "quick-players";
    const playersRow = el("div", "opt-row");
    const render = (): void => {
      const sc = g.scenarios.find((s) => s.id === scenSel.value);
      summary.textContent = sc?.summary ?? "";
      if (!playersOpt) {
        const n = sc?.players[0] ?? g.players[0];
        playersRow.replaceChildren(el("span", "opt-label", "Players"), el("span", "", `${n}: you and ${n - 1 === 1 ? "one other person" : `${n - 1} other people`}`));
        return;
      }
      const lo = playersOpt.minimum ?? g.players[0];
      const hi = playersOpt.maximum ?? g.players[1];
      const was = Number(playersSel.value) || Number(playersOpt.default);
      playersSel.replaceChildren();
      for (let n = lo; n <= hi; n++) {
        const o = el("option", "", `${n} players`);
        o.value = String(n);
        o.selected = n === was;
        playersSel.append(o);
      }
      const lab = el("label", "", "Players");
      lab.htmlFor = playersSel.id;
      playersRow.replaceChildren(lab, playersSel);
    };
    scenSel.addEventListener("change", render);
    render();
    const go = el("button", "btn primary quick-go", "Find a match");
    go.type = "submit";
    const actions = el("div", "dialog-actions");
    actions.append(go, button("Cancel", close, "btn"));
    const err = el("p", "setup-error");
    err.setAttribute("role", "alert");
    const name = playerName();
    form.append(
      el("p", "dim", `You play whoever else pressed Quick match for the same scenario; the seats are dealt at random. ${name ? `They see you as ${name}; the match is rated.` : "Give a name in the lobby to have the match rated."}`),
      scenRow, playersRow, err, actions);
    body.replaceChildren(form);
    scenSel.focus();
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      go.disabled = true;
      err.textContent = "";
      const req: { game: string; scenario: string; players?: number; name?: string } = { game: g.id, scenario: scenSel.value };
      if (playersOpt) req.players = Number(playersSel.value);
      if (name) req.name = name;
      joinQueue(req).then((got) => {
        ticket = got.ticket;
        keep({ ticket: got.ticket, game: g.id });
        show(got);
      }, (ex: unknown) => {
        go.disabled = false;
        err.textContent = ex instanceof ApiError ? ex.message : String(ex);
      });
    });
  };

  // --- waiting ------------------------------------------------------------------------------------------------
  let view: { root: HTMLElement; line: HTMLElement; waited: HTMLElement; offer: HTMLElement; note: HTMLElement } | null = null;
  let waitedAt = 0; // the server's seconds waited, at polledAt
  let polledAt = 0;
  let offered = false;
  const waitingView = (w: QueueWaiting) => {
    const root = el("div", "quick-waiting");
    const scen = scenarioTitle(g, w.options.scenario);
    const line = el("p", "quick-line");
    line.setAttribute("role", "status");
    line.setAttribute("aria-live", "polite");
    const waited = el("p", "quick-waited");
    const spin = el("div", "spinner");
    spin.setAttribute("aria-hidden", "true");
    const note = el("p", "quick-note dim");
    note.setAttribute("aria-live", "polite");
    const offer = el("section", "quick-offer");
    offer.hidden = true;
    offer.setAttribute("aria-labelledby", "quick-offer-title");
    const cancel = button("Cancel", close, "btn quick-cancel");
    const actions = el("div", "dialog-actions");
    actions.append(cancel);
    root.append(el("p", "quick-what", `${scen}${w.seats > 2 ? ` · ${w.seats} players` : ""}`), line, waited, spin, note, offer, actions);
    body.replaceChildren(root);
    cancel.focus();
    return { root, line, waited, offer, note };
  };
  const fillOffer = (w: QueueWaiting): void => {
    if (!view || !w.bot_offer || offered) return;
    offered = true;
    const o = view.offer;
    const t = el("h3", "", "Play a bot now?");
    t.id = "quick-offer-title";
    const levels = w.bot_offer.bots.filter((b) => LEVEL_BOTS.includes(b));
    const choices = levels.length ? levels : w.bot_offer.bots;
    const sel = el("select");
    sel.id = "quick-bot";
    for (const b of choices) {
      const op = el("option", "", botName(b));
      op.value = b;
      op.selected = b === "bot:normal";
      sel.append(op);
    }
    const lab = el("label", "", "Bot level");
    lab.htmlFor = sel.id;
    const row = el("div", "opt-row");
    row.append(lab, sel);
    const now = button(w.seats > 2 ? "Play the bots now" : "Play the bot now", () => {
      now.disabled = true;
      const n = w.seats;
      const req = { game: g.id, options: { ...w.options }, seats: ["human", ...Array<string>(n - 1).fill(sel.value)] };
      const leaving = ticket;
      ticket = null;
      keep(null);
      void (leaving ? leaveQueue(leaving).catch(() => undefined) : Promise.resolve()).then(() =>
        startRoom(req, (t) => {
          now.disabled = false;
          if (view) view.note.textContent = t;
        }));
    }, "btn primary quick-bot-now");
    const words = w.seats > 2
      ? `Nobody has filled the seats yet. Play ${w.seats - 1} bots now, or start with the people waiting and bots in the empty seats (when every one of them agrees). You stay in the queue until you choose.`
      : "Nobody has come yet. Play a bot now, or keep waiting: you stay in the queue until you choose.";
    const btns = el("div", "dialog-actions");
    btns.append(now);
    if (w.bot_offer.fill) {
      const fill = button("Start with bots in the empty seats", () => {
        if (!ticket) return;
        fill.disabled = true;
        agreeQueueBots(ticket, sel.value).then(seen, (ex: unknown) => {
          fill.disabled = false;
          if (view) view.note.textContent = ex instanceof ApiError ? ex.message : String(ex);
        });
      }, "btn quick-fill");
      btns.append(fill);
    }
    o.append(t, el("p", "", words), row, btns);
    o.hidden = false;
  };
  const tick = (): void => {
    if (view) view.waited.textContent = `Waited ${clockWords(waitedAt + (performance.now() - polledAt) / 1000)}`;
  };
  const seen = (got: QueueState): void => {
    if (closed) return;
    if (got.status === "matched") {
      window.clearTimeout(timer);
      window.clearInterval(ticker);
      ticket = null; // nothing to leave any more
      keep(null);
      saveSeatKey(got.code, { token: got.token, seat: got.seat, game: got.game });
      if (view) {
        view.line.textContent = `Match found: room ${got.code}. Going there…`;
        view.root.dataset.state = "matched";
      }
      say(`Match found: room ${got.code}.`);
      location.assign(`/play/${got.code}`);
      return;
    }
    view ??= waitingView(got);
    view.root.dataset.state = "waiting";
    waitedAt = got.waited;
    polledAt = performance.now();
    const others = got.waiting - 1;
    const need = got.seats - 1;
    view.line.textContent = others > 0 && got.seats > 2
      ? `Looking for players: ${others} of the ${need} others you need ${others === 1 ? "is" : "are"} here.`
      : `Looking for ${need === 1 ? "an opponent" : `${need} other players`}…`;
    if (got.bots_agreed) view.note.textContent = `You agreed to ${botName(got.bots_agreed).toLowerCase()}s in the empty seats: the match starts when everyone waiting agrees.`;
    tick();
    fillOffer(got);
    window.clearTimeout(timer);
    timer = window.setTimeout(poll, Math.max(0.5, got.poll_seconds) * 1000);
  };
  const lost = (message: string): void => {
    window.clearTimeout(timer);
    window.clearInterval(ticker);
    ticket = null;
    keep(null);
    view = null;
    const root = el("div", "quick-lost");
    const again = button("Join again", () => choose(), "btn primary");
    const actions = el("div", "dialog-actions");
    actions.append(again, button("Close", close, "btn"));
    const p = el("p", "error-text", `Your place in the queue was lost: ${message}`);
    p.setAttribute("role", "alert");
    root.append(p, actions);
    body.replaceChildren(root);
    again.focus();
  };
  const poll = (): void => {
    if (!ticket || closed) return;
    pollQueue(ticket).then((got) => {
      if (view) view.note.dataset.offline = "";
      seen(got);
    }, (ex: unknown) => {
      if (closed) return;
      if (ex instanceof ApiError && ex.code === "unknown_ticket") return lost(ex.message);
      // the server is away (restarting) or busy: keep the place, try again
      if (view) view.note.textContent = "The server is not answering; still trying (your place is kept for 30 s)…";
      timer = window.setTimeout(poll, 2000);
    });
  };
  const show = (got: QueueState): void => {
    window.clearInterval(ticker);
    ticker = window.setInterval(tick, 1000);
    seen(got);
  };

  if (resume) {
    ticket = resume;
    body.replaceChildren(el("p", "dim", "Back in the queue…"));
    pollQueue(resume).then(show, (ex: unknown) => {
      if (ex instanceof ApiError && ex.code === "unknown_ticket") lost(ex.message);
      else {
        ticker = window.setInterval(tick, 1000);
        timer = window.setTimeout(poll, 2000);
      }
    });
  } else choose();
}
