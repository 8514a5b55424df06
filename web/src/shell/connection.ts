/**
 * The WebSocket client of docs/server.md for one room: connect (a seat with its token, or a spectator), say
 * hello (the first message carries the seat's token: a token never goes in a socket's address, which servers and
 * proxies log; the link's URL names it in its fragment, `#token=`, as `socketUrl` writes it), hand every server
 * message to the page, submit actions for the current step and match the server's `accepted` /
 * `error` answers to them by id, keep the link alive with pings, and reconnect with backoff (then `sync`).
 * Close codes that retrying cannot fix (4001 replaced, 4003 bad token, 4004 unknown room) stop the loop and
 * are reported in words. A `redirect` (several server processes: the room's seats play on its owner) is followed
 * at once: the socket closes with 4010 and the link reopens on the given URL with the same token, no backoff.
 *
 * Owns the socket and its protocol only: it draws nothing and knows no game.
 */
import type {
  Chat as ChatMessage,
  EndingDoc,
  ForfeitMessage,
  Rematch as RematchMessage,
  Room as RoomInfo,
  ServerError as WireError,
  ServerMessage,
  StateMessage as WireStateMessage,
  Suggestion,
  Welcome as WelcomeMessage,
} from "../generated/protocol";
import type { LegalEntry, LogEntry, Snapshot } from "./screen";

/** The server's messages, generated from the Python side (web/src/generated/protocol.ts, docs/server.md). */
export type {
  Chat as ChatMessage,
  Clock as TurnClock,
  EndingDoc as Ending,
  ForfeitMessage,
  Rematch as RematchMessage,
  Room as RoomInfo,
  RoomSeat,
  ServerMessage,
  Suggestion,
  Welcome as WelcomeMessage,
} from "../generated/protocol";

/** A `state` message as the handlers get it: its snapshot carries the log (`keepLog` fills it in when the server
 *  left it out). */
export interface StateMessage extends Omit<WireStateMessage, "snapshot"> {
  snapshot: Snapshot;
}

/** A refusal from the server (`{"type": "error", ...}`); also what `submit` rejects with, and what the page itself
 *  refuses before anything is sent (`local`: a stale decision; no `type` then). */
export interface ServerError extends Omit<WireError, "type"> {
  type?: "error";
  local?: boolean;
}

export type LinkStatus = "connecting" | "open" | "reconnecting" | "closed";

export interface ConnectionHandlers {
  welcome?(msg: WelcomeMessage): void;
  state?(msg: StateMessage): void;
  chat?(msg: ChatMessage): void;
  forfeit?(msg: ForfeitMessage): void;
  rematchVote?(seats: number[]): void;
  rematch?(msg: RematchMessage): void;
  /** The match ended outside the rules (a resignation, a forfeit, a claimed win). */
  ended?(ending: EndingDoc): void;
  /** A server error not answering one of our submissions (a chat refused, rate limited...). */
  error?(err: ServerError): void;
  /** The link's state, with a sentence for the page (why it closed, when it retries). */
  status?(status: LinkStatus, detail: string): void;
}

/** The parts of the DOM WebSocket this module uses (so a test can hand in another implementation). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ConnectionOptions {
  /** Make a socket for a URL (default: the browser's WebSocket). */
  socket?: (url: string) => SocketLike;
  /** Milliseconds between pings (default 15 s); a link silent for `pingTimeout` after a ping is closed. */
  pingInterval?: number;
  pingTimeout?: number;
  /** First reconnect delay and its ceiling, in milliseconds (doubling, with jitter). */
  backoffStart?: number;
  backoffMax?: number;
}

/** Close codes after which reconnecting cannot help, with the words the page shows. */
export const FINAL_CLOSES: Record<number, string> = {
  4001: "This seat was opened in another tab or browser; this page stopped so the two do not fight over it.",
  4003: "The server does not accept this page's seat key for the room (it belongs to another room or match), or this page is out of date: reload it.",
  4004: "There is no such room on this server (check the code).",
};

const OPEN = 1;
/** The newest log entries a snapshot carries (`deltav.core.session.LOG_TAIL`). */
export const LOG_TAIL = 20;
/** Log entries the page keeps for its log panel. */
export const LOG_KEPT = 1000;
/** The close code that comes after a `redirect` message. */
export const REDIRECT_CLOSE = 4010;

