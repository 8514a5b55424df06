/**
 * The tactical screen's reading of the legal list: which orders, launches, attacks, transfers and purchases the
 * server offers, the engine's notes on them, and the match of a player's choice (a ship and a burn, a launch
 * kind and boost, a target) to exactly one legal entry. Also the burn-arrow geometry around the drift hex and
 * the key map of the help text. Pure functions over plain data (no DOM), so node tests cover them.
 *
 * It never builds an action: every action it returns is one of the entries it was given.
 */
import { DIRECTIONS, type Hex, parseKey } from "../shell/hex";
import type { CourseWarning, Notes, OrderNote as CourseNote } from "../generated/tactical";
import { notesReader } from "../shell/notes";
import type { LegalEntry } from "../shell/screen";

/** The engine's notes on legal entries (annotate.py), generated from the Python side (web/src/generated/tactical.ts):
 *  an order's course preview, one of its warnings (docs/tactical.md, "Course warnings"), an attack's odds. */
export type { CourseWarning, Notes, Odds as OddsBlock, OrderNote as CourseNote } from "../generated/tactical";
/** The engine's note on a legal entry whose action is a `type` (annotate.py; the generated `Notes`), if any. */
export const noteOf = notesReader<Notes>();

/** The warnings of a note that are risks to the ship (a capture is good news, not a risk). */
export function risksOf(n: CourseNote | null | undefined): CourseWarning[] {
  const w = n?.warnings;
  return Array.isArray(w) ? w.filter((x) => x && typeof x.text === "string" && x.kind !== "capture") : [];
}

/** Every warning of a note, risks and good news, as the engine wrote them. */
export function warningsOf(n: CourseNote | null | undefined): CourseWarning[] {
  const w = n?.warnings;
  return Array.isArray(w) ? w.filter((x) => x && typeof x.text === "string") : [];
}

export interface OrderChoice {
  burn: number | null;
  overload: number | null;
  land: boolean;
  weak: string[];
}

export const COAST: OrderChoice = { burn: null, overload: null, land: false, weak: [] };

type Act = LegalEntry["action"];

const field = <T>(a: Act, name: string): T => a[name] as T;

export function ordersOf(legal: LegalEntry[], ship: string): LegalEntry[] {
  return legal.filter((e) => e.action.type === "order" && field<string>(e.action, "ship") === ship);
}

/** Ships that still have an order to give (the legal list offers one). */
export function shipsToOrder(legal: LegalEntry[]): string[] {
  const out: string[] = [];
  for (const e of legal) {
    if (e.action.type === "order") {
      const s = field<string>(e.action, "ship");
      if (!out.includes(s)) out.push(s);
    }
  }
  return out;
}

const sameWeak = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

/**
 * The legal order of `ship` for a choice: the exact entry, else the same burn and overload with the land flag
 * the engine requires (an orbit of your target forces it), else null (the choice is not legal).
 */
export function matchOrder(legal: LegalEntry[], ship: string, c: OrderChoice): LegalEntry | null {
  const mine = ordersOf(legal, ship);
  const same = (e: LegalEntry): boolean =>
    field<number | null>(e.action, "burn") === c.burn && field<number | null>(e.action, "overload") === c.overload;
  const exact = mine.find(
    (e) => same(e) && field<boolean>(e.action, "land") === c.land && sameWeak(field<string[]>(e.action, "weak") ?? [], c.weak),
  );
  if (exact) return exact;
  const noWeak = mine.find((e) => same(e) && field<boolean>(e.action, "land") === c.land && (field<string[]>(e.action, "weak") ?? []).length === 0);
  if (noWeak && c.weak.length === 0) return noWeak;
  return mine.find((e) => same(e) && (field<string[]>(e.action, "weak") ?? []).length === 0) ?? null;
}

/** The weak-gravity choices the legal list offers for this burn, overload and land flag: each distinct `weak`
 *  set (none first, then single hexes in hex order, then larger sets). */
export function weakVariants(legal: LegalEntry[], ship: string, c: OrderChoice): string[][] {
  const out: string[][] = [];
  for (const e of ordersOf(legal, ship)) {
    if (field<number | null>(e.action, "burn") !== c.burn || field<number | null>(e.action, "overload") !== c.overload) continue;
    if (field<boolean>(e.action, "land") !== c.land) continue;
    const w = [...(field<string[]>(e.action, "weak") ?? [])].sort();
    if (!out.some((x) => sameWeak(x, w))) out.push(w);
  }
  return out.sort((a, b) => a.length - b.length || a.join(";").localeCompare(b.join(";")));
}

/** V: the next weak-gravity choice after the current one (per hex, as the help text has the player choose
 *  which single weak hex to ignore), cycling back to ignoring none; null when the course offers no choice. */
