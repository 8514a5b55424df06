/**
 * Deep Space Combat in the browser: the view's types (docs/deepspace.md "The view"), the board document's
 * (deltav-deepspace-board/1), and the pure client logic of the screen: indexing the legal actions of a step,
 * snapping a dragged velocity to a legal one, the fleet designer's arithmetic for display, queued steps.
 *
 * It never decides legality: every action the screen submits is one of `snapshot.legal[i].action`, found here
 * by matching. Owns no DOM and no drawing.
 */
import { distance, type Hex } from "../shell/hex";
import type { Board as DsBoard, Draft as DsDraft, Mine as DsMine, Notes, Ship as DsShip, ShipDesign as ShipDesignJson, View as DsView } from "../generated/deepspace";
import { notesReader } from "../shell/notes";
import type { LegalEntry } from "../shell/screen";

/** The view and its parts and the board document, generated from the Python side's shapes
 *  (`deltav.games.deepspace.visibility.ViewJson`, `deltav.games.deepspace.board.BoardJson`: web/src/generated/deepspace.ts). */
export type {
  Board as DsBoard, Draft as DsDraft, Mine as DsMine, Player as DsPlayer, Ship as DsShip, ShipDesign as ShipDesignJson,
  View as DsView,
} from "../generated/deepspace";

/** The engine's notes on legal entries, by action type (annotate.py: web/src/generated/deepspace.ts). */
export type { Notes };
/** The engine's note on a legal entry whose action is a `type`, if any. */
export const noteOf = notesReader<Notes>();

/** The rulebook's directions A (top) to F, clockwise, as axial vectors (docs/deepspace.md). */
export const LABELS = ["A", "B", "C", "D", "E", "F"] as const;
export const LABEL_VECTORS: readonly Hex[] = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];

/** A legal entry's action, typed loosely. */
export type Action = LegalEntry["action"];

/** Does a legal entry's action equal `want` on every field `want` names? */
export function matches(action: Action, want: Partial<Action>): boolean {
  for (const [k, v] of Object.entries(want)) {
    if (action[k] !== v) return false;
  }
  return true;
}

export function findEntry(legal: LegalEntry[], want: Partial<Action>): LegalEntry | undefined {
  return legal.find((e) => matches(e.action, want));
}

/** The legal entries of one step, grouped by what the screen does with them. */
export interface StepIndex {
  kind: "design" | "place" | "velocity" | "column" | "fire" | "done" | "allocate" | "destruct" | "none";
  ship: string | null;
  /** velocity entries by "dq,dr"; place entries by "q,r"; column entries by "dq" */
  byKey: Map<string, LegalEntry>;
  withdraw: LegalEntry | null;
  done: LegalEntry | null;
  /** fire: the hold entry and the targets by ship id */
  hold: LegalEntry | null;
  targets: Map<string, LegalEntry>;
  weapon: number;
  entries: LegalEntry[];
}

export function indexStep(legal: LegalEntry[], phase?: string): StepIndex {
  const idx: StepIndex = {
    kind: "none", ship: null, byKey: new Map(), withdraw: null, done: null, hold: null, targets: new Map(),
    weapon: -1, entries: legal,
  };
  for (const e of legal) {
    const a = e.action;
    switch (a.type) {
      case "velocity":
        idx.kind = "velocity";
        idx.ship = a.ship as string;
        idx.byKey.set(`${a.dq},${a.dr}`, e);
        break;
      case "velocity_column":
        idx.kind = "column";
        idx.ship = a.ship as string;
        idx.byKey.set(`${a.dq}`, e);
        break;
      case "withdraw":
        idx.withdraw = e;
        break;
      case "place":
        idx.kind = "place";
        idx.ship = a.ship as string;
        idx.byKey.set(`${a.q},${a.r}`, e);
        break;
      case "fire":
        idx.kind = "fire";
        idx.ship = a.ship as string;
        idx.weapon = a.weapon as number;
        if (a.target === null) idx.hold = e;
        else idx.targets.set(a.target as string, e);
        break;
      case "done":
        idx.done = e;
        if (idx.kind === "none") idx.kind = "done";
        break;
      case "allocate":
      case "auto_allocate":
        idx.kind = "allocate";
        idx.ship = a.ship as string;
        break;
      case "self_destruct":
        idx.kind = "destruct";
        idx.ship = a.ship as string;
        break;
      default:
        idx.kind = "design";
    }
  }
  if (idx.kind === "none" && idx.withdraw) idx.kind = "velocity";
  // in the design phase every step is the designer's (its "done" finishes the fleet, it confirms no deployment)
  if (phase === "design" && legal.length) idx.kind = "design";
  return idx;
}

export const vkey = (v: Hex): string => `${v[0]},${v[1]}`;
export const parseVkey = (k: string): Hex => {
  const [a, b] = k.split(",");
  return [Number(a), Number(b)];
};

