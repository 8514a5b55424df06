/**
 * The contract between the shared shell and one game's screen.
 *
 * The shell owns the page around a match: the connection to the server (`/ws/{code}`, the token in its hello), reconnection,
 * the step of every submission, chat, the log panel, the phase banner's container, the result dialog, sound's
 * mute switch and the help overlay's frame. A game screen owns only the drawing of its game and turning the legal
 * actions the server sent into direct manipulation. It never re-implements a rule: what it may submit is always
 * one of `snapshot.legal[i].action`, found by matching, never built from scratch.
 *
 * This module holds types only (no behaviour), so every game folder and the shell can import it; the JSON the server
 * sends is typed by web/src/generated/protocol.ts, written from the Python side (web/tools/gen_types.py).
 */
import type { LegalEntry, LogEntry, Suggestion, Snapshot as WireSnapshot, Summary } from "../generated/protocol";

/** One step of a first-game guide (run by guide.ts). */
export interface GuideStep {
  title: string;
  text: string;
  /** CSS selector of the element to highlight (missing or absent on the page: no ring). */
  anchor?: string;
  /** An interactive step waits for this to hold for a new snapshot (the player did what it asks). */
  until?: (s: Snapshot) => boolean;
}

/** The envelope's parts, generated from the Python side (web/src/generated/protocol.ts, docs/protocol.md). */
export type { LegalEntry, LogEntry };

/** The snapshot as a screen gets it: the server's envelope with its log always there (the connection keeps the
 *  match's log and gives every snapshot its newest entries, docs/web.md). */
export interface Snapshot extends WireSnapshot {
  log: LogEntry[];
}

/** The summary of a finished match (docs/protocol.md): the game's own scores table, statistics with one value
 *  per seat, and notes, all in words. */
export type MatchSummary = Summary;

/** What the shell offers a screen. */
export interface ScreenHost {
  /** Submit one of `snapshot.legal[i].action`. It is tied to the decision the player saw: the step on screen
   *  when the key or click being handled happened (or the rendered step, when called while the screen renders
   *  an update), or `opts.step` when the screen says which step it was for. If a newer snapshot came in since,
   *  the shell refuses it locally (`{code: "stale_step", local: true}`) and says so in words; nothing is sent.
   *  Resolves when the server accepted it and rejects with the server's error (`{code, message, rule?,
   *  field?}`), which the shell also shows in words. */
  submit(action: LegalEntry["action"], opts?: { step?: number }): Promise<void>;
  /** Show a "what happened" card (a title and lines in words) that takes every key and click until the player
   *  presses Continue (Enter, Space or a click); resolves then. Call it when an automatic resolution (fire
   *  resolved by the engine, an opponent's move that changed your position) precedes the player's next
   *  decision, so no key meant for the last decision acts on the next. Cards queue. Optional: a host without a
   *  player (a replay) resolves at once. */
  acknowledge?(title: string, lines: string[]): Promise<void>;
  /** A line in the shell's status area (e.g. why a click did nothing), read out by the aria-live region. */
  say(text: string, kind?: "info" | "warn" | "error"): void;
  /** Play a synthesised sound effect by name; the shell's mute switch applies. */
  sound(name: "select" | "confirm" | "error" | "fire" | "hit" | "turn" | "win" | "lose"): void;
  /** The static board of the game for these options (`GET /games/{game}/board?scenario=...`), or null. */
  board(): Promise<unknown | null>;
  /** What `GameScreen.help()` returns has changed (e.g. the board arrived after the help was opened): an open
   *  help overlay shows the new one. Optional: a host without a help overlay has none. */
  helpChanged?(): void;
  /** The seats' display names and colours (the shell assigns the colours; a game may override with its own). */
  seatName(seat: number): string;
  /** A request on the match socket answered by one message with its id (`suggest` → `suggestion`,
   *  docs/server.md "Advice"); rejects with the server's error. Optional: a host without a server has none. */
  request?(msg: { type: string; [k: string]: unknown }): Promise<Suggestion>;
}

/** One game's screen. Created once per match page; `update` is called with every new snapshot (full, never a
 *  delta) and the events new to this viewer since the previous one. */
export interface GameScreen {
  /** Build the screen's DOM and canvases inside `root`. */
  mount(root: HTMLElement, host: ScreenHost): void | Promise<void>;
  update(snapshot: Snapshot, newEvents: LogEntry[]): void;
  /** Key presses the shell did not take (it never passes keys typed into a text field). Return true if used. */
  key?(event: KeyboardEvent): boolean;
  /** The help overlay's game section: rules summary, tables, controls (HTML, built from trusted strings). */
  help?(): HTMLElement;
  /** The phase banner's text for a snapshot ("Astrogation: plot your burns"). */
  phase?(snapshot: Snapshot): string;
  /** The first-game guide's steps (`shell/guide.ts`): offered on this title's first match in this browser and
   *  from the help overlay. Called when the guide starts (a step's `until` may close over the snapshot then). */
  guide?(): GuideStep[];
  /** What the result's `scores` are in this game (the result dialog's column and a line saying how they are
   *  counted); without it the column is "Score". */
  scoreLabel?(): { title: string; help?: string };
  /** The screen's own answer to the shell's Hint button (tactical: asks the hard bot and sets its order for
   *  you); without it the shell asks the hard bot (`suggest`) and says its move in words. */
  hint?(): void;
  /** A seat's colour as this screen draws its pieces for a viewer (a seat, or null: a spectator); the seat chips
   *  and chat use it, e.g. tactical's "yours cyan, the enemy orange" whichever seat you hold; without it the
   *  shell's seat colours apply. */
  seatColour?(seat: number, viewer: number | null): string;
  unmount?(): void;
}

/** A game module registers a factory under its game id (see `web/src/games.ts`). */
export type ScreenFactory = () => GameScreen;
