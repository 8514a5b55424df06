/**
 * The server's HTTP routes as typed calls (docs/server.md): the games catalogue, rooms (create, join, show,
 * list), a game's static board. Errors come back as `ApiError` with the server's code and sentence.
 *
 * Owns HTTP calls only.
 */
import type { Briefing, GameEntry as GameInfo, RoomListEntry, SeatGrant } from "../generated/api";

/** The answers' shapes, generated from the Python side (web/src/generated/api.ts, docs/server.md). */
export type { Briefing, GameEntry as GameInfo, OptionInfo, RoomListEntry, ScenarioInfo, SeatGrant } from "../generated/api";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let r: Response;
  try {
    r = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, "offline", "The server cannot be reached. Is it running?");
  }
  let data: unknown = null;
  try {
    data = await r.json();
  } catch {
    /* not JSON */
  }
  if (!r.ok) {
    const d = (data ?? {}) as { error?: string; message?: string };
    throw new ApiError(r.status, d.error ?? "http_" + r.status, d.message ?? `The server answered ${r.status}.`, d);
  }
  return data as T;
}

let gamesCache: Promise<GameInfo[]> | null = null;

/** `GET /games`, fetched once per page. */
export function games(): Promise<GameInfo[]> {
  gamesCache ??= call<GameInfo[]>("GET", "/games").catch((e) => {
    gamesCache = null;
    throw e;
  });
  return gamesCache;
}

export function createRoom(req: {
  game: string;
  options?: Record<string, unknown>;
  seats: string[];
  seat?: number;
  name?: string;
  seed?: number;
  /** The turn timer (docs/server.md): seconds per move and what happens when they run out. */
  clock?: { turn_seconds: number; on_timeout: "forfeit" | "bot" } | null;
  /** Listed in the lobby for anyone to join or watch (default: private, joined by its code or invite link). */
  public?: boolean;
}): Promise<SeatGrant> {
  return call<SeatGrant>("POST", "/rooms", req);
}

export function joinRoom(code: string, seat?: number, name?: string): Promise<SeatGrant> {
  const body: Record<string, unknown> = {};
  if (seat !== undefined) body.seat = seat;
  if (name) body.name = name;
  return call<SeatGrant>("POST", `/rooms/${encodeURIComponent(code)}/join`, body);
}

export function room(code: string): Promise<Record<string, unknown> & { game: string; options: Record<string, unknown>; status: string; match: number }> {
  return call("GET", `/rooms/${encodeURIComponent(code)}`);
}

export function rooms(status: "open" | "live" | "finished"): Promise<RoomListEntry[]> {
  return call<RoomListEntry[]>("GET", `/rooms?status=${status}`);
}

/** The query string of a game's options (`GET /games/{game}/board?...`). */
export function optionQuery(options: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(options)) {
    if (v === null || v === undefined || typeof v === "object") continue;
    q.set(k, String(v));
  }
  return q.toString();
}

