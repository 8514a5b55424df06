/**
 * The tactical board document (format deltav-tactical-board/1, made by deltav.games.tactical.board) and the
 * client's lookups over it. `parseBoard` checks the shape and names the first bad field, so a broken document
 * fails loudly instead of drawing half a map.
 *
 * Owns the document's types and indexes only: no drawing, no rules.
 */
import type { Base, Board as BoardDoc, Body, Bounds, Gravity, Scenario } from "../generated/tactical";
import { type Hex, key } from "../shell/hex";

/** The document's parts, generated from the Python side's shape (`deltav.games.tactical.board.BoardJson`:
 *  web/src/generated/tactical.ts). */
export type { Base, Body, Board as BoardDoc, Bounds, Gravity } from "../generated/tactical";

export type Strength = Gravity["strength"];
export type BodyKind = Body["kind"];

/** The board as the client keeps it (`parseBoard`): the document without its grid conventions and help tables (the
 *  help reads those from the document), the scenario's ship labels as words by ship id. */
export interface Board extends Omit<BoardDoc, "grid" | "tables" | "scenario"> {
  scenario: Omit<Scenario, "ship_labels"> & {
    /** The scenario ships' labels ("corvette B") by ship id, from the engine (labels.py); absent in old documents. */
    ship_labels: Record<string, string>;
  };
}

export class BoardError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`board ${field}: ${reason}`);
    this.name = "BoardError";
  }
}

type Json = unknown;

