/**
 * The match page (`/play/CODE` for a seat, `/watch/CODE` for a spectator): the shell around one game screen.
 * It finds the seat's token (the URL's `#token=`, localStorage under the room code, or a fresh join of a free
 * seat), connects, mounts `SCREENS[game]` (or the generic screen) with a `ScreenHost`, and draws the chrome:
 * the header (game, scenario, room code, invite link, Claim the win, Resign, Result), the seats (by the match's
 * names: connected / away with the grace countdown / gone, who is still deciding), the turn timer's countdown
 * (when the room has a clock), the phase banner, the log (L), chat, the status line (aria-live), sound (M), the
 * help overlay (?), the scenario briefing and the first-game guide (guide.ts), the resign dialog, the result
 * dialog (its words: result.ts) and the reconnect overlay. Every key and click goes through the InputGate
 * (decision.ts), which ties it to the decision on screen.
 *
 * Owns the page around a screen; it never looks inside a game's view and never builds an action.
 */
import { ApiError, board as fetchBoard, briefing as fetchBriefing, games, joinRoom, scenarioTitle, seatNames, type Briefing, type GameInfo, type SeatGrant } from "./api";
import { Connection, FINAL_CLOSES, socketUrl, type ChatMessage, type RoomInfo, type ServerError, type StateMessage } from "./connection";
import { InputGate } from "./decision";
import { button, el, inTextField, trapFocus } from "./dom";
import { GenericScreen } from "./generic";
import { Guide } from "./guide";
import { names, summaryParts, verdict, type Ending } from "./result";
import type { GameScreen, LogEntry, ScreenHost, Snapshot } from "./screen";
import { Sounds, type SoundName } from "./sound";
import { briefed, forgetSeatKey, guideOffered, introsOn, playerName, rememberMatch, saveSeatKey, seatKey, setBriefed, setGuideOffered } from "./storage";
import { SCREENS } from "../games";
import { SEAT_COLOURS } from "./palette";

export interface MatchRoute {
  mode: "play" | "watch";
  code: string;
}

interface ShellState {
  conn: Connection | null;
  snapshot: Snapshot | null;
  room: RoomInfo | null;
  seat: number | null;
  match: number;
  log: LogEntry[];
  screen: GameScreen | null;
  game: GameInfo | undefined;
}

declare global {
  interface Window {
    /** A handle for debugging and the browser tests (the shell's state; never a secret the page lacks). */
    deltavShell?: {
      state: () => { step: number; status: string; seat: number | null; link: string; log: number; screen: string; match: number; toAct: boolean;
        acknowledging: boolean; guide: number; dialog: string };
      sounds: Sounds;
      connection: () => Connection | null;
    };
  }
}

function gameTitle(info: GameInfo | undefined, id: string): string {
  return info ? info.title.replace(/\s*\(.*\)\s*$/, "") : id;
}

function sentenceOf(s: string): string {
  const t = s.trim();
  return t ? `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}` : "";
}

/** Parse `#token=...&seat=N` (an invite or a test hands a seat over in the fragment, never sent to a server). */
function tokenFromHash(): { token: string; seat: number } | null {
  if (!location.hash.startsWith("#")) return null;
  const q = new URLSearchParams(location.hash.slice(1));
  const token = q.get("token");
  const seat = Number(q.get("seat"));
  if (!token || !Number.isInteger(seat)) return null;
  history.replaceState(null, "", location.pathname + location.search);
  return { token, seat };
}

