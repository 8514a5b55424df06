/**
 * Knight Hawks screen model: the types of the game's view and board document (docs/knighthawks.md), the
 * grouping of the legal actions into the controls a person uses, and the wording of events for the combat
 * report. Pure logic, no DOM: node-tested (web/test/knighthawks.test.ts).
 *
 * It never decides what is legal: every control is one entry of `snapshot.legal`, found by matching.
 */
import type { Board, Notes, View, ViewShip } from "../generated/knighthawks";
import { notesReader } from "../shell/notes";
import type { LegalEntry, LogEntry } from "../shell/screen";

export type Hex = [number, number];
/** The view, generated from the Python side's shape (`deltav.games.knighthawks.visibility.ViewJson`:
 *  web/src/generated/knighthawks.ts). */
export type KHView = View;
/** A ship's record (the owner's carries `shadow`, the record the other side has seen). */
export type KHShip = ViewShip;
/** [code, count (-1: not LTD), max, status 0 ok / 1 destroyed / 2 unrepairable] */
export type System = ViewShip["weapons"][number];
/** The engine's notes on legal entries, by action type (annotate.py: web/src/generated/knighthawks.ts). */
export type { Notes };
/** The engine's note on a legal entry whose action is a `type`, if any. */
export const noteOf = notesReader<Notes>();
/** [id, owner, kind, hex, moves (-1 waiting), facing, layer] */
export type Trap = View["mines"][number];
/** [source, weapon index, weapon, target, hex, range, head_on, icms (-1 undecided), evade, layer?] */
export type AttackRow = View["attacks"][number];

/** The board document (`deltav.games.knighthawks.board.BoardJson`). */
export type KHBoard = Board;

/** The six facings as the map draws them (flat-top hexes, north up): facing 0, the engine's "E", points 30
 *  degrees below east. An arrow and a compass abbreviation for each (the engine's texts say the words). */
export const FACINGS = ["↘ ESE", "↗ ENE", "↑ N", "↖ WNW", "↙ WSW", "↓ S"] as const;

/** Whether taking this choice ends the ship's released masking screen: a moving ship's screen lasts while it
 *  keeps its speed and heading (a new speed, a rotation, a turn on the way or entering orbit end it), and with
 *  one screen at a time a powered screen switched on ends it too. */
export function endsMasking(c: Choice, view: KHView): boolean {
  const a = c.entry.action;
  const sid = a.type === "step" ? view.plotting?.[0] : String(a.ship ?? "");
  const sh = view.ships.find((x) => x.id === sid);
  if (!sh || sh.masking <= 0) return false;
  if (a.type === "screen") return a.screen !== "MS";
  if (sh.masking < 99) return false; // a station's or an orbiting ship's screen lasts its turns
  if (a.type === "course") return a.speed !== sh.speed || a.facing !== sh.facing;
  if (a.type === "orbit") return true;
  if (a.type === "step") return a.turn !== 0;
  return false;
}
export const DIRS: readonly Hex[] = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
export const mod6 = (d: number): number => ((d % 6) + 6) % 6;
export const neighbour = (h: Hex, d: number): Hex => {
  const v = DIRS[mod6(d)]!;
  return [h[0] + v[0], h[1] + v[1]];
};
export const hexEq = (a: readonly number[], b: readonly number[]): boolean => a[0] === b[0] && a[1] === b[1];
export const hexDistance = (a: Hex, b: Hex): number =>
  Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[0] + a[1] - b[0] - b[1]));

/** Short counter labels by class, as the board game's counters carry them. */
const ABBR: Record<string, string> = {
  fighter: "FTR", assault_scout: "AS", frigate: "FF", destroyer: "DD", minelayer: "ML", light_cruiser: "LC",
  heavy_cruiser: "HC", battleship: "BB", assault_carrier: "CV", carrier: "CV", freighter: "FRT",
  armed_station: "STN", fortified_station: "FS", space_station: "STN", fortress: "FT",
};
export function abbr(cls: string): string {
  return ABBR[cls] ?? cls.replace(/[^a-z]/gi, "").slice(0, 3).toUpperCase();
}

export const WEAPON_NAMES: Record<string, string> = {
  LC: "laser cannon", LB: "laser battery", PB: "proton beam", EB: "electron beam", DC: "disruptor cannon",
  T: "torpedo", AR: "assault rocket", RB: "rocket battery", M: "mines", S: "seeker missile",
};
export const DEFENSE_NAMES: Record<string, string> = {
  RH: "reflective hull", MS: "masking screen", PS: "proton screen", ES: "electron screen", SS: "stasis screen",
  ICM: "interceptor missiles", none: "no defense",
};
export const REPAIR_NAMES: Record<string, string> = {
  hull: "hull points", adf: "1 ADF point", mr: "1 MR point", short: "power short", ccs: "combat control",
  nav: "navigation control", dc: "damage control", fire: "electrical fire",
};