function obj(v: Json, path: string): Record<string, Json> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new BoardError(path, "expected an object");
  return v as Record<string, Json>;
}
function arr(v: Json, path: string): Json[] {
  if (!Array.isArray(v)) throw new BoardError(path, "expected a list");
  return v;
}
function int(v: Json, path: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new BoardError(path, `expected an integer, got ${JSON.stringify(v)}`);
  return v;
}
function str(v: Json, path: string): string {
  if (typeof v !== "string") throw new BoardError(path, `expected a string, got ${JSON.stringify(v)}`);
  return v;
}
function oneOf<T extends string>(v: Json, path: string, allowed: readonly T[]): T {
  if (!allowed.includes(v as T)) throw new BoardError(path, `expected one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}
function hexOf(v: Json, path: string): [number, number] {
  const a = arr(v, path);
  if (a.length !== 2) throw new BoardError(path, "expected [q, r]");
  return [int(a[0], `${path}[0]`), int(a[1], `${path}[1]`)];
}
const hexes = (v: Json, path: string): [number, number][] => arr(v, path).map((h, i) => hexOf(h, `${path}[${i}]`));

/** Check a board document; throws BoardError(field, reason) on the first bad field. */
export function parseBoard(doc: Json): Board {
  const o = obj(doc, "document");
  if (o.format !== "deltav-tactical-board/1") throw new BoardError("format", `expected deltav-tactical-board/1, got ${JSON.stringify(o.format)}`);
  const b = obj(o.bounds, "bounds");
  const bounds: Bounds = {
    minQ: int(b.minQ, "bounds.minQ"),
    maxQ: int(b.maxQ, "bounds.maxQ"),
    minR: int(b.minR, "bounds.minR"),
    maxR: int(b.maxR, "bounds.maxR"),
  };
  if (bounds.minQ > bounds.maxQ || bounds.minR > bounds.maxR) throw new BoardError("bounds", "min above max");
  const size = obj(o.size, "size");
  const bodies = arr(o.bodies, "bodies").map((raw, i): Body => {
    const p = `bodies[${i}]`;
    const x = obj(raw, p);
    return {
      name: str(x.name, `${p}.name`),
      kind: oneOf(x.kind, `${p}.kind`, ["star", "planet", "moon", "minor"] as const),
      center: hexOf(x.center, `${p}.center`),
      surface_radius: int(x.surface_radius, `${p}.surface_radius`),
      surface: hexes(x.surface, `${p}.surface`),
      gravity: oneOf(x.gravity, `${p}.gravity`, ["full", "weak", "none"] as const),
      destructive: x.destructive === true,
    };
  });
  const names = new Set(bodies.map((x) => x.name));
  const gravity = arr(o.gravity, "gravity").map((raw, i): Gravity => {
    const p = `gravity[${i}]`;
    const x = obj(raw, p);
    const dir = int(x.dir, `${p}.dir`);
    if (dir < 0 || dir > 5) throw new BoardError(`${p}.dir`, "expected a direction 0..5");
    const body = str(x.body, `${p}.body`);
    if (!names.has(body)) throw new BoardError(`${p}.body`, `unknown body ${JSON.stringify(body)}`);
    return { hex: hexOf(x.hex, `${p}.hex`), dir, body, strength: oneOf(x.strength, `${p}.strength`, ["full", "weak"] as const) };
  });
  const bases = arr(o.bases, "bases").map((raw, i): Base => {
    const p = `bases[${i}]`;
    const x = obj(raw, p);
    return {
      hex: hexOf(x.hex, `${p}.hex`),
      owner: str(x.owner, `${p}.owner`),
      kind: oneOf(x.kind, `${p}.kind`, ["planetary", "asteroid"] as const),
      station: x.station === true,
      controlled_by: arr(x.controlled_by, `${p}.controlled_by`).map((s, j) => int(s, `${p}.controlled_by[${j}]`)),
      fire_zone: hexes(x.fire_zone, `${p}.fire_zone`),
    };
  });
  const sc = obj(o.scenario, "scenario");
  return {
    format: "deltav-tactical-board/1",
    bounds,
    off_map_margin: int(o.off_map_margin, "off_map_margin"),
    size: { columns: int(size.columns, "size.columns"), rows: int(size.rows, "size.rows"), hexes: int(size.hexes, "size.hexes") },
    bodies,
    gravity,
    bases,
    asteroids: hexes(o.asteroids, "asteroids"),
    scenario: {
      id: str(sc.id, "scenario.id"),
      name: str(sc.name, "scenario.name"),
      summary: str(sc.summary ?? "", "scenario.summary"),
      players: arr(sc.players, "scenario.players").map((raw, i) => {
        const x = obj(raw, `scenario.players[${i}]`);
        return { home: str(x.home, `scenario.players[${i}].home`), target: str(x.target, `scenario.players[${i}].target`), escape_wins: x.escape_wins === true };
      }),
      checkpoints: arr(sc.checkpoints, "scenario.checkpoints").map((c, i) => str(c, `scenario.checkpoints[${i}]`)),
      escape_edge: str(sc.escape_edge, "scenario.escape_edge"),
      planetary_defense: sc.planetary_defense === true,
      ship_labels: shipLabelsOf(sc.ship_labels),
    },
  };
}

/** `scenario.ship_labels` ({id: {label, side, type}}) as id -> label; anything malformed is left out. */
function shipLabelsOf(v: Json): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof v !== "object" || v === null || Array.isArray(v)) return out;
  for (const [id, rec] of Object.entries(v as Record<string, Json>)) {
    const label = (rec as Record<string, Json> | null)?.["label"];
    if (typeof label === "string") out[id] = label;
  }
  return out;
}

/** What is at a hex of the board: the lookups the renderer and the hover readout use. */
export class BoardIndex {
  readonly surface = new Map<string, Body>();
  readonly gravity = new Map<string, Gravity>();
  readonly base = new Map<string, Base>();
  readonly asteroid = new Set<string>();
  readonly bodies = new Map<string, Body>();

  constructor(readonly board: Board) {
    for (const b of board.bodies) {
      this.bodies.set(b.name, b);
      for (const h of b.surface) this.surface.set(key(h), b);
    }
    for (const g of board.gravity) this.gravity.set(key(g.hex), g);
    for (const b of board.bases) this.base.set(key(b.hex), b);
    for (const h of board.asteroids) this.asteroid.add(key(h));
  }

  inBounds(h: Hex, margin = 0): boolean {
    const b = this.board.bounds;
    return h[0] >= b.minQ - margin && h[0] <= b.maxQ + margin && h[1] >= b.minR - margin && h[1] <= b.maxR + margin;
  }
}