export async function startMatch(root: HTMLElement, route: MatchRoute): Promise<void> {
  const code = route.code.toUpperCase();
  const st: ShellState = { conn: null, snapshot: null, room: null, seat: null, match: 0, log: [], screen: null, game: undefined };
  const sounds = new Sounds();
  let boardPromise: Promise<unknown | null> | null = null;
  let mounting: Promise<void> | null = null;
  let pending: { msg: StateMessage; events: LogEntry[] } | null = null;
  let resultShownFor = -1;
  let lastPhase = "";
  let wasToAct = false;

  // ---- the page's frame ----
  root.replaceChildren();
  root.className = "match";
  const head = el("header", "match-head");
  const brand = el("a", "brand", "deltav");
  brand.href = "/";
  brand.title = "Back to the lobby";
  const titleBox = el("div", "match-title");
  const h1 = el("h1", "", "…");
  const scen = el("span", "match-scenario");
  titleBox.append(h1, scen);
  const codeBox = el("div", "room-code");
  const codeText = el("code", "", code);
  codeText.setAttribute("aria-label", `room code ${code.split("").join(" ")}`);
  const invite = button("", () => void copyInvite(), "btn small", "Copy a link another person opens to join this room");
  invite.append(el("span", "long", "Copy invite link"), el("span", "short", "Invite"));
  invite.setAttribute("aria-label", "Copy invite link");
  codeBox.append(el("span", "dim", "Room "), codeText, invite);
  const tools = el("div", "tools");
  const logBtn = button("Log", () => toggleLog(), "btn small", "Show or hide the game log (L)");
  logBtn.setAttribute("aria-keyshortcuts", "L");
  const muteBtn = button("", () => toggleMute(), "btn small", "Sound on or off (M)");
  muteBtn.setAttribute("aria-keyshortcuts", "M");
  const helpBtn = button("?", () => openHelp(), "btn small", "Help and controls (?)");
  helpBtn.setAttribute("aria-label", "Help and controls");
  helpBtn.setAttribute("aria-keyshortcuts", "Shift+?");
  // leaving the match (its own confirmation dialog), claiming a win over a player who did not come back, and the
  // result dialog again once it was closed to look at the board
  const resignBtn = button("Resign", () => confirmResign(), "btn small resign", "Give up this match: the others win");
  resignBtn.hidden = true;
  const claimBtn = button("Claim the win", () => claimWin(), "btn small primary claim",
    "Your opponent's time to come back ran out: end the match as your win");
  claimBtn.hidden = true;
  const resultBtn = button("Result", () => showResult(false), "btn small result-again", "The result of the match again");
  resultBtn.hidden = true;
  // the hard bot's move for this decision, in a match against a bot (the server refuses advice between people)
  const hintBtn = button("Hint", () => void askHint(), "btn small hint", "What the hard bot would do now (games against a bot)");
  hintBtn.hidden = true;
  tools.append(hintBtn, claimBtn, resignBtn, resultBtn, logBtn, muteBtn, helpBtn);
  // the turn timer (room.clock): a countdown for the seats it runs for, urgent in the last 10 s
  const clockBox = el("div", "turn-clock");
  clockBox.hidden = true;
  clockBox.setAttribute("role", "timer");
  clockBox.setAttribute("aria-live", "off");
  const clockWho = el("span", "clock-who");
  const clockLeft = el("span", "clock-left");
  clockBox.append(clockWho, clockLeft);
  head.append(brand, titleBox, clockBox, codeBox, tools);

  const seatsBar = el("ul", "seats");
  seatsBar.setAttribute("aria-label", "Players");
  const banner = el("div", "phase-banner");
  banner.setAttribute("aria-live", "polite");
  const waiting = el("div", "waiting");
  const body = el("div", "match-body");
  const screenRoot = el("main", "screen-root");
  screenRoot.id = "screen";
  const side = el("aside", "side");
  side.setAttribute("aria-label", "Game log and chat");
  const logBox = el("section", "log");
  logBox.append(el("h2", "", "Log"));
  const logList = el("ol", "log-list");
  logList.setAttribute("aria-label", "Game log, newest last");
  logList.tabIndex = 0; // a scrolling region a keyboard can reach (its arrows then scroll it)
  logBox.append(logList);
  const chatBox = el("section", "chat");
  chatBox.append(el("h2", "", "Chat"));
  const chatList = el("ol", "chat-list");
  chatList.setAttribute("aria-live", "polite");
  chatList.setAttribute("aria-label", "Chat messages");
  chatList.tabIndex = 0;
  const chatForm = el("form", "chat-form");
  const chatInput = el("input");
  chatInput.type = "text";
  chatInput.maxLength = 300;
  chatInput.placeholder = "Say something…";
  chatInput.setAttribute("aria-label", "Chat message");
  chatInput.autocomplete = "off";
  const chatSend = el("button", "btn small", "Send");
  chatSend.type = "submit";
  chatForm.append(chatInput, chatSend);
  chatBox.append(chatList, chatForm);
  side.append(logBox, chatBox);
  body.append(screenRoot, side);
  const status = el("div", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  // the events of each update, read out by screen readers (the log panel itself is not live: too chatty)
  const narrator = el("div", "sr-only");
  narrator.setAttribute("aria-live", "polite");
  narrator.id = "narrator";
  // the turn timer's one warning per deadline (the countdown itself is not read out every second)
  const clockAlert = el("div", "sr-only clock-alert");
  clockAlert.setAttribute("aria-live", "assertive");
  const overlay = el("div", "overlay");
  overlay.hidden = true;
  const turnBox = el("section", "turn-box");
  turnBox.setAttribute("aria-label", "Players and turn");
  turnBox.append(seatsBar, banner, waiting);
  root.append(head, turnBox, body, status, narrator, clockAlert, overlay);
  showMute();
  // every key and click is tied to the decision on screen when it happened (decision.ts)
  const gate = new InputGate(root);

  // ---- host: what a screen may ask of the shell ----
  const host: ScreenHost = {
    submit: (action, opts) => {
      const conn = st.conn;
      if (!conn) return Promise.reject({ code: "disconnected", message: "not connected" });
      const step = gate.stepForSubmit(opts?.step);
      if (step !== conn.step) {
        // made for a position that is no longer the game's: never sent (it would act on a decision not seen)
        const err: ServerError = { code: "stale_step", local: true, step,
          message: "not sent: the game moved on since you pressed that; look at the board again." };
        refused(err);
        return Promise.reject(err);
      }
      return conn.submit(action, step).then(
        (ok) => {
          if (ok.buffered) say("Your choice is in: it is revealed when everybody has chosen.");
        },
        (err: ServerError) => {
          refused(err);
          throw err;
        },
      );
    },
    say: (text, kind = "info") => say(text, kind),
    sound: (name) => sounds.play(name as SoundName),
    board: () => {
      if (!st.snapshot) return Promise.resolve(null);
      boardPromise ??= fetchBoard(st.snapshot.game, st.snapshot.options).catch(() => null);
      return boardPromise;
    },
    seatName: (seat) => seatName(seat),
    helpChanged: () => {
      const sec = overlayKind === "help" ? overlay.querySelector(".help-game") : null;
      if (sec) sec.replaceChildren(...gameHelp());
    },
    acknowledge: (title, lines) => gate.acknowledge(title, lines),
    request: (msg) => {
      const conn = st.conn;
      if (!conn) return Promise.reject({ code: "disconnected", message: "not connected" });
      return conn.request(msg);
    },
  };

  function say(text: string, kind: "info" | "warn" | "error" = "info"): void {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function refused(err: ServerError): void {
    sounds.play("error");
    const why = err.rule ? ` (rule ${err.rule})` : err.field ? ` (field ${err.field})` : "";
    const text: Record<string, string> = {
      stale_step: err.local
        ? "Not sent: the game moved on since you pressed that (a newer position came in); look at the board again."
        : "That was for an earlier moment of the game; the board has moved on, look again.",
      not_your_turn: "It is not your move yet.",
      already_decided: "You already chose this turn.",
      game_over: "The game is over.",
      not_started: "The game has not started: the room is still waiting for players.",
      disconnected: "Not connected to the server: your action was not sent. Reconnecting…",
    };
    say(`Refused: ${text[err.code] ?? err.message}${text[err.code] ? "" : why}`, "error");
  }

  function seatName(seat: number): string {
    if (seat === st.seat) return "You";
    return chipName(seat);
  }

  /** A seat's own name (the chips show it for me too, marked "(you)"): the room's name for the seat, a bot by
   *  its level ("Hard bot"), an unnamed person "Player N" counted from 1, as every text of the match counts. */
  function chipName(seat: number): string {
    return st.snapshot?.names?.[seat] ?? seatNames(st.room?.seats ?? [], st.snapshot?.seats ?? [])[seat] ?? `Player ${seat + 1}`;
  }

  // ---- chrome ----
  function showMute(): void {
    // the words on a wide screen, a speaker (crossed when muted) on a phone
    const words = sounds.muted ? "Sound off" : "Sound on";
    const icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    icon.setAttribute("viewBox", "0 0 16 16");
    icon.setAttribute("width", "16");
    icon.setAttribute("height", "16");
    icon.setAttribute("aria-hidden", "true");
    icon.classList.add("short");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", sounds.muted ? "M2 6h3l4-3v10l-4-3H2zM11 5l4 6M15 5l-4 6" : "M2 6h3l4-3v10l-4-3H2zM11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9");
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "1.5");
    icon.append(path);
    muteBtn.replaceChildren(el("span", "long", words), icon);
    muteBtn.setAttribute("aria-label", words);
    muteBtn.setAttribute("aria-pressed", String(sounds.muted));
  }

  function toggleMute(): void {
    sounds.toggle();
    showMute();
    say(sounds.muted ? "Sound muted." : "Sound on.");
  }

  function toggleLog(): void {
    const hidden = root.classList.toggle("log-hidden");
    logBtn.setAttribute("aria-pressed", String(!hidden));
    say(hidden ? "Log hidden (L shows it)." : "Log shown.");
  }
  // a phone starts with the log and chat folded away (L or the Log button opens them over the lower half)
  if (window.matchMedia("(max-width: 700px)").matches) root.classList.add("log-hidden");
  logBtn.setAttribute("aria-pressed", String(!root.classList.contains("log-hidden")));

  async function copyInvite(): Promise<void> {
    const url = `${location.origin}/play/${code}`;
    try {
      await navigator.clipboard.writeText(url);
      say(`Invite link copied: ${url}`);
    } catch {
      say(`Send this link to the other player: ${url}`);
    }
  }

  let graceTimer: ReturnType<typeof setInterval> | null = null;
  function renderSeats(): void {
    const room = st.room;
    const snap = st.snapshot;
    if (!room) return;
    const deciding = new Map((snap?.deciding ?? []).map((d) => [d.seat, d.submitted]));
    const now = Date.now() / 1000;
    let counting = false;
    const live = room.status === "live" && snap?.status === "playing";
    const claimable = new Set(live ? (room.claimable ?? []).filter((x) => x !== st.seat) : []);
    const mayClaim = st.seat !== null && claimable.size > 0 && st.conn?.status === "open";
    claimBtn.hidden = !mayClaim;
    // (a server that sends `claimable` takes `resign` and `claim`)
    resignBtn.hidden = !(live && st.seat !== null && room.claimable !== undefined);
    resultBtn.hidden = !(room.status === "finished" || snap?.status === "over");
    hintBtn.hidden = !(live && st.seat !== null && snap?.to_act && room.seats.some((x) => x.kind === "bot"));
    seatsBar.replaceChildren(
      ...room.seats.map((s) => {
        const li = el("li", "seat");
        li.style.setProperty("--seat", st.screen?.seatColour?.(s.seat, st.seat) ?? SEAT_COLOURS[s.seat % SEAT_COLOURS.length]!);
        const dot = el("span", "dot");
        dot.setAttribute("aria-hidden", "true");
        const name = el("span", "seat-name", chipName(s.seat));
        const state = el("span", "seat-state");
        if (s.kind !== "human") state.textContent = "bot";
        else if (!s.taken) state.textContent = "free seat";
        else if (s.connected) state.textContent = "online";
        else if (claimable.has(s.seat)) {
          state.textContent = mayClaim ? "gone: you may claim the win" : "gone";
        } else if (s.grace_until && s.grace_until > now) {
          const left = Math.max(0, Math.round(s.grace_until - now));
          state.textContent = `away · ${left} s to return`;
          counting = true;
        } else state.textContent = "away";
        li.dataset.presence = s.kind !== "human" ? "bot" : !s.taken ? "free" : s.connected ? "online" : claimable.has(s.seat) ? "gone" : "away";
        if (snap && snap.status === "playing" && deciding.has(s.seat)) {
          const done = deciding.get(s.seat);
          li.classList.add(done ? "chosen" : "deciding");
          const tag = el("span", "seat-turn", done ? "chosen" : s.kind !== "human" ? "thinking" : "to move");
          li.append(dot, name, state, tag);
        } else li.append(dot, name, state);
        if (s.seat === st.seat) li.classList.add("me");
        return li;
      }),
    );
    if (counting && graceTimer === null) graceTimer = setInterval(renderSeats, 1000);
    if (!counting && graceTimer !== null) {
      clearInterval(graceTimer);
      graceTimer = null;
    }
    renderWaiting();
    renderClock();
  }

  let clockTimer: ReturnType<typeof setInterval> | null = null;
  let clockWarned: string | null = null;
  /** The turn timer: who it runs for and the time left to `room.clock.deadline`, redrawn 4 times a second while
   *  a deadline runs; the last 10 s are urgent and announced once per deadline. */
  function renderClock(): void {
    const clock = st.room?.clock ?? null;
    const snap = st.snapshot;
    const deadline = clock?.deadline ? Date.parse(clock.deadline) : NaN;
    const running = clock !== null && !Number.isNaN(deadline) && snap?.status === "playing" && st.room?.status === "live";
    if (!running || !clock) {
      clockBox.hidden = true;
      clockBox.classList.remove("urgent");
      if (clockTimer !== null) {
        clearInterval(clockTimer);
        clockTimer = null;
      }
      return;
    }
    const undecided = new Set((snap?.deciding ?? []).filter((d) => !d.submitted).map((d) => d.seat));
    const seats = clock.seats.filter((x) => undecided.size === 0 || undecided.has(x));
    const mine = st.seat !== null && seats.includes(st.seat);
    const others = seats.filter((x) => x !== st.seat).map(chipName);
    clockWho.textContent = mine ? (others.length ? `You and ${others.join(", ")}:` : "Your move:") : `${others.join(", ") || "Turn"}:`;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clockLeft.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    const urgent = left <= 10;
    clockBox.classList.toggle("urgent", urgent);
    clockBox.classList.toggle("mine", mine);
    const what = clock.on_timeout === "bot" ? "a bot plays the move" : "the game is forfeited";
    clockBox.title = `Turn timer: ${clock.turn_seconds} s per move; when it runs out ${what}.`;
    clockBox.setAttribute("aria-label", `${clockWho.textContent} ${left} seconds left (${clockBox.title})`);
    clockBox.hidden = false;
    if (urgent && clockWarned !== clock.deadline) {
      clockWarned = clock.deadline;
      clockAlert.textContent = mine
        ? `${left} seconds left for your move: then ${what}.`
        : `${left} seconds left for ${others.join(", ")} to move.`;
    }
    if (clockTimer === null) clockTimer = setInterval(renderClock, 250);
  }

  function renderWaiting(): void {
    const snap = st.snapshot;
    const room = st.room;
    if (!snap || !room) return;
    if (room.status === "open") {
      const free = room.seats.filter((s) => s.kind === "human" && !s.taken).length;
      const who = room.public ? "it is listed in the lobby, so anyone may join" : "the room is private: only people with them can join";
      waiting.textContent = `Waiting for ${free} more player${free === 1 ? "" : "s"} to join: share the room code ${code} or the invite link (${who}).`;
      waiting.hidden = false;
      waiting.title = waiting.textContent;
      return;
    }
    if (snap.status === "over") {
      waiting.hidden = true;
      return;
    }
    const gone = new Set(room.claimable ?? []);
    const others = snap.deciding.filter((d) => !d.submitted && d.seat !== st.seat).map((d) => seatName(d.seat));
    const mine = snap.to_act;
    const left = snap.deciding.filter((d) => !d.submitted && gone.has(d.seat) && d.seat !== st.seat).map((d) => seatName(d.seat));
    if (left.length && st.seat !== null) {
      waiting.textContent = `${names(left)} did not come back in time: claim the win, or wait for them.`;
      waiting.hidden = false;
      waiting.title = waiting.textContent;
      return;
    }
    if (mine && others.length) waiting.textContent = `Your move (${others.join(", ")} ${others.length === 1 ? "is" : "are"} choosing too).`;
    else if (mine) waiting.textContent = ""; // the banner says it
    else if (others.length) waiting.textContent = `Waiting for ${others.join(", ")}…`;
    else waiting.textContent = "";
    waiting.hidden = !waiting.textContent;
    waiting.title = waiting.textContent ?? "";
  }

  function renderHeader(): void {
    const snap = st.snapshot;
    if (!snap) return;
    h1.textContent = gameTitle(st.game, snap.game);
    scen.textContent = scenarioTitle(st.game, snap.options.scenario);
    document.title = `${gameTitle(st.game, snap.game)} · ${code} · deltav`;
    codeBox.hidden = false;
    invite.hidden = route.mode === "watch" && st.room?.status !== "open";
    chatForm.hidden = st.seat === null;
    if (st.seat === null && !chatBox.querySelector(".chat-note")) {
      chatBox.insertBefore(el("p", "chat-note dim", "Spectators read the chat; only players write."), chatForm);
    }
  }

  let logDirty = false;
  /** The log is the connection's (each entry sent once: Connection.keepLog); drawn by drawLog at the next frame. */
  function takeLog(log: LogEntry[]): void {
    st.log = log;
    logDirty = true;
  }

  // the log follows the newest entry until the player scrolls up, and again once they scroll back to the end;
  // a folded or hidden log (a phone, L) keeps following, so it opens at the newest entry
  let logPinned = true;
  const logAtEnd = (): boolean => logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
  const logToEnd = (): void => {
    if (logPinned) logList.scrollTop = logList.scrollHeight;
  };
  logList.addEventListener("scroll", () => {
    if (logList.clientHeight > 0) logPinned = logAtEnd();
  });
  new ResizeObserver(logToEnd).observe(logList);

  function drawLog(): void {
    if (!logDirty) return;
    logDirty = false;
    logList.replaceChildren(
      // an entry whose text is empty is no line: the game says nothing of it (a private echo shown elsewhere)
      ...st.log.filter((e) => e.text).slice(-300).map((e) => {
        const li = el("li");
        li.append(el("span", "log-step", String(e.step)), el("span", "log-text", e.text));
        return li;
      }),
    );
    logToEnd();
  }

  function narrate(events: LogEntry[]): void {
    if (!events.length) return;
    const texts = events.map((e) => e.text).filter((t) => t);
    if (!texts.length) return;
    const shown = texts.slice(-3).join(". ");
    narrator.textContent = texts.length > 3 ? `${texts.length - 3} earlier events, then: ${shown}.` : `${shown}.`;
  }

  function renderPhase(): void {
    const snap = st.snapshot;
    if (!snap || !st.screen) return;
    const text = st.screen.phase?.(snap) ?? new GenericScreen().phase(snap);
    banner.textContent = text;
    banner.title = text;
    banner.dataset.mine = String(snap.to_act);
    if (text !== lastPhase) lastPhase = text;
    if (snap.to_act && !wasToAct && snap.status === "playing") sounds.play("turn");
    wasToAct = snap.to_act;
  }

  // ---- overlays ----
  type OverlayKind = "help" | "result" | "link" | "briefing" | "resign";
  let overlayKind: OverlayKind | null = null;
  let returnFocus: HTMLElement | null = null;
  let overlayClosed: (() => void) | null = null;

  function openOverlay(kind: OverlayKind, title: string, content: HTMLElement[], closable = true, onClose?: () => void): void {
    if (overlayKind === null) returnFocus = document.activeElement as HTMLElement | null;
    const before = overlayClosed;
    overlayClosed = onClose ?? null;
    before?.(); // a dialog replaced by another is closed as far as its opener knows
    overlayKind = kind;
    const box = el("div", `dialog dialog-${kind}`);
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    const h = el("h2", "", title);
    h.id = `dialog-${kind}-title`;
    box.setAttribute("aria-labelledby", h.id);
    box.append(h, ...content);
    if (closable) {
      const x = button("×", () => closeOverlay(), "dialog-close", "Close (Esc)");
      x.setAttribute("aria-label", "Close");
      box.append(x);
    }
    overlay.replaceChildren(box);
    overlay.hidden = false;
    overlay.dataset.kind = kind;
    const first = box.querySelector<HTMLElement>(".primary") ?? box.querySelector<HTMLElement>("button, a[href]");
    first?.focus();
  }

  function closeOverlay(): void {
    if (overlayKind === "link") return; // the reconnect overlay goes away by itself
    overlay.hidden = true;
    overlay.replaceChildren();
    overlayKind = null;
    returnFocus?.focus();
    const done = overlayClosed;
    overlayClosed = null;
    done?.();
  }

  overlay.addEventListener("click", (e) => {
    if (e.target === overlay) closeOverlay();
  });

  /** The help overlay's game section: the game's title and its screen's help. */
  function gameHelp(): HTMLElement[] {
    return st.screen?.help ? [el("h3", "", gameTitle(st.game, st.snapshot?.game ?? "")), st.screen.help()] : [];
  }

  function openHelp(): void {
    const parts: HTMLElement[] = [];
    if (st.screen?.help) {
      const sec = el("section", "help-game");
      sec.append(...gameHelp());
      parts.push(sec);
    }
    const keys = el("section", "help-shell");
    keys.append(el("h3", "", "Controls of every game"));
    const dl = el("dl", "keys");
    for (const [k, v] of [
      ["?", "this help"],
      ["L", "show or hide the log"],
      ["M", "sound on or off"],
      ["Esc", "close a dialog"],
      ["Tab", "move between buttons; Enter or Space presses one"],
    ] as const) {
      dl.append(el("dt", "", k), el("dd", "", v));
    }
    keys.append(dl, el("p", "dim", "Keys typed into the chat stay in the chat; Esc leaves it."));
    parts.push(keys);
    const tours = el("div", "help-tours");
    tours.append(button("Scenario briefing", () => {
      closeOverlay();
      void showBriefing(false);
    }, "btn small help-briefing", "The scenario: the sides, their forces and what wins"));
    if (st.screen?.guide) {
      tours.append(button("First-game guide", () => {
        closeOverlay();
        startGuide();
      }, "btn small help-guide", "A few steps through the screen"));
    }
    parts.unshift(tours);
    openOverlay("help", "Help", parts);
  }

  // ---- the briefing and the first-game guide ----
  let guide: Guide | null = null;
  let introFor = "";

  function startGuide(): void {
    const steps = st.screen?.guide?.();
    if (!steps?.length || !st.snapshot) {
      say("This screen has no guide.", "warn");
      return;
    }
    guide?.close();
    setGuideOffered(st.snapshot.game);
    const mine: Guide = new Guide(root, steps, () => {
      if (guide === mine) guide = null;
    }, () => overlayKind !== null);
    guide = mine;
  }

  /** The scenario briefing as a dialog ("Begin", Enter); resolves when it is closed (or could not be shown). */
  async function showBriefing(auto: boolean): Promise<void> {
    const seat = st.seat;
    const match = st.match;
    let b: Briefing;
    try {
      b = await fetchBriefing(code, match, seat);
    } catch (e) {
      if (!auto) say(`The briefing could not be fetched: ${e instanceof Error ? e.message : String(e)}`, "warn");
      return;
    }
    if (st.match !== match || (auto && overlayKind !== null)) return;
    if (auto && seat !== null) setBriefed(code, match, seat);
    const parts: HTMLElement[] = [];
    if (b.objective) parts.push(el("p", "briefing-objective", b.objective));
    const sides = el("ul", "briefing-sides");
    const ordered = [...(b.sides ?? [])].sort((x, y) => Number(y.seat === seat) - Number(x.seat === seat));
    for (const side of ordered) {
      const li = el("li", side.seat === seat ? "mine" : "");
      li.style.setProperty("--seat", st.screen?.seatColour?.(side.seat, seat) ?? SEAT_COLOURS[side.seat % SEAT_COLOURS.length]!);
      const who = el("span", "side-name", side.seat === seat ? `You (${side.name || seatName(side.seat)})` : side.name || chipName(side.seat));
      li.append(who);
      const forces = Array.isArray(side.forces) ? side.forces.join(", ") : side.forces;
      if (forces) li.append(el("p", "", `Forces: ${forces}`));
      if (side.goal) li.append(el("p", "", `Goal: ${side.goal}`));
      sides.append(li);
    }
    if (sides.children.length) parts.push(sides);
    if (b.wins) parts.push(el("p", "briefing-wins", `What wins: ${b.wins}`));
    if (b.notes?.length) {
      const ul = el("ul", "briefing-notes");
      for (const n of b.notes) ul.append(el("li", "", n));
      parts.push(ul);
    }
    const row = el("div", "dialog-actions");
    row.append(button(seat !== null && auto ? "Begin" : "Close", () => closeOverlay(), "btn primary briefing-begin", "Enter"));
    parts.push(row);
    await new Promise<void>((resolve) => openOverlay("briefing", b.title || "Briefing", parts, true, resolve));
  }

  /** Before a seat's first decision of a match: the briefing (once per match and seat in this browser), then
   *  the first-game guide (once per title in this browser). */
  function maybeIntro(): void {
    const snap = st.snapshot;
    const room = st.room;
    if (!snap || !room || st.seat === null || snap.status !== "playing" || room.status !== "live") return;
    const key = `${st.match}/${st.seat}`;
    if (introFor === key) return;
    introFor = key;
    if (!introsOn()) return;
    const game = snap.game;
    const thenGuide = (): void => {
      if (!guideOffered(game) && st.screen?.guide && st.snapshot?.status === "playing" && overlayKind === null) startGuide();
    };
    if (briefed(code, st.match, st.seat)) thenGuide();
    else void showBriefing(true).then(thenGuide);
  }

  /** The result dialog: the verdict in words, the game's scores and the match's numbers (`snapshot.summary`),
   *  Rematch / Replay / Download the record / Lobby; it closes (×, Esc, "Look at the board") and the header's
   *  Result button opens it again. */
  function showResult(first = true): void {
    const snap = st.snapshot;
    const room = st.room;
    if (!snap || !room) return;
    const result = snap.result;
    const legacy = room.forfeit;
    const ending: Ending | null = room.ending ?? (legacy ? { kind: "forfeit", seats: legacy.seat !== undefined ? [legacy.seat] : [],
      winners: legacy.winners, reason: legacy.reason } : null);
    const winners = ending?.winners ?? result?.winners ?? [];
    const iWon = st.seat !== null && winners.includes(st.seat);
    const parts: HTMLElement[] = [];
    const v = verdict({ seat: st.seat, winners, ending, reason: typeof result?.reason === "string" ? result.reason : null, name: chipName });
    parts.push(el("p", "result-headline", v.headline));
    if (v.detail) parts.push(el("p", "result-reason", v.detail));
    const seatList = room.seats.map((x) => chipName(x.seat));
    const summary = snap.summary ?? null;
    const scores = Array.isArray(result?.scores) ? (result.scores as number[]) : null;
    if (scores && !summary?.scores) {
      const label = st.screen?.scoreLabel?.() ?? { title: "Score" };
      const table = el("table", "result-scores");
      const thead = el("tr");
      thead.append(el("th", "", "Player"), el("th", "", label.title));
      table.append(thead);
      scores.forEach((r, i) => {
        const tr = el("tr");
        if (winners.includes(i)) tr.className = "winner";
        const shown = typeof r === "number" && Number.isFinite(r) ? (Number.isInteger(r) ? String(r) : r.toFixed(1)) : String(r);
        tr.append(el("td", "", i === st.seat ? `${chipName(i)} (you)` : chipName(i)), el("td", "", shown));
        table.append(tr);
      });
      parts.push(table);
      if (label.help) parts.push(el("p", "result-score-help dim", label.help));
    }
    if (summary) parts.push(...summaryParts(summary, seatList, winners, st.seat));
    const actions = el("div", "dialog-actions result-actions");
    if (st.seat !== null) {
      const voted = room.rematch_votes.includes(st.seat);
      const re = button(voted ? "Rematch asked: waiting" : "Rematch", () => {
        st.conn?.rematch();
        re.disabled = true;
        re.textContent = "Rematch asked: waiting";
        say("You asked for a rematch; it starts when every player has asked.");
      }, "btn primary");
      re.disabled = voted;
      actions.append(re);
    }
    const replay = el("a", "btn", "Replay");
    replay.href = `/replay/${code}?match=${st.match}`;
    replay.title = "Watch the match again, every secret shown";
    const rec = el("a", "btn", "Download the record");
    rec.href = `/rooms/${code}/record?match=${st.match}`;
    rec.setAttribute("download", `${code}-${st.match}.json`);
    const lobby = el("a", "btn", "Lobby");
    lobby.href = "/";
    lobby.title = "Back to the lobby";
    const look = button("Look at the board", () => closeOverlay(), "btn result-look", "Close this (Esc); the Result button opens it again");
    actions.append(replay, rec, lobby, look);
    parts.push(actions);
    if (first) sounds.play(st.seat === null ? "turn" : iWon ? "win" : "lose");
    openOverlay("result", "Game over", parts);
  }

  // ---- the hint ----
  /** The screen's own hint when it has one (tactical sets the hard bot's order for you), else the hard bot's move
   *  in words, for the decision on screen when asked (a hint that comes after the game moved on is not shown). */
  async function askHint(): Promise<void> {
    if (st.screen?.hint) return st.screen.hint();
    const asked = st.snapshot?.step;
    if (!st.snapshot?.to_act || asked === undefined) return say("A hint is for your own turn.", "warn");
    say("Asking the hard bot…");
    try {
      const msg = await host.request!({ type: "suggest", bots: ["bot:hard"] });
      if (msg["step"] !== asked || st.snapshot?.step !== asked) {
        say("The game moved on before the hint came: ask again for one.", "warn");
        return;
      }
      const top = (msg["candidates"] as { text?: string; error?: string }[] | undefined)?.[0];
      if (!top?.text) return say(`No hint: the hard bot gave none (${top?.error ?? "no answer"}).`, "warn");
      say(`Hint: the hard bot would play: ${top.text.replace(/[.!]$/, "")}.`);
    } catch (e) {
      say(`No hint: ${(e as { message?: string }).message ?? String(e)}`, "warn");
    }
  }

  // ---- resign and claim ----
  function confirmResign(): void {
    const snap = st.snapshot;
    if (!snap || st.seat === null || snap.status !== "playing") return;
    const others = (st.room?.seats ?? []).filter((x) => x.seat !== st.seat).map((x) => chipName(x.seat));
    const text = `The match ends now and counts as your loss: ${names(others)} ${others.length === 1 ? "wins" : "win"}.`;
    const row = el("div", "dialog-actions");
    const keep = button("Keep playing", () => closeOverlay(), "btn primary resign-keep", "Back to the game (Esc)");
    const go = button("Resign", () => {
      closeOverlay();
      if (st.conn?.resign()) say("You resigned.");
      else say("Not connected: you did not resign. Reconnecting…", "warn");
    }, "btn danger resign-confirm", "Give up this match");
    row.append(keep, go);
    openOverlay("resign", "Resign this match?", [el("p", "", text), row]);
  }

  function claimWin(): void {
    if (st.conn?.claim()) say("You claimed the win.");
    else say("Not connected: the claim was not sent. Reconnecting…", "warn");
  }

  function linkOverlay(text: string, final: boolean): void {
    const parts: HTMLElement[] = [el("p", "", text)];
    if (final) {
      const lobby = el("a", "btn primary", "Back to the lobby");
      lobby.href = "/";
      // after 4001 the seat is open in another tab: coming back here takes it over (that tab then stops)
      const again = button(text === FINAL_CLOSES[4001] ? "Play here instead" : "Try again", () => location.reload(), "btn");
      const row = el("div", "dialog-actions");
      row.append(lobby, again);
      parts.push(row);
    } else parts.push(el("div", "spinner"));
    overlayKind = null;
    openOverlay("link", final ? "Disconnected" : "Reconnecting", parts, false);
  }

  function dropLinkOverlay(): void {
    if (overlayKind === "link") {
      overlayKind = null;
      overlay.hidden = true;
      overlay.replaceChildren();
    }
  }

  // ---- keys: a dialog's first (through the gate: no screen sees a key under a dialog), then the shell's, then
  // the screen's; never keys typed into a field ----
  gate.setModal(() => overlayKind !== null && !overlay.hidden, (e) => {
    if (trapFocus(overlay, e)) return;
    if (e.key === "Escape" && !e.ctrlKey && !e.metaKey && !e.altKey) {
      closeOverlay();
      e.preventDefault();
    }
  });
  const SCROLL_KEYS = new Set(["ArrowUp", "ArrowDown", "PageUp", "PageDown", "Home", "End", " "]);
  document.addEventListener("keydown", (e) => {
    if (inTextField(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (overlayKind !== null) return;
    // the log or the chat list has the focus: its scrolling keys scroll it
    if ((e.target === logList || e.target === chatList) && SCROLL_KEYS.has(e.key)) return;
    if (e.key === "?") {
      openHelp();
      e.preventDefault();
      return;
    }
    if (e.key === "l" || e.key === "L") {
      toggleLog();
      e.preventDefault();
      return;
    }
    if (e.key === "m" || e.key === "M") {
      toggleMute();
      e.preventDefault();
      return;
    }
    if (st.screen?.key?.(e)) e.preventDefault();
  });

  // the chat keeps the keys typed into it; Esc leaves it, and a sent message hands the keys back to the game
  // (a digit then Enter must play the game, not send the digit again)
  let gameFocus: HTMLElement | null = null;
  screenRoot.tabIndex = -1;
  screenRoot.addEventListener("focusin", (e) => {
    if (e.target instanceof HTMLElement && !inTextField(e)) gameFocus = e.target;
  });
  function backToGame(): void {
    chatInput.blur();
    const to = gameFocus?.isConnected && screenRoot.contains(gameFocus) && !(gameFocus as HTMLButtonElement).disabled ? gameFocus : screenRoot;
    to.focus({ preventScroll: true });
  }
  chatInput.addEventListener("keydown", (e) => {
    e.stopPropagation();
    if (e.key === "Escape") {
      e.preventDefault();
      backToGame();
      say("Left the chat: keys go to the game again.");
    }
  });
  chatForm.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    if (st.conn?.chat(text)) {
      chatInput.value = "";
      backToGame();
    } else say("Not connected: the message was not sent.", "warn");
  });

  function addChat(m: ChatMessage): void {
    const li = el("li");
    const who = el("span", "chat-who", m.seat === st.seat ? "You" : m.name ?? seatName(m.seat));
    who.style.color = st.screen?.seatColour?.(m.seat, st.seat) ?? SEAT_COLOURS[m.seat % SEAT_COLOURS.length]!;
    li.append(who, el("span", "chat-text", m.text));
    chatList.append(li);
    chatList.scrollTop = chatList.scrollHeight;
  }

  // ---- state ----
  async function onState(msg: StateMessage): Promise<void> {
    const snap = msg.snapshot;
    const newMatch = msg.room.match !== st.match;
    if (newMatch && st.screen) {
      st.screen.unmount?.();
      st.screen = null;
      screenRoot.replaceChildren();
      screenRoot.className = "screen-root";
      logList.replaceChildren();
      boardPromise = null;
      gate.reset();
      guide?.close();
      if (overlayKind === "result") closeOverlay();
    }
    st.match = msg.room.match;
    st.snapshot = snap;
    st.game ??= gamesList.find((g) => g.id === snap.game); // the games list may have come before the first state
    st.room = msg.room;
    st.seat = snap.seat;
    renderHeader();
    renderSeats();
    drawLog();
    if (!st.screen) {
      if (mounting) {
        pending = { msg, events: msg.events };
        return;
      }
      // ?screen=generic forces the generic screen (debugging a game's actions; the shell's own tests)
      const forced = new URLSearchParams(location.search).get("screen") === "generic";
      const factory = forced ? undefined : SCREENS[snap.game];
      const screen = factory ? factory() : new GenericScreen();
      screenRoot.dataset.screen = factory ? snap.game : "generic";
      mounting = Promise.resolve(screen.mount(screenRoot, host));
      try {
        await mounting;
      } catch (e) {
        say(`The ${snap.game} screen failed to start (${String(e)}); showing the generic screen.`, "error");
        screenRoot.replaceChildren();
        const g = new GenericScreen();
        g.mount(screenRoot, host);
        st.screen = g;
        screenRoot.dataset.screen = "generic";
      }
      st.screen ??= screen;
      mounting = null;
      renderSeats(); // the screen may colour the seats (GameScreen.seatColour)
      rememberMatch({
        code, game: snap.game, role: st.seat === null ? "watch" : "play", seat: st.seat, match: st.match,
        label: `${gameTitle(st.game, snap.game)} · ${scenarioTitle(st.game, snap.options.scenario)}`, at: Date.now(),
      });
      if (pending) {
        const p = pending;
        pending = null;
        void onState(p.msg);
        return;
      }
    }
    const screen = st.screen;
    gate.rendered(snap.step, snap.to_act, () => screen.update(snap, msg.events));
    guide?.update(snap);
    renderPhase();
    narrate(msg.events);
    document.documentElement.dataset.step = String(snap.step);
    document.documentElement.dataset.ready = "true";
    maybeIntro();
    const over = snap.status === "over" || msg.room.status === "finished";
    if (over && resultShownFor !== st.match) {
      resultShownFor = st.match;
      // a "what happened" card the screen raised is read first
      const match = st.match;
      void gate.idle().then(() => {
        if (st.match === match) showResult();
      });
    }
  }

  window.deltavShell = {
    state: () => ({
      step: st.snapshot?.step ?? -1,
      status: st.snapshot?.status ?? "none",
      seat: st.seat,
      link: st.conn?.status ?? "closed",
      log: st.log.length,
      screen: screenRoot.dataset.screen ?? "",
      match: st.match,
      toAct: st.snapshot?.to_act ?? false,
      acknowledging: gate.acknowledging,
      guide: guide?.open ? guide.step : -1,
      dialog: overlayKind ?? "",
    }),
    sounds,
    connection: () => st.conn,
  };

  // ---- find the seat and connect ----
  let gamesList: GameInfo[] = [];
  let queued: StateMessage | null = null;
  let queuedEvents: LogEntry[] = [];
  let frame: number | null = null;
  games().then(
    (list) => {
      gamesList = list;
      st.game = list.find((g) => g.id === st.snapshot?.game);
      renderHeader();
      renderPhase();
    },
    () => undefined, // the header shows the game's id instead of its title
  );

  let token: string | null = null;
  if (route.mode === "play") {
    const handed = tokenFromHash();
    if (handed) saveSeatKey(code, { token: handed.token, seat: handed.seat });
    const key = seatKey(code);
    if (key) token = key.token;
    else {
      say("Taking a free seat in this room…");
      try {
        const grant: SeatGrant = await joinRoom(code, undefined, playerName() || undefined);
        if (grant.token !== null && grant.seat !== null) {
          saveSeatKey(code, { token: grant.token, seat: grant.seat });
          token = grant.token;
        }
      } catch (e) {
        if (e instanceof ApiError && e.code === "room_full") {
          say("This room has no free seat: you are watching.", "warn");
          history.replaceState(null, "", `/watch/${code}`);
        } else if (e instanceof ApiError && e.code === "unknown_room") {
          linkOverlay(`There is no room ${code} on this server. Check the code, or start a new game in the lobby.`, true);
          return;
        } else {
          linkOverlay(e instanceof Error ? e.message : String(e), true);
          return;
        }
      }
    }
  }

  const conn = new Connection(socketUrl(location, code, token), {
    state: (msg) => {
      if (!st.game && gamesList.length) st.game = gamesList.find((g) => g.id === msg.snapshot.game);
      // messages that arrive faster than the page draws are folded into one update per frame: the newest
      // snapshot (always complete) with every event of the folded messages, so no event is lost
      if (queued && queued.room.match === msg.room.match) {
        queuedEvents.push(...msg.events);
      } else {
        if (queued) void onState({ ...queued, events: queuedEvents });
        queuedEvents = [...msg.events];
      }
      takeLog(conn.log);
      queued = msg;
      if (frame === null) {
        frame = requestAnimationFrame(() => {
          frame = null;
          const m = queued;
          queued = null;
          if (m) void onState({ ...m, events: queuedEvents });
          queuedEvents = [];
        });
      }
    },
    welcome: (w) => {
      st.seat = w.seat;
      if (token && w.seat !== null) saveSeatKey(code, { token, seat: w.seat });
    },
    chat: addChat,
    error: (err) => {
      if (err.code === "bad_token") forgetSeatKey(code);
      if (err.code === "chat_empty" || err.code === "chat_too_long" || err.code === "rate_limited") say(err.message, "warn");
      else if (err.code !== "unknown_room") refused(err);
    },
    forfeit: (f) => say(`${seatName(f.seat)} did not come back in time: the game is over.`, "warn"),
    ended: (e) => {
      const losers = names(e.seats.map(seatName));
      say(e.kind === "resign" ? `${losers} resigned: the match is over.` : `${sentenceOf(e.reason ?? `${losers} forfeited`)}`, "warn");
    },
    rematchVote: (seats) => {
      if (st.room) st.room.rematch_votes = seats;
      const names = seats.map(seatName).join(", ");
      say(`Rematch asked by ${names}.`);
    },
    rematch: (m) => say(`The rematch starts: match ${m.match}.`),
    status: (s, detail) => {
      root.dataset.link = s;
      if (s === "open") {
        dropLinkOverlay();
        if (detail === "Reconnected.") say("Reconnected.");
      } else if (s === "reconnecting") linkOverlay(detail, false);
      else if (s === "closed" && conn.finalReason && conn.finalReason !== "closed") {
        if (conn.finalReason.includes("seat key")) forgetSeatKey(code);
        linkOverlay(conn.finalReason, true);
      }
    },
  });
  st.conn = conn;
  window.addEventListener("pagehide", () => conn.close());
  conn.start();
}