export function nextWeak(legal: LegalEntry[], ship: string, c: OrderChoice): string[] | null {
  const all = weakVariants(legal, ship, c);
  if (all.length < 2) return null;
  const i = all.findIndex((w) => sameWeak(w, c.weak));
  return all[(i + 1) % all.length]!;
}

/** Does the ship have a landing variant of this burn (the `land` flag)? */
export function hasLandVariant(legal: LegalEntry[], ship: string, burn: number | null): boolean {
  return ordersOf(legal, ship).some((e) => field<number | null>(e.action, "burn") === burn && field<boolean>(e.action, "land"));
}

export function choiceOf(a: Act): OrderChoice {
  return {
    burn: field<number | null>(a, "burn") ?? null,
    overload: field<number | null>(a, "overload") ?? null,
    land: Boolean(field<boolean>(a, "land")),
    weak: [...(field<string[]>(a, "weak") ?? [])],
  };
}

/** A burn arrow: the direction, the hex it points at (the burn's destination), whether it is offered. */
export interface BurnArrow {
  dir: number;
  at: Hex;
  legal: boolean;
  crash: boolean;
  /** The course has a warning (a ram, ordnance, enemy planetary defense): drawn amber. */
  risk?: boolean;
}

/**
 * The six arrows around the drift hex (the coast destination): arrow d points at drift + direction d, offered
 * when the legal list has that single burn (its note then gives the true destination, which a landing or
 * takeoff may move; the arrow still sits around the drift hex as the help text draws it).
 */
export function burnArrows(legal: LegalEntry[], ship: string): { drift: Hex | null; arrows: BurnArrow[] } {
  const mine = ordersOf(legal, ship);
  const coast = mine.find((e) => field(e.action, "burn") === null && !field(e.action, "land"));
  const note = noteOf(coast, "order");
  const drift = note ? parseKey(note.destination) : null;
  const arrows: BurnArrow[] = [];
  for (let d = 0; d < 6; d++) {
    const e = mine.find((x) => field(x.action, "burn") === d && field(x.action, "overload") === null);
    const at: Hex = drift ? [drift[0] + DIRECTIONS[d]![0], drift[1] + DIRECTIONS[d]![1]] : [0, 0];
    const n = noteOf(e, "order");
    arrows.push({ dir: d, at, legal: Boolean(e), crash: Boolean(n && (n.outcome === "crash" || (n.off_map && !n.escapes))), risk: risksOf(n).length > 0 });
  }
  return { drift, arrows };
}

/**
 * The six overload arrows of a ship whose burn `burn` is chosen: arrow d points from the burn's hex (drift +
 * burn) to drift + burn + d, offered when the legal list has that burn with overload d.
 */
export function overloadArrows(legal: LegalEntry[], ship: string, burn: number): { drift: Hex | null; arrows: BurnArrow[] } {
  const base = burnArrows(legal, ship);
  if (!base.drift) return base;
  const mine = ordersOf(legal, ship);
  const from: Hex = [base.drift[0] + DIRECTIONS[burn]![0], base.drift[1] + DIRECTIONS[burn]![1]];
  const arrows: BurnArrow[] = [];
  for (let d = 0; d < 6; d++) {
    const e = mine.find((x) => field(x.action, "burn") === burn && field(x.action, "overload") === d);
    const n = noteOf(e, "order");
    arrows.push({ dir: d, at: [from[0] + DIRECTIONS[d]![0], from[1] + DIRECTIONS[d]![1]], legal: Boolean(e),
      crash: Boolean(n && (n.outcome === "crash" || (n.off_map && !n.escapes))), risk: risksOf(n).length > 0 });
  }
  return { drift: from, arrows };
}

/** May the ship overload on top of this burn (the legal list has some overload of it)? */
export function canOverload(legal: LegalEntry[], ship: string, burn: number | null): boolean {
  return ordersOf(legal, ship).some((e) => field(e.action, "overload") !== null && (burn === null || field(e.action, "burn") === burn));
}

/**
 * The direction of the arrow under a point (world coordinates), or null: a point within `reach` of the hex
 * an offered arrow points at, or within 0.6 of the arrow's middle (the hexside it crosses). `from` is the hex
 * the arrows leave (the drift hex).
 */
export function arrowAt(arrows: BurnArrow[], px: [number, number], toPixel: (h: Hex) => [number, number], reach = 0.9, from: Hex | null = null): number | null {
  let best: number | null = null;
  let bestD = Infinity;
  const [fx, fy] = from ? toPixel(from) : [NaN, NaN];
  for (const a of arrows) {
    if (!a.legal) continue;
    const [x, y] = toPixel(a.at);
    const d = Math.hypot(x - px[0], y - px[1]);
    const mid = from ? Math.hypot((x + fx) / 2 - px[0], (y + fy) / 2 - px[1]) : Infinity;
    const score = Math.min(d < reach ? d : Infinity, mid < 0.6 ? mid : Infinity);
    if (score < bestD) {
      bestD = score;
      best = a.dir;
    }
  }
  return best;
}