/** The URL to follow after a redirect: the owner's socket URL (`ws://host/ws/CODE`, maybe with a query of its
 *  own), with no token in it (the link says hello there with its token, as on every connection); null when the
 *  server's URL is not a ws/wss URL (never followed). `current` is the link's URL now (kept for callers). */
export function redirectUrl(target: string, current: string): string | null {
  void current;
  let to: URL;
  try {
    to = new URL(target);
  } catch {
    return null;
  }
  if (to.protocol !== "ws:" && to.protocol !== "wss:") return null;
  to.searchParams.delete("token");
  to.hash = "";
  return to.toString();
}

interface Pending {
  resolve: (accepted: { step: number; buffered: boolean }) => void;
  reject: (err: ServerError) => void;
}

/** The link URL of a room: same host as the page, `wss` under https; a token (in the fragment, `#token=`,
 *  which never leaves the page: `Connection` opens the socket without it and sends it in its hello) makes it a
 *  seat's. */
export function socketUrl(loc: { protocol: string; host: string }, code: string, token: string | null): string {
  const scheme = loc.protocol === "https:" ? "wss" : "ws";
  const f = token ? `#token=${encodeURIComponent(token)}` : "";
  return `${scheme}://${loc.host}/ws/${encodeURIComponent(code)}${f}`;
}

