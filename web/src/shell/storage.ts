/**
 * What the browser remembers between visits (localStorage): each room's seat token (so a reload or a later
 * visit reconnects to the same seat), the recent matches list, and small preferences (mute).
 *
 * Owns the storage keys and their JSON shapes only; a storage that throws (private mode, quota) is treated as
 * empty and never breaks the page.
 */

export interface SeatKey {
  token: string;
  seat: number;
  game?: string;
}

export interface RecentMatch {
  code: string;
  game: string;
  /** "play" (a seat), "watch" or "replay". */
  role: "play" | "watch" | "replay";
  seat: number | null;
  match: number;
  /** A short description: the scenario and the opponents. */
  label: string;
  at: number;
}

const SEAT_PREFIX = "deltav.seat.";
const RECENT = "deltav.recent";
const MAX_RECENT = 12;

function read<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage full or disabled: the page still works, it just forgets */
  }
}

export function seatKey(code: string): SeatKey | null {
  const k = read<SeatKey>(SEAT_PREFIX + code.toUpperCase());
  return k && typeof k.token === "string" && typeof k.seat === "number" ? k : null;
}

export function saveSeatKey(code: string, key: SeatKey): void {
  write(SEAT_PREFIX + code.toUpperCase(), key);
}

export function forgetSeatKey(code: string): void {
  write(SEAT_PREFIX + code.toUpperCase(), null);
}

export function recentMatches(): RecentMatch[] {
  const list = read<RecentMatch[]>(RECENT);
  return Array.isArray(list) ? list.filter((m) => m && typeof m.code === "string") : [];
}

/** Remember a match (newest first; one entry per room and match). A match this browser played stays "play"
 *  (with its seat) when it is later watched or replayed here: you played it. */
export function rememberMatch(m: RecentMatch): void {
  const all = recentMatches();
  const old = all.find((x) => x.code === m.code && x.match === m.match);
  const rest = all.filter((x) => x !== old);
  const kept = old?.role === "play" && m.role !== "play" ? { ...m, role: old.role, seat: old.seat, label: old.label } : m;
  write(RECENT, [kept, ...rest].slice(0, MAX_RECENT));
}

export function preference(name: string, fallback: boolean): boolean {
  const v = read<boolean>(`deltav.pref.${name}`);
  return typeof v === "boolean" ? v : fallback;
}

export function setPreference(name: string, value: boolean): void {
  write(`deltav.pref.${name}`, value);
}

/** The name this browser plays under (shown to the other players), or "" when none was given. */
export function playerName(): string {
  const v = read<string>("deltav.name");
  return typeof v === "string" ? v.slice(0, 40) : "";
}

export function setPlayerName(name: string): void {
  const clean = name.split(/\s+/).filter(Boolean).join(" ").slice(0, 40);
  write("deltav.name", clean || null);
}

/** Has this browser been offered the first-game guide of a title (game id)? */
export function guideOffered(game: string): boolean {
  const v = read<string[]>("deltav.guides");
  return Array.isArray(v) && v.includes(game);
}

export function setGuideOffered(game: string): void {
  const v = read<string[]>("deltav.guides");
  const list = Array.isArray(v) ? v.filter((x) => typeof x === "string" && x !== game) : [];
  write("deltav.guides", [...list, game]);
}

/** Was the briefing of this match shown to this seat in this browser? (The newest 50 are kept.) */
export function briefed(code: string, match: number, seat: number): boolean {
  const v = read<string[]>("deltav.briefed");
  return Array.isArray(v) && v.includes(`${code.toUpperCase()}/${match}/${seat}`);
}

export function setBriefed(code: string, match: number, seat: number): void {
  const key = `${code.toUpperCase()}/${match}/${seat}`;
  const v = read<string[]>("deltav.briefed");
  const list = Array.isArray(v) ? v.filter((x) => typeof x === "string" && x !== key) : [];
  write("deltav.briefed", [...list, key].slice(-50));
}

/** The briefing and the guide come by themselves unless `deltav.pref.intro` is false (the browser tests turn
 *  them off, except the tests of them); the help overlay shows both either way. */
export function introsOn(): boolean {
  return preference("intro", true);
}
