/**
 * The server's HTTP routes as typed calls (docs/server.md): the games catalogue, rooms (create, join, show,
 * list), a game's static board. Errors come back as `ApiError` with the server's code and sentence.
 *
 * Owns HTTP calls only.
 */

export interface OptionInfo {
  name: string;
  type: "str" | "int" | "bool" | "float" | string;
  default: unknown;
  doc: string;
  choices: unknown[] | null;
  minimum: number | null;
  maximum: number | null;
  ruling: boolean;
}

export interface ScenarioInfo {
  id: string;
  title: string;
  players: number[];
  summary: string;
}

export interface GameInfo {
  id: string;
  title: string;
  players: [number, number];
  hidden_information: boolean;
  simultaneous_moves: boolean;
  scenarios: ScenarioInfo[];
  options: OptionInfo[];
  bots: string[];
  [k: string]: unknown;
}

export interface RoomListEntry {
  code: string;
  match: number;
  game: string;
  options: Record<string, unknown>;
  status: "open" | "live" | "finished";
  created_at: number | string;
  seats: { seat: number; kind: string; spec: string; taken: boolean; name: string | null }[];
}

export interface SeatGrant {
  code: string;
  match: number;
  seat: number | null;
  token: string | null;
  room: Record<string, unknown>;
}

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

/** A bot spec in words: "bot:normal" -> "Normal bot". */
export function botName(spec: string): string {
  const name = spec.replace(/^bot:/, "").split(":")[0] ?? spec;
  return `${name[0]?.toUpperCase() ?? ""}${name.slice(1)} bot`;
}