/**
 * The legal velocity whose destination (`origin + v`) is nearest the hex `h` (ties: the cheaper note cost, then
 * the first listed). Null when there are none.
 */
export function nearestVelocity(idx: StepIndex, origin: Hex, h: Hex): Hex | null {
  let best: Hex | null = null;
  let bestD = Infinity;
  let bestCost = Infinity;
  for (const [k, e] of idx.byKey) {
    const v = parseVkey(k);
    const d = distance([origin[0] + v[0], origin[1] + v[1]], h);
    const cost = typeof e.note?.cost === "number" ? (e.note.cost as number) : 0;
    if (d < bestD || (d === bestD && cost < bestCost)) {
      best = v;
      bestD = d;
      bestCost = cost;
    }
  }
  return best;
}

/** Step a planned velocity one hex along rulebook direction `dir` (0 = A ... 5 = F), if that is legal. */
export function nudge(idx: StepIndex, v: Hex, dir: number): Hex | null {
  const d = LABEL_VECTORS[((dir % 6) + 6) % 6]!;
  const n: Hex = [v[0] + d[0], v[1] + d[1]];
  return idx.byKey.has(vkey(n)) ? n : null;
}

/** "3A+2B" for a velocity (display; the engine's `movement.label` gives the same in notes). */
export function velocityLabel(v: Hex): string {
  if (v[0] === 0 && v[1] === 0) return "rest";
  for (let i = 0; i < 6; i++) {
    const a = LABEL_VECTORS[i]!;
    const b = LABEL_VECTORS[(i + 1) % 6]!;
    const det = a[0] * b[1] - a[1] * b[0];
    const x = (v[0] * b[1] - v[1] * b[0]) / det;
    const y = (a[0] * v[1] - a[1] * v[0]) / det;
    if (x >= 0 && y >= 0 && Number.isInteger(x) && Number.isInteger(y) && x + y > 0) {
      const parts: string[] = [];
      if (x > 0) parts.push(`${x}${LABELS[i]}`);
      if (y > 0) parts.push(`${y}${LABELS[(i + 1) % 6]}`);
      return parts.join("+");
    }
  }
  return `${v[0]},${v[1]}`;
}

// --- the fleet designer (display arithmetic; the engine's legal list decides) ------------------------

export interface DraftDesign {
  name: string;
  size: number;
  thrust: number;
  evasion: number;
  endurance: number;
  weapons: [number, number][];
}

/** Design points a draft spends: `size` per level of thrust, evasion and endurance, 1 per weapon level. */
export function designCost(d: DraftDesign): number {
  return d.size * (d.thrust + d.evasion + d.endurance) + d.weapons.reduce((s, [t, x]) => s + t + x, 0);
}

export function designBudget(d: DraftDesign, pointsPerSize: number): number {
  return pointsPerSize * d.size;
}

/** Why a draft cannot be commissioned as it stands (for the designer's message), or null. */
export function draftProblem(d: DraftDesign, pointsPerSize: number, freeLevels: number): string | null {
  const nums = [d.size, d.thrust, d.evasion, d.endurance, ...d.weapons.flat()];
  if (nums.some((n) => !Number.isInteger(n) || n < 0)) return "every stat is a whole number, 0 or more";
  if (d.size < 1) return "a ship has size 1 or more";
  if (d.size > freeLevels) return `size ${d.size} is more than the ${freeLevels} size levels left`;
  const cost = designCost(d);
  const budget = designBudget(d, pointsPerSize);
  if (cost > budget) return `costs ${cost} points, over the budget of ${budget} (${pointsPerSize} x size ${d.size})`;
  if (d.weapons.some(([t, x]) => t + x === 0)) return "a weapon needs at least one level";
  if (cost === 0) return "a ship needs at least one stat above zero";
  return null;
}

/** The design steps of one ship, in the engine's order: new_ship, the three stats, weapon pairs, end_ship (which
 *  carries the design's name: `end_ship` is matched without it, and the name is sent with it, see `StepQueue`). */
export function designSteps(d: DraftDesign): QueuedStep[] {
  const out: QueuedStep[] = [
    { type: "new_ship", size: d.size } as QueuedStep,
    { type: "set_stat", stat: "thrust", level: d.thrust },
    { type: "set_stat", stat: "evasion", level: d.evasion },
    { type: "set_stat", stat: "endurance", level: d.endurance },
  ];
  for (const [t, x] of d.weapons) {
    out.push({ type: "weapon_targeting", level: t }, { type: "weapon_damage", level: x });
  }
  out.push({ type: "end_ship", [WITH]: { name: designName(d.name) } });
  return out;
}

export function fromDesignJson(j: ShipDesignJson): DraftDesign {
  return {
    name: j.name, size: j.size, thrust: j.thrust, evasion: j.evasion, endurance: j.endurance,
    weapons: j.weapons.map((w) => [w.targeting, w.damage]),
  };
}