export async function board(game: string, options: Record<string, unknown>): Promise<unknown | null> {
  try {
    return await call<unknown>("GET", `/games/${encodeURIComponent(game)}/board?${optionQuery(options)}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** A scenario's title, or its id when the catalogue does not know it. */
export function scenarioTitle(info: GameInfo | undefined, id: unknown): string {
  const s = info?.scenarios.find((x) => x.id === id);
  return s ? s.title : typeof id === "string" ? id : "";
}

/** The bots a player picks by level; every other bot of the server's list is an "advanced" one. */
export const LEVEL_BOTS = ["bot:easy", "bot:normal", "bot:hard"];

/** Plain explanations of the bots every game has (a game's own bots get a generic line). */
const BOT_WORDS: Record<string, string> = {
  easy: "a gentle opponent for a first game",
  normal: "a fair opponent",
  hard: "the strongest opponent: it thinks longer before each move",
  random: "plays any legal move at random (for testing the game, not for a real match)",
  mcts: "a search bot: it tries many made-up continuations of each move and keeps the one that did best (Monte Carlo tree search); slow",
  ismcts: "a search bot for games with secrets: the same search, guessing what it cannot see (information-set Monte Carlo tree search); slow",
  duct: "a search bot for turns where everybody chooses at once (decoupled search); slow",
  scripted: "this game's fixed rule-of-thumb play",
};

/** A bot spec in words, as the server names a bot seat in every text of a match (`server/rooms.py` bot_name):
 *  "bot:normal" -> "Normal bot", "bot:ismcts:iterations=200" -> "Ismcts bot". */
export function botName(spec: string): string {
  const name = spec.replace(/^bot:/, "").split(":")[0] ?? spec;
  return `${name[0]?.toUpperCase() ?? ""}${name.slice(1)} bot`;
}

/** What a bot is, in a sentence a player understands. */
export function botHelp(spec: string): string {
  const name = spec.replace(/^bot:/, "").split(":")[0] ?? spec;
  return BOT_WORDS[name] ?? "one of this game's own bots, with its own way of playing";
}

/** The seats' display names, the one numbering of players every page uses, the same as the server's texts
 *  (`server/rooms.py` seat_names): the name a person gave, a bot by its level ("Hard bot"), else "Player N"
 *  counted from 1. `labels` are the snapshot's seat labels ("human", "bot:hard"), used when the room's seats
 *  are not known (a replay of an older match). */
export function seatNames(seats: readonly { kind?: string; spec?: string; name?: string | null }[], labels: readonly string[] = []): string[] {
  const n = Math.max(seats.length, labels.length);
  const base: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = seats[i];
    const spec = s?.spec ?? labels[i] ?? "";
    base.push(s?.name ? s.name : (s ? s.kind !== "human" : spec.startsWith("bot:")) && spec ? botName(spec) : `Player ${i + 1}`);
  }
  return distinctNames(base);
}

/** Each name that two seats share numbered in seat order ("Easy bot 1", "Easy bot 2"), so every text says
 *  which one (the server's `distinct_names`). */
export function distinctNames(names: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const n of names) count.set(n, (count.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((n) => {
    if ((count.get(n) ?? 0) < 2) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return `${n} ${k}`;
  });
}

/** A scenario briefing (`GET /rooms/{code}/briefing?match=N&seat=S`, `Game.briefing`): what the match is about,
 *  each side's forces and goal, what wins. */
export function briefing(code: string, match: number, seat: number | null): Promise<Briefing> {
  const q = new URLSearchParams({ match: String(match) });
  if (seat !== null) q.set("seat", String(seat));
  return call<Briefing>("GET", `/rooms/${encodeURIComponent(code)}/briefing?${q}`);
}

/** A quick-match queue entry's state (docs/server.md, "Quick match: the queue"): waiting, or put in a room. */
export interface QueueWaiting {
  status: "waiting";
  ticket?: string;
  game: string;
  options: Record<string, unknown>;
  seats: number;
  waited: number;
  waiting: number;
  offer_seconds: number;
  bot_offer: { bots: string[]; fill: boolean } | null;
  bots_agreed: string | null;
  poll_seconds: number;
}

export interface QueueMatched {
  status: "matched";
  ticket?: string;
  game: string;
  code: string;
  seat: number;
  token: string;
  room: Record<string, unknown> | null;
}

export type QueueState = QueueWaiting | QueueMatched;

/** `POST /queue`: join the quick-match queue of a game (its default scenario unless one is named). */
export function joinQueue(req: { game: string; scenario?: string; players?: number; name?: string }): Promise<QueueState & { ticket: string }> {
  return call("POST", "/queue", req);
}

/** `POST /queue/poll`: still here; where the entry stands (the ticket in the body: never in an address). */
export function pollQueue(ticket: string): Promise<QueueState> {
  return call("POST", "/queue/poll", { ticket });
}

/** `POST /queue/cancel`: leave the queue. */
export function leaveQueue(ticket: string): Promise<{ status: "cancelled" }> {
  return call("POST", "/queue/cancel", { ticket });
}

/** `POST /queue/bots`: agree to start a 3+ seat match with this bot in the empty seats. */
export function agreeQueueBots(ticket: string, bot: string): Promise<QueueState> {
  return call("POST", "/queue/bots", { ticket, bot });
}