/** The next choice after pressing burn key `d` (Shift: overload) on a current choice. */
export function pressBurn(c: OrderChoice, d: number, shift: boolean): OrderChoice {
  if (shift) {
    if (c.burn === null) return { ...c, burn: d, overload: null, land: false, weak: [] };
    return { ...c, overload: c.overload === d ? null : d, land: false, weak: [] };
  }
  if (c.burn === d && c.overload === null) return { ...COAST };
  return { burn: d, overload: null, land: false, weak: [] };
}

/** What a key means on the tactical screen (the help text's controls); null: not ours. */
export type Intent =
  | { kind: "burn"; dir: number; overload: boolean }
  | { kind: "clear" }
  | { kind: "next-ship"; back: boolean }
  | { kind: "confirm" }
  | { kind: "cancel" }
  | { kind: "launch"; ordnance: "mine" | "torpedo" | "nuke" }
  | { kind: "boost"; dir: number }
  | { kind: "target"; step: 1 | -1 }
  | { kind: "attacker"; step: 1 | -1 }
  | { kind: "focus-enemy" }
  | { kind: "centre-fleet" }
  | { kind: "whole-map" }
  | { kind: "assist" }
  | { kind: "apply-plan" }
  | { kind: "hint" }
  | { kind: "land" }
  | { kind: "weak" }
  | { kind: "undo" }
  | { kind: "overload-mode" }
  | { kind: "reach" };

/** Shift+digit arrives as a symbol on most layouts: the US row, keyed by `code` when present. */
const DIGIT_CODES: Record<string, number> = { Digit1: 1, Digit2: 2, Digit3: 3, Digit4: 4, Digit5: 5, Digit6: 6, Digit0: 0,
  Numpad1: 1, Numpad2: 2, Numpad3: 3, Numpad4: 4, Numpad5: 5, Numpad6: 6, Numpad0: 0 };
const SHIFTED: Record<string, number> = { "!": 1, "@": 2, "#": 3, $: 4, "%": 5, "^": 6, ")": 0 };

export function keyIntent(e: { key: string; code?: string; shiftKey: boolean }, phase: string): Intent | null {
  const k = e.key;
  let digit: number | null = null;
  if (/^[0-6]$/.test(k)) digit = Number(k);
  else if (k in SHIFTED) digit = SHIFTED[k]!;
  else if (e.code && e.code in DIGIT_CODES && e.shiftKey) digit = DIGIT_CODES[e.code]!;
  if (digit !== null) {
    // keys 1-6 are directions 0-5 in the order the arrows are drawn: 1 E, 2 NE, 3 NW, 4 W, 5 SW, 6 SE
    if (phase === "ordnance") return digit === 0 ? { kind: "boost", dir: -1 } : { kind: "boost", dir: digit - 1 };
    if (digit === 0) return { kind: "clear" };
    return { kind: "burn", dir: digit - 1, overload: e.shiftKey };
  }
  switch (k) {
    case "Tab": return { kind: "next-ship", back: e.shiftKey };
    case "Enter": return { kind: "confirm" };
    case "Escape": return { kind: "cancel" };
    case "n": case "N": return phase === "ordnance" ? { kind: "launch", ordnance: "mine" } : null;
    case "t": case "T": return phase === "ordnance" ? { kind: "launch", ordnance: "torpedo" } : null;
    case "k": case "K": return phase === "ordnance" ? { kind: "launch", ordnance: "nuke" } : null;
    case "[": return { kind: "target", step: -1 };
    case "]": return { kind: "target", step: 1 };
    case "{": return { kind: "attacker", step: -1 };
    case "}": return { kind: "attacker", step: 1 };
    case "e": case "E": return { kind: "focus-enemy" };
    case "h": case "H": return { kind: "centre-fleet" };
    case "Home": return { kind: "whole-map" };
    case "p": case "P": return { kind: "assist" };
    case "b": case "B": return { kind: "apply-plan" };
    case "i": case "I": return { kind: "hint" };
    case "g": case "G": return { kind: "land" };
    case "v": case "V": return { kind: "weak" };
    case "z": case "Z": case "Backspace": return { kind: "undo" };
    case "o": case "O": return phase === "astrogation" ? { kind: "overload-mode" } : null;
    case "r": case "R": return { kind: "reach" };
    default: return null;
  }
}

/** "q,r" to a hex, tolerating a list. */
export function hexOf(h: string | readonly number[]): Hex {
  return typeof h === "string" ? parseKey(h) : [h[0]!, h[1]!];
}