/** Saved designs (localStorage) are checked on reading: a broken entry is dropped, never trusted. */
export function parseSavedDesigns(text: string | null): DraftDesign[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: DraftDesign[] = [];
  const int = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0 && x <= 100000;
  for (const d of raw) {
    if (!d || typeof d !== "object") continue;
    const o = d as Record<string, unknown>;
    const ws = o.weapons;
    if (typeof o.name !== "string" || !int(o.size) || !int(o.thrust) || !int(o.evasion) || !int(o.endurance)) continue;
    if (!Array.isArray(ws) || ws.length > 64 || !ws.every((w) => Array.isArray(w) && w.length === 2 && int(w[0]) && int(w[1]))) continue;
    out.push({
      name: o.name.slice(0, 60), size: o.size, thrust: o.thrust, evasion: o.evasion, endurance: o.endurance,
      weapons: (ws as [number, number][]).map(([t, x]) => [t, x]),
    });
  }
  return out.slice(0, 50);
}

/** A design's name as the engine takes it (`end_ship`: 1 to 40 printable characters, Python's `isprintable`):
 *  control, format and separator characters but the plain space become spaces, trimmed, cut at 40 characters
 *  (code points, never half a pair); "Ship" when nothing is left. */
export function designName(name: string): string {
  const clean = name.replace(/[\p{C}\p{Zl}\p{Zp}]|[^\P{Zs} ]/gu, " ").trim();
  return Array.from(clean).slice(0, 40).join("").trim() || "Ship";
}

// --- queued steps ----------------------------------------------------------------------------------

/** Fields a queued step sends with the legal entry it matched (free text the legal list cannot enumerate: a
 *  design's name). */
export const WITH = "$with";
export type QueuedStep = Partial<Action> & { [WITH]?: Record<string, unknown> };

/**
 * Steps the player decided at once (a whole ship design, a split velocity) that the engine takes one at a time.
 * `next(legal)` gives the entry to submit for the head (its action with the head's `WITH` fields added), or an
 * explanation when it is not legal now.
 */
export class StepQueue {
  private items: QueuedStep[] = [];
  label = "";

  set(items: QueuedStep[], label: string): void {
    this.items = [...items];
    this.label = label;
  }

  clear(): void {
    this.items = [];
    this.label = "";
  }

  get length(): number {
    return this.items.length;
  }

  next(legal: LegalEntry[]): { entry: LegalEntry } | { problem: string } | null {
    const head = this.items[0];
    if (!head) return null;
    const { [WITH]: extra, ...want } = head;
    const e = findEntry(legal, want as Partial<Action>);
    if (!e) {
      const what = Object.entries(want).map(([k, v]) => `${k} ${String(v)}`).join(", ");
      this.clear();
      return { problem: `the engine does not offer ${what} now` };
    }
    this.items.shift();
    return { entry: extra ? { ...e, action: { ...e.action, ...extra } } : e };
  }
}

// --- reading the view ------------------------------------------------------------------------------

/** A ship's number within its side: ship `s<p>-<k>` is its side's `k`-th (from 0). */
export function shipIndex(id: string): number {
  const m = /^s\d+-(\d+)$/.exec(id);
  return m ? Number(m[1]) : 0;
}

/**
 * How the page names players and ships, the same way as the match's texts (the engine's `text.py`): players by
 * their seat names; ships by a public label (a fixed fleet's design names from the board, numbered within the
 * side when a name repeats: "Frigate 2"; a designing side's "ship 1", "ship 2"), the viewer's own designed ships
 * also by their secret design name ("ship 1 (Lancer)"), and with their owner ("your Frigate 2", "Ann's ship 1").
 */
export class Namer {
  constructor(
    private readonly view: DsView,
    private readonly board: DsBoard | null,
    private readonly seatName: (seat: number) => string,
  ) {}

  seat(p: number): string {
    return this.seatName(p);
  }

  /** The public label ("Raider 2", "ship 1"), with the design name where this viewer knows a secret one. */
  label(s: DsShip): string {
    const k = shipIndex(s.id);
    const side = this.board?.scenario.players[s.owner];
    const pub = side?.ships?.[k];
    if (pub) return pub;
    return s.name && side && side.ships === null ? `ship ${k + 1} (${s.name})` : `ship ${k + 1}`;
  }

  /** The label with its owner: "your Raider 2" (this viewer's), "Ann's Raider 2". */
  ship(s: DsShip): string {
    return `${s.owner === this.view.you ? "your" : `${this.seat(s.owner)}'s`} ${this.label(s)}`;
  }

  /** `ship` starting a sentence. */
  Ship(s: DsShip): string {
    const t = this.ship(s);
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  byId(id: unknown): DsShip | undefined {
    return this.view.ships.find((x) => x.id === id);
  }
}

export function pct(p: unknown): string {
  return typeof p === "number" ? `${Math.round(p * 100)}%` : "?";
}