/** A link URL split into the socket's address (no fragment, no token) and the seat's token, if any. */
export function splitLink(url: string): { address: string; token: string | null } {
  try {
    const u = new URL(url);
    const fromHash = new URLSearchParams(u.hash.replace(/^#/, "")).get("token");
    const fromQuery = u.searchParams.get("token"); // an older caller's form: still never sent in the address
    u.hash = "";
    u.searchParams.delete("token");
    return { address: u.toString(), token: fromHash ?? fromQuery };
  } catch {
    return { address: url, token: null };
  }
}

export class Connection {
  /** The step of the newest snapshot received (what `submit` sends). */
  step = -1;
  /** The newest snapshot, once one arrived. */
  snapshot: Snapshot | null = null;
  /** The match's log as this page received it, oldest first (at most LOG_KEPT entries): the server sends the
   *  snapshot's log whole on connecting, a sync, a new match or renamed seats, and otherwise only the entries
   *  each action added, once (`events`); see `keepLog`. */
  log: LogEntry[] = [];
  private logMatch = -1;
  room: RoomInfo | null = null;
  seat: number | null = null;
  status: LinkStatus = "closed";
  /** Set when the loop stopped for good (a final close code, or `close()`): the sentence why. */
  finalReason: string | null = null;

  private ws: SocketLike | null = null;
  private pending = new Map<string, Pending>();
  private nextId = 1;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private everOpened = false;
  /** Where a `redirect` told this link to go (followed when the socket closes with 4010). */
  private redirectTo: string | null = null;
  /** Redirects followed in a row without a state arriving (a loop of redirects is not followed for ever). */
  private redirects = 0;
  private stopped = false;
  private readonly opts: Required<ConnectionOptions>;
  /** The seat's token, said in every connection's hello (null: a spectator). */
  private readonly token: string | null;
  private url: string;

  constructor(
    link: string,
    private readonly on: ConnectionHandlers,
    options: ConnectionOptions = {},
  ) {
    const { address, token } = splitLink(link);
    this.url = address;
    this.token = token;
    this.opts = {
      socket: options.socket ?? ((u: string) => new WebSocket(u) as unknown as SocketLike),
      pingInterval: options.pingInterval ?? 15_000,
      pingTimeout: options.pingTimeout ?? 10_000,
      backoffStart: options.backoffStart ?? 500,
      backoffMax: options.backoffMax ?? 10_000,
    };
  }

  start(): void {
    this.stopped = false;
    this.finalReason = null;
    this.open();
  }

  /** Stop for good (leaving the page): no reconnect. */
  close(): void {
    this.stopped = true;
    this.finalReason = "closed";
    this.clearTimers();
    this.ws?.close(1000, "bye");
    this.ws = null;
    this.failPending({ code: "disconnected", message: "the page closed the connection" });
    this.setStatus("closed", "Disconnected.");
  }

  /** Close the socket as a network failure would (the reconnect path runs); for the tests and debugging. */
  drop(): void {
    this.ws?.close(4000, "dropped");
  }

  /** The socket URL the link uses now (after a redirect, the owner process's). */
  get currentUrl(): string {
    return this.url;
  }

  get connected(): boolean {
    return this.ws !== null && this.ws.readyState === OPEN && this.status === "open";
  }

  /** Submit one of `snapshot.legal[i].action` for `step` (default: the newest snapshot's). Resolves on
   *  `accepted`, rejects with the server's error (or `disconnected` / `no_step` when it could not be sent). */
  submit(action: LegalEntry["action"], step = this.step): Promise<{ step: number; buffered: boolean }> {
    if (!this.connected) {
      return Promise.reject({ code: "disconnected", message: "not connected to the server: wait for the reconnect" });
    }
    if (this.step < 0) return Promise.reject({ code: "no_step", message: "no game state has arrived yet" });
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ type: "submit", step, action, id });
    });
  }

  /** A request answered by one message with the same id (`suggest` → `suggestion`; docs/server.md "Advice");
   *  rejects with the server's error. */
  request(msg: { type: string; [k: string]: unknown }): Promise<Suggestion> {
    if (!this.connected) {
      return Promise.reject({ code: "disconnected", message: "not connected to the server: wait for the reconnect" });
    }
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as never, reject });
      this.send({ ...msg, id });
    });
  }

  chat(text: string): boolean {
    return this.send({ type: "chat", text });
  }

  rematch(): boolean {
    return this.send({ type: "rematch" });
  }

  /** Give up the live match (the others win). A refusal comes back as an `error` with this id. */
  resign(): boolean {
    return this.send({ type: "resign", id: `c${this.nextId++}` });
  }

  /** Claim the win when every absent opponent's grace has run out (`room.claimable`). */
  claim(): boolean {
    return this.send({ type: "claim", id: `c${this.nextId++}` });
  }

  /** Ask for my snapshot again; with `since`, its log holds every visible event from that step on. */
  sync(since?: number): boolean {
    return this.send(since === undefined ? { type: "sync" } : { type: "sync", since });
  }

  private send(msg: Record<string, unknown>): boolean {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  private open(redirected = false): void {
    const wasLinked = this.step >= 0; // a redirect before any state is the first connection, not a reconnect
    if (redirected) this.setStatus("connecting", "Connecting to the room's server…");
    else this.setStatus(this.everOpened ? "reconnecting" : "connecting", this.everOpened ? "Reconnecting…" : "Connecting…");
    let ws: SocketLike;
    try {
      ws = this.opts.socket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      // first of all, hello: the seat's token (the server reads nothing else before it)
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      const again = this.everOpened && (!redirected || wasLinked);
      this.everOpened = true;
      this.attempts = 0;
      this.setStatus("open", again ? "Reconnected." : "Connected.");
      if (again && this.step >= 0) this.sync(this.step);
      this.startPing();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.heard();
      if (typeof ev.data !== "string") return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(ev.data) as ServerMessage;
      } catch {
        return;
      }
      this.dispatch(msg);
    };
    ws.onerror = () => {
      /* onclose follows and decides */
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearTimers();
      this.failPending({ code: "disconnected", message: "the connection dropped before the server answered" });
      const to = this.redirectTo;
      this.redirectTo = null;
      if (ev.code === REDIRECT_CLOSE && to !== null && !this.stopped && this.redirects < 5) {
        this.redirects++;
        this.url = to; // the owner process: reconnect there at once, with the same token
        this.open(true);
        return;
      }
      const final = FINAL_CLOSES[ev.code];
      if (final !== undefined || this.stopped) {
        this.stopped = true;
        this.finalReason = final ?? "closed";
        this.setStatus("closed", final ?? "Disconnected.");
        return;
      }
      this.scheduleRetry();
    };
  }

  /** The log kept: a snapshot that carries its log (connecting, sync, a new match, renamed seats) replaces the
   *  entries from its first step on (older ones stay: the page's history across reconnects); one without it gets
   *  the log kept plus the message's new entries, its newest LOG_TAIL as the snapshot's `log`, so every
   *  handler sees a complete snapshot. Nothing is de-duplicated: each entry comes once. */
  private keepLog(s: WireStateMessage): StateMessage {
    const snap = s.snapshot;
    if (s.room.match !== this.logMatch) {
      this.logMatch = s.room.match;
      this.log = [];
    }
    if (snap.log !== undefined) {
      const from = snap.log.length ? snap.log[0]!.step : Infinity;
      this.log = [...this.log.filter((e) => e.step < from), ...snap.log];
    } else {
      this.log.push(...s.events);
      snap.log = this.log.slice(-LOG_TAIL);
    }
    if (this.log.length > LOG_KEPT) this.log = this.log.slice(-LOG_KEPT);
    return s as StateMessage;
  }

  private dispatch(msg: ServerMessage): void {
    switch (msg.type) {
      case "welcome":
        this.seat = msg.seat;
        this.on.welcome?.(msg);
        break;
      case "state": {
        const s = this.keepLog(msg);
        this.snapshot = s.snapshot;
        this.room = s.room;
        this.step = s.snapshot.step;
        this.redirects = 0;
        this.on.state?.(s);
        break;
      }
      case "accepted": {
        const id = String(msg.id);
        const p = this.pending.get(id);
        if (p) {
          this.pending.delete(id);
          p.resolve({ step: msg.step, buffered: msg.buffered });
        }
        break;
      }
      case "error": {
        const err: ServerError = msg;
        const p = err.id !== undefined ? this.pending.get(String(err.id)) : undefined;
        if (p && err.id !== undefined) {
          this.pending.delete(String(err.id));
          p.reject(err);
        } else {
          this.on.error?.(err);
        }
        break;
      }
      case "suggestion": {
        const p = this.pending.get(String(msg.id));
        if (p) {
          this.pending.delete(String(msg.id));
          (p.resolve as unknown as (m: Suggestion) => void)(msg);
        }
        break;
      }
      case "chat":
        this.on.chat?.(msg);
        break;
      case "forfeit":
        this.on.forfeit?.(msg);
        break;
      case "rematch_vote":
        this.on.rematchVote?.(Array.isArray(msg.seats) ? msg.seats : []);
        break;
      case "rematch":
        this.on.rematch?.(msg);
        break;
      case "ended":
        if (msg.ending && typeof msg.ending === "object") this.on.ended?.(msg.ending);
        break;
      case "redirect":
        // the server closes this socket with 4010 next; onclose follows the URL
        this.redirectTo = typeof msg.url === "string" ? redirectUrl(msg.url, this.url) : null;
        break;
      case "replaced":
        // the server closes this socket with 4001 next; onclose reports it
        break;
      default:
        break; // pong, and anything newer than this client
    }
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    const base = Math.min(this.opts.backoffMax, this.opts.backoffStart * 2 ** this.attempts);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempts++;
    const secs = Math.max(1, Math.round(delay / 1000));
    this.setStatus("reconnecting", `Connection lost; retrying in ${secs} s…`);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.open();
    }, delay);
  }

  private startPing(): void {
    this.pingTimer = setInterval(() => {
      if (this.send({ type: "ping", id: this.nextId++ }) && this.silenceTimer === null) {
        this.silenceTimer = setTimeout(() => {
          // no answer at all: the link is dead even if the socket does not know it yet
          this.silenceTimer = null;
          const ws = this.ws;
          if (ws) {
            ws.onclose?.({ code: 4000, reason: "no pong" });
            ws.close();
          }
        }, this.opts.pingTimeout);
      }
    }, this.opts.pingInterval);
  }

  private heard(): void {
    if (this.silenceTimer !== null) {
      clearTimeout(this.silenceTimer);
      this.silenceTimer = null;
    }
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.pingTimer !== null) clearInterval(this.pingTimer);
    if (this.silenceTimer !== null) clearTimeout(this.silenceTimer);
    this.retryTimer = this.pingTimer = this.silenceTimer = null;
  }

  private failPending(err: ServerError): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(err);
  }

  private setStatus(status: LinkStatus, detail: string): void {
    this.status = status;
    this.on.status?.(status, detail);
  }
}