/** The readable name of a repair target key (w<i>/d<i> name the system of that ship). */
export function repairName(target: string, ship: KHShip | undefined): string {
  const m = /^([wd])(\d+)$/.exec(target);
  if (m && ship) {
    const sys = (m[1] === "w" ? ship.weapons : ship.defenses)[Number(m[2])];
    if (sys) return (m[1] === "w" ? WEAPON_NAMES : DEFENSE_NAMES)[sys[0]] ?? sys[0];
  }
  return REPAIR_NAMES[target] ?? target;
}

/** Which side's colour a ship wears for this viewer: "own" (cyan) or "enemy" (orange); a spectator sees side 0
 *  as own. */
export function sideOf(owner: number, viewer: number | null): "own" | "enemy" {
  return owner === (viewer ?? 0) ? "own" : "enemy";
}

export interface Choice {
  index: number;
  entry: LegalEntry;
}

/** The legal list grouped into the controls of each stage. Every member is an index into `legal`. */
export interface Controls {
  steps: Choice[];
  courses: Map<string, Choice[]>;
  orbits: Map<string, Choice[]>;
  screens: Map<string, Choice[]>;
  lays: Map<string, Choice[]>;
  activates: Choice[];
  endMovement: Choice | null;
  /** ship -> weapon index -> assign choices (one per target) */
  assigns: Map<string, Map<number, Choice[]>>;
  fire: Choice | null;
  intercepts: Choice[];
  /** ship -> target -> repair choices (one per block size) */
  repairs: Map<string, Map<string, Choice[]>>;
  endRepair: Choice | null;
  other: Choice[];
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const got = m.get(k);
  if (got) got.push(v);
  else m.set(k, [v]);
}

export function groupLegal(legal: LegalEntry[]): Controls {
  const c: Controls = {
    steps: [], courses: new Map(), orbits: new Map(), screens: new Map(), lays: new Map(), activates: [],
    endMovement: null, assigns: new Map(), fire: null, intercepts: [], repairs: new Map(), endRepair: null,
    other: [],
  };
  legal.forEach((entry, index) => {
    const a = entry.action;
    const ch = { index, entry };
    const ship = String(a.ship ?? "");
    switch (a.type) {
      case "step": c.steps.push(ch); break;
      case "course": push(c.courses, ship, ch); break;
      case "orbit": push(c.orbits, ship, ch); break;
      case "screen": push(c.screens, ship, ch); break;
      case "lay": push(c.lays, ship, ch); break;
      case "activate": c.activates.push(ch); break;
      case "end_movement": c.endMovement = ch; break;
      case "assign": {
        let w = c.assigns.get(ship);
        if (!w) c.assigns.set(ship, (w = new Map()));
        push(w, Number(a.weapon), ch);
        break;
      }
      case "fire": c.fire = ch; break;
      case "intercept": c.intercepts.push(ch); break;
      case "repair": {
        let t = c.repairs.get(ship);
        if (!t) c.repairs.set(ship, (t = new Map()));
        push(t, String(a.target), ch);
        break;
      }
      case "end_repair": c.endRepair = ch; break;
      default: c.other.push(ch);
    }
  });
  return c;
}

/** The ships this seat has something to decide for, in the order their actions come. */
export function shipsWithChoices(c: Controls): string[] {
  const out: string[] = [];
  const add = (s: string): void => {
    if (s && !out.includes(s)) out.push(s);
  };
  for (const m of [c.screens, c.courses, c.orbits, c.lays]) for (const k of m.keys()) add(k);
  for (const k of c.assigns.keys()) add(k);
  for (const k of c.repairs.keys()) add(k);
  return out;
}

/** Where a step choice lets you click: the hex the ship would face after entering the hex ahead and turning
 *  (the neighbour of the entered hex in the new facing). Null without the engine's note. */
export function stepTarget(ch: Choice): { entered: Hex; facing: number; aim: Hex } | null {
  const n = noteOf(ch.entry, "step");
  if (!n || !Array.isArray(n.hex) || typeof n.facing !== "number") return null;
  return { entered: n.hex, facing: n.facing, aim: neighbour(n.hex, n.facing) };
}

/** The step choice whose aim hex (or, for a move that ends here, entered hex) is `h`. */
export function stepAt(steps: Choice[], h: Hex): Choice | null {
  for (const s of steps) {
    const t = stepTarget(s);
    if (t && hexEq(t.aim, h)) return s;
  }
  // a single choice (a forced or final step): clicking the entered hex takes it
  if (steps.length === 1) {
    const t = stepTarget(steps[0]!);
    if (t && hexEq(t.entered, h)) return steps[0]!;
  }
  return null;
}

