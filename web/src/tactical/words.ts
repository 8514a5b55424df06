/**
 * The tactical screen's words for what a player reads: ships by class and a short label ("your frigate",
 * "Ben's corvette B"), places by the bodies on the map ("in orbit of Mars", "3 hexes NE of Sol"), burn
 * directions as the arrows are drawn on the map, north up (key 1 points down-right: "↘ 1", SE), velocities as
 * a speed and a compass heading. Pure functions over the view and the board
 * document (no DOM), so node tests cover them.
 *
 * Owns wording only. It never reads a secret (only what the view and the board hold) and computes no rule.
 */
import { DIRECTIONS, type Hex, distance, key, parseKey, pixel } from "../shell/hex";
import type { Board } from "./boardData";

/**
 * The six burn directions (the engine's 0-5, keys 1-6) as their arrows point on the map, which is drawn with
 * flat-top hexes and north up: key 1 points down-right (SE), 2 up-right (NE), 3 straight up (N), 4 up-left
 * (NW), 5 down-left (SW), 6 straight down (S). (The engine's own names, E NE NW W SW SE, are those of a
 * pointy-top grid and point elsewhere on this map.)
 */
export const DIR_ARROW = ["↘", "↗", "↑", "↖", "↙", "↓"] as const;
export const DIR_WORD = ["SE", "NE", "N", "NW", "SW", "S"] as const;

/** "↗ 2": a burn arrow's glyph and key, as the pad and the map label it. */
export function dirKey(d: number): string {
  return `${DIR_ARROW[d] ?? "?"} ${d + 1}`;
}

/** A burn choice in words: "coast", "burn NE (2)", "burn NE (2) + overload N (3)". */
export function burnWords(burn: number | null, overload: number | null = null): string {
  if (burn === null) return "coast";
  const one = (d: number): string => `${DIR_WORD[d] ?? "?"} (${d + 1})`;
  return overload === null ? `burn ${one(burn)}` : `burn ${one(burn)} + overload ${one(overload)}`;
}

/** A heading on the map (north up) from a vector in hexes: one of the eight compass points, by the angle it is
 *  drawn at. */
export function heading(v: readonly number[]): string {
  const [x, y] = pixel([v[0] ?? 0, v[1] ?? 0]);
  const a = (Math.atan2(-y, x) * 180) / Math.PI; // screen y grows downward; a: counter-clockwise from east
  const names = ["E", "NE", "N", "NW", "W", "SW", "S", "SE"];
  return names[((Math.round(a / 45) % 8) + 8) % 8]!;
}

/** A velocity in words: "stopped", "speed 1 S", "speed 3 NW". */
export function velocityWords(v: readonly number[]): string {
  const speed = distance([0, 0], [v[0] ?? 0, v[1] ?? 0]);
  return speed === 0 ? "stopped" : `speed ${speed} ${heading(v)}`;
}

// --- ships ---------------------------------------------------------------------------------------------------

/** The part of a ship the words need (the view's ship record). */
export interface ShipLike {
  id: string;
  owner: number;
  type: string;
}

const CLASS: Record<string, string> = { orbitalBase: "orbital base", dreadnaught: "dreadnaught" };

/** A ship class as a word ("frigate", "orbital base"). */
export function className(type: string): string {
  return CLASS[type] ?? type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/**
 * Short labels of every ship: its class, and a letter when its side has several of that class ("corvette A",
 * "corvette B"), lettered in the order the view lists them (ship ids in creation order), destroyed ships
 * included so a label never moves to another ship. `ships` is every ship of the view.
 */
export function shipLabels(ships: readonly ShipLike[]): Map<string, string> {
  const byKind = new Map<string, ShipLike[]>();
  for (const s of ships) {
    const k = `${s.owner}|${s.type}`;
    byKind.set(k, [...(byKind.get(k) ?? []), s]);
  }
  const out = new Map<string, string>();
  for (const group of byKind.values()) {
    group.forEach((s, i) => out.set(s.id, group.length > 1 ? `${className(s.type)} ${String.fromCharCode(65 + (i % 26))}` : className(s.type)));
  }
  return out;
}

/**
 * A ship for a reader: "your frigate", "the enemy corvette B" (a seat's view), "Ann's frigate" (a spectator's,
 * or `owned` forced). `seatName` gives a seat's display name.
 */
export function shipName(s: ShipLike, labels: Map<string, string>, viewer: number | null, seatName: (seat: number) => string): string {
  const label = labels.get(s.id) ?? className(s.type);
  if (viewer === null) return `${possessive(seatName(s.owner))} ${label}`;
  return s.owner === viewer ? `your ${label}` : `the enemy ${label}`;
}

/** "Ann's", "Players'": a name's possessive. */
export function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** Capitalise the first letter (a name at the start of a sentence). */
export function cap(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

// --- places --------------------------------------------------------------------------------------------------

/** The board's lookups the place words need (built once per board). */
export interface PlaceIndex {
  surface: Map<string, string>;
  gravity: Map<string, string>;
  base: Map<string, { body: string; side: string }>;
  bodies: { name: string; center: Hex; radius: number }[];
  asteroids: Set<string>;
}

export function placeIndex(board: Board): PlaceIndex {
  const surface = new Map<string, string>();
  const bodies = board.bodies.map((b) => ({ name: b.name, center: b.center, radius: b.surface_radius }));
  for (const b of board.bodies) for (const h of b.surface) surface.set(key(h), b.name);
  const gravity = new Map<string, string>();
  for (const g of board.gravity) gravity.set(key(g.hex), g.body);
  const base = new Map<string, { body: string; side: string }>();
  for (const b of board.bases) {
    const body = board.bodies.find((x) => x.name === b.owner);
    const side = body ? heading([b.hex[0] - body.center[0], b.hex[1] - body.center[1]]) : "";
    base.set(key(b.hex), { body: b.owner, side });
  }
  return { surface, gravity, base, bodies, asteroids: new Set(board.asteroids.map(key)) };
}

/**
 * A hex in words, by what is there or the nearest body: "on Mars", "at the NE base of Venus", "in the gravity
 * of Terra", "in the asteroids, 4 hexes S of Ceres", "5 hexes NW of Sol". Never the engine's "q,r".
 */
export function placeWords(h: Hex | string, idx: PlaceIndex): string {
  const hex = typeof h === "string" ? parseKey(h) : h;
  const k = key(hex);
  const surf = idx.surface.get(k);
  if (surf) return `on ${surf}`;
  const base = idx.base.get(k);
  if (base) return `at the ${base.side ? `${base.side} ` : ""}base of ${base.body}`;
  const grav = idx.gravity.get(k);
  if (grav) return `in the gravity of ${grav}`;
  const near = nearestBody(hex, idx);
  const where = near ? `${near.hexes} ${near.hexes === 1 ? "hex" : "hexes"} ${near.dir} of ${near.name}` : "in open space";
  return idx.asteroids.has(k) ? `in the asteroids, ${where}` : where;
}

/** The nearest body's name, how many hexes from its surface and the heading from it. */
export function nearestBody(h: Hex, idx: PlaceIndex): { name: string; hexes: number; dir: string } | null {
  let best: { name: string; hexes: number; dir: string } | null = null;
  for (const b of idx.bodies) {
    const d = Math.max(1, distance(h, b.center) - b.radius);
    if (!best || d < best.hexes) best = { name: b.name, hexes: d, dir: heading([h[0] - b.center[0], h[1] - b.center[1]]) };
  }
  return best;
}

/** The direction vector of a burn direction (for tests and the pad). */
export function dirVector(d: number): Hex {
  return DIRECTIONS[d] ?? [0, 0];
}