export const TURN_WORDS: Record<number, string> = { 1: "turn left", 0: "straight on", [-1]: "turn right" };

/** The hex a path would trace for a plotted or in-progress plot is not derivable without the rules (gravity):
 *  the screen draws only what the view says (ships' last paths) and the notes say (steps in progress). */
export function shipName(view: KHView, id: string): string {
  const s = view.ships.find((x) => x.id === id);
  return s ? s.name : id;
}

/** Which seeker an `activate` choice wakes, in the engine's words (the describer's text, Game.describer: no two
 *  legal actions read alike): a seeker dropped in play by its ship and turn ("Osprey, turn 3"), one placed before
 *  the battle by its number ("seeker 2"). `long` is the button's words, `short` the map marker's. */
export function seekerName(view: KHView, e: LegalEntry, i: number): { long: string; short: string } {
  const a = e.action;
  const placed = /seeker (\d+)/.exec(e.text);
  const short = typeof a.layer === "string" && a.layer
    ? `${shipName(view, a.layer)}${typeof a.turn === "number" ? `, turn ${a.turn}` : ""}`
    : placed ? placed[0] : `seeker ${i + 1}`;
  const text = e.text.replace(/^Activate /, "");
  return { long: text === e.text ? `activate ${short}` : `activate ${text}`, short };
}

export type ReportKind = "hit" | "miss" | "damage" | "info" | "bad" | "turn";

/** The combat report's line for a log entry the viewer got: the engine's own sentence (the match's describer:
 *  ships, players and weapons by name, every roll, the damage in words) and how to colour it; null for an event
 *  the report leaves to the shell's log (plots, screens, moves). */
export function reportLine(e: LogEntry): { text: string; kind: ReportKind } | null {
  const g = e.event as Record<string, unknown>;
  let kind: ReportKind;
  switch (e.event.type) {
    case "attack": kind = g.hit ? "hit" : "miss"; break;
    case "damage": kind = "damage"; break;
    case "breakup_check": kind = g.broke ? "bad" : "info"; break;
    case "destroyed": kind = "bad"; break;
    case "wasted": kind = "miss"; break;
    case "repair_roll": kind = g.outcome === "repaired" ? "hit" : "miss"; break;
    case "fired": kind = Array.isArray(g.attacks) && g.attacks.length ? "info" : "miss"; break;
    case "nav_roll": case "disengaged": case "intercepted": case "repair_turn": case "masking_ended": kind = "info"; break;
    case "turn_started": kind = "turn"; break;
    default: return null;
  }
  return { text: e.text, kind };
}

/** A side as the texts name it: the seat's name and its fleet ("Hard bot (Sathar)"), or the fleet alone when the
 *  name is unknown or the same. */
export function sideName(view: KHView, p: number, seatName?: (p: number) => string): string {
  const fleet = view.sides[p] ?? "?";
  const who = seatName?.(p);
  return who && who !== fleet ? `${who} (${fleet})` : fleet;
}

/** The phase banner for a view and whether this seat is to act; `seatName` names the other seats. */
export function phaseText(view: KHView, seat: number | null, toAct: boolean, seatName?: (p: number) => string): string {
  const turn = `Turn ${Math.min(view.turn, view.turn_limit)} of ${view.turn_limit}`;
  const mover = sideName(view, view.mover, seatName);
  const firer = view.fire_mode === "def" ? 1 - view.mover : view.mover;
  switch (view.stage) {
    case "move":
      return toAct ? `${turn}: your movement: plot your ships` : `${turn}: ${mover} moving`;
    case "declare": {
      const mode = view.fire_mode === "def" ? "defensive fire" : "offensive fire";
      return toAct ? `${turn}: your ${mode}: choose weapons and targets` : `${turn}: ${mode} of ${sideName(view, firer, seatName)}`;
    }
    case "intercept":
      return toAct ? "Incoming missile: fire ICMs or evade" : "The defender decides ICMs";
    case "repair":
      return toAct ? "Repair turn: allocate damage control" : `Repair turn: ${sideName(view, view.repair_player, seatName)} allocating`;
    default:
      return "Game over";
  }
}

/** HP boxes of a roster sheet: `hp` boxes, the first `damage` crossed off. */
export function hullBoxes(hp: number, damage: number): boolean[] {
  return Array.from({ length: Math.max(0, hp) }, (_, i) => i < damage);
}

export function severe(s: KHShip): boolean {
  return s.damage > Math.floor(s.hp / 2);
}
