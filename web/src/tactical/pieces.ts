/**
 * The tactical game's pieces on the board, drawn per frame over the static layer in world units (one hex =
 * size 1): threat zones of enemy bases, fading trails, ordnance, ships with their velocity vectors, the sensor
 * ring, the burn arrows around the drift hex, the course preview drawn as v + burn = v', the assistant's
 * multi-turn ghost path and the combat reticle. Presentation only: everything drawn comes from the view, the
 * board and the engine's notes (see model.ts); no rule is computed here.
 */
import { DIRECTIONS, type Hex, pixel, SQRT3 } from "../shell/hex";
import { octagon } from "./boardLayer";
import type { LaunchNote, Ordnance, ViewShip } from "../generated/tactical";
import type { Board } from "./boardData";
import type { BurnArrow, CourseNote, CourseWarning } from "./model";
import { hexOf } from "./model";
import { SIDE } from "./palette";

/** A ship's and an ordnance item's records in the view, generated from the Python side's shape
 *  (`deltav.games.tactical.visibility.ViewJson`: web/src/generated/tactical.ts). */
export type ShipView = ViewShip;
export type OrdnanceView = Ordnance;

export interface PlanStep {
  turn: number;
  order: Record<string, unknown>;
  start: string;
  path: string[];
  destination: string;
  velocity: [number, number];
  fuel_after: number | null;
  outcome: string;
  body: string | null;
}

/** The engine's note on a `launch` entry (annotate.py): the item's first move and what it meets (generated). */
export type { LaunchNote } from "../generated/tactical";

/** What the launch preview's label says of its first hit (shared by the board and the panel); `name` words a
 *  ship id ("the enemy frigate"), `item` an ordnance id. */
export function launchHitWords(n: LaunchNote, name: (id: string) => string = (id) => id, item: (id: string) => string = () => "ordnance"): string | null {
  const f = n.first_hit;
  if (!f) return n.off_map ? "leaves the map" : null;
  if (f.what === "body") return `hits ${f.body ?? "a body"}`;
  if (f.what === "asteroid") return "hits an asteroid";
  if (f.what === "base") return "hits a base";
  if (f.what === "ships") return `${n.kind === "torpedo" ? "attacks" : "goes off at"} ${(f.ships ?? []).map(name).join(", ")}${f.own?.length ? " (yours!)" : ""}`;
  return `meets ${(f.ordnance ?? []).map(item).join(", ") || "ordnance"}`;
}

export interface Trail {
  owner: number;
  ordnance: boolean;
  /** Newest last: each a path in hexes. */
  legs: Hex[][];
}

export interface Scene {
  board: Board;
  seat: number | null;
  ships: ShipView[];
  ordnance: OrdnanceView[];
  trails: Map<string, Trail>;
  destroyedBases: Set<string>;
  selected: string | null;
  arrows: { drift: Hex | null; arrows: BurnArrow[] } | null;
  chosenDir: number | null;
  overloadDir: number | null;
  preview: CourseNote | null;
  launch: LaunchNote | null;
  plan: PlanStep[] | null;
  target: string | null;
  attackers: string[];
  sensorRange: number;
  planetaryDefense: boolean;
  reducedMotion: boolean;
  time: number;
  /** Short labels of the ships (words.ts: "corvette B"), drawn under each ship at a readable zoom. */
  labels?: Map<string, string>;
  /** Dice rolled against ships lately (report.ts), drawn as tags at the ship hit: world point and words. */
  tags?: { at: Hex; text: string; bad: boolean; age: number }[];
  /** Where the burn arrows start (the drift hex, or the burn's hex while an overload is being picked). */
  overloadPick?: boolean;
  /** The reach shadow: every hex an enemy ship in sight could end its next move on, with the fewest burns. */
  reach?: Map<string, number> | null;
  /** A ship or ordnance id in words (the launch preview's label). */
  name?: (id: string) => string;
}

export const sideColour = (owner: number, seat: number | null): string =>
  owner === (seat ?? 0) ? SIDE.own : SIDE.enemy;

const P = (h: Hex | readonly number[]): [number, number] => pixel([h[0]!, h[1]!]);

function hexPath(ctx: CanvasRenderingContext2D, h: Hex, r = 1): void {
  const [cx, cy] = P(h);
  ctx.beginPath();
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    const x = cx + Math.cos(a) * r;
    const y = cy + Math.sin(a) * r;
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

function arrowHead(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number, size: number): void {
  const a = Math.atan2(y1 - y0, x1 - x0);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - size * Math.cos(a - 0.45), y1 - size * Math.sin(a - 0.45));
  ctx.lineTo(x1 - size * Math.cos(a + 0.45), y1 - size * Math.sin(a + 0.45));
  ctx.closePath();
  ctx.fill();
}

function line(ctx: CanvasRenderingContext2D, pts: [number, number][]): void {
  ctx.beginPath();
  pts.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
}

/** What one frame drew, in world units (the browser tests check that labels, badges and ships do not collide). */
export interface Drawn {
  kind: "ship" | "label" | "badge" | "roll";
  text: string;
  id?: string;
  x: number;
  y: number;
  /** Half width and half height of its box (a ship or a badge: its radius). */
  hw: number;
  hh: number;
}

let drawn: Drawn[] = [];

function label(ctx: CanvasRenderingContext2D, text: string, x: number, y: number, z: number, colour: string, px = 12, id?: string): void {
  ctx.save();
  ctx.font = `600 ${px / z}px system-ui, sans-serif`;
  drawn.push({ kind: "label", text, x, y, hw: ctx.measureText(text).width / 2, hh: px / z / 2, ...(id ? { id } : {}) });
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3 / z;
  ctx.strokeStyle = "rgba(3, 5, 11, 0.92)";
  ctx.strokeText(text, x, y);
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
  ctx.restore();
}

/** Draw every piece of `scene` (the context is in world units, zoom `z` screen pixels per unit). */
export function drawScene(ctx: CanvasRenderingContext2D, scene: Scene, z: number): Drawn[] {
  drawn = [];
  const px = (n: number): number => n / z; // a length of n screen pixels
  threatZones(ctx, scene, px);
  if (scene.reach?.size) reachShadow(ctx, scene.reach, px);
  trails(ctx, scene, px);
  if (scene.plan) ghostPlan(ctx, scene.plan, z, px);
  for (const o of scene.ordnance) ordnance(ctx, o, scene, px);
  const sel = scene.ships.find((s) => s.id === scene.selected);
  if (sel && !sel.destroyed && sel.owner === scene.seat) sensorRing(ctx, sel, scene, px);
  for (const s of scene.ships) if (!s.destroyed) ship(ctx, s, scene, z, px);
  if (scene.preview) course(ctx, scene.preview, z, px);
  if (scene.launch) launchPreview(ctx, scene.launch, z, px, scene.name);
  if (scene.arrows && sel) burnArrows(ctx, scene, px);
  if (scene.preview?.warnings?.length) courseWarnings(ctx, scene.preview, z, px);
  if (scene.target) reticle(ctx, scene, z, px);
  if (scene.tags?.length) tags(ctx, scene, z, px);
  return drawn;
}

function threatZones(ctx: CanvasRenderingContext2D, scene: Scene, px: (n: number) => number): void {
  if (!scene.planetaryDefense) return;
  const me = scene.seat ?? 0;
  for (const b of scene.board.bases) {
    if (!b.controlled_by.length || b.controlled_by.includes(me) || scene.destroyedBases.has(`${b.hex[0]},${b.hex[1]}`)) continue;
    for (const h of b.fire_zone) {
      hexPath(ctx, h, 0.93);
      ctx.fillStyle = "rgba(255, 90, 60, 0.13)";
      ctx.fill();
      ctx.setLineDash([px(4), px(3)]);
      ctx.strokeStyle = "rgba(255, 110, 70, 0.55)";
      ctx.lineWidth = px(1.2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}

/** Where the enemy could be after its next move: orange hatching, denser where it gets without burning. */
function reachShadow(ctx: CanvasRenderingContext2D, reach: Map<string, number>, px: (n: number) => number): void {
  for (const [k, burns] of reach) {
    const h = hexOf(k);
    hexPath(ctx, h, 0.84);
    ctx.fillStyle = `rgba(255, 140, 40, ${burns === 0 ? 0.34 : burns === 1 ? 0.2 : 0.11})`;
    ctx.fill();
    ctx.setLineDash(burns === 0 ? [] : [px(3), px(3)]);
    ctx.strokeStyle = "rgba(255, 154, 60, 0.75)";
    ctx.lineWidth = px(burns === 0 ? 1.6 : 1.1);
    ctx.stroke();
    ctx.setLineDash([]);
  }
}

function trails(ctx: CanvasRenderingContext2D, scene: Scene, px: (n: number) => number): void {
  for (const t of scene.trails.values()) {
    const colour = t.owner === (scene.seat ?? 0) ? "62, 224, 255" : "255, 154, 60";
    const n = t.legs.length;
    t.legs.forEach((leg, i) => {
      if (leg.length < 2) return;
      const alpha = (0.12 + 0.5 * ((i + 1) / n)) * (t.ordnance ? 0.7 : 1);
      ctx.strokeStyle = `rgba(${colour}, ${alpha.toFixed(3)})`;
      ctx.lineWidth = px(t.ordnance ? 1.2 : 2);
      ctx.setLineDash(t.ordnance ? [px(2), px(3)] : []);
      line(ctx, leg.map(P));
      ctx.setLineDash([]);
      ctx.fillStyle = `rgba(${colour}, ${alpha.toFixed(3)})`;
      for (const h of leg) {
        const [x, y] = P(h);
        ctx.beginPath();
        ctx.arc(x, y, px(1.6), 0, Math.PI * 2);
        ctx.fill();
      }
    });
  }
}

function ordnance(ctx: CanvasRenderingContext2D, o: OrdnanceView, scene: Scene, px: (n: number) => number): void {
  const [x, y] = P(o.position);
  const c = sideColour(o.owner, scene.seat);
  ctx.fillStyle = c;
  ctx.strokeStyle = c;
  ctx.lineWidth = px(1.5);
  const r = Math.max(0.22, px(4));
  if (o.kind === "mine") {
    ctx.beginPath();
    ctx.arc(x, y, r * 0.8, 0, Math.PI * 2);
    ctx.fill();
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      line(ctx, [[x + Math.cos(a) * r * 0.8, y + Math.sin(a) * r * 0.8], [x + Math.cos(a) * r * 1.5, y + Math.sin(a) * r * 1.5]]);
    }
  } else if (o.kind === "torpedo") {
    const a = o.velocity[0] || o.velocity[1] ? Math.atan2(P(o.velocity)[1], P(o.velocity)[0]) : -Math.PI / 2;
    ctx.beginPath();
    ctx.moveTo(x + Math.cos(a) * r * 1.6, y + Math.sin(a) * r * 1.6);
    ctx.lineTo(x + Math.cos(a + 2.6) * r, y + Math.sin(a + 2.6) * r);
    ctx.lineTo(x + Math.cos(a - 2.6) * r, y + Math.sin(a - 2.6) * r);
    ctx.closePath();
    ctx.fill();
  } else {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = "#ff4d6a";
    ctx.fill();
    ctx.beginPath();
    ctx.arc(x, y, r * 1.7, 0, Math.PI * 2);
    ctx.stroke();
  }
  velocityVector(ctx, o.position, o.velocity, c, px, 0.55);
}

function velocityVector(ctx: CanvasRenderingContext2D, pos: readonly number[], vel: readonly number[], colour: string,
  px: (n: number) => number, alpha = 0.8): void {
  if (!vel[0] && !vel[1]) return;
  const [x0, y0] = P(pos);
  const [x1, y1] = P([pos[0]! + vel[0]!, pos[1]! + vel[1]!]);
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = px(1.6);
  ctx.setLineDash([px(5), px(3)]);
  line(ctx, [[x0, y0], [x1, y1]]);
  ctx.setLineDash([]);
  arrowHead(ctx, x0, y0, x1, y1, px(8));
  ctx.restore();
}

/** Where a ship is drawn (world units): its hex centre, or fanned out around it when it shares the hex. */
export function shipDrawPos(s: ShipView, ships: readonly ShipView[]): { x: number; y: number; r: number; shared: number } {
  const [x, y] = P(s.position);
  const mates = ships.filter((o) => !o.destroyed && o.position[0] === s.position[0] && o.position[1] === s.position[1]);
  const k = mates.indexOf(s);
  if (mates.length < 2 || k < 0) return { x, y, r: 0, shared: 1 };
  // fanned at 0°, 180° (two) or 0°, 120°, 240° (three): 30° off every burn arrow's line into the hex
  const off = mates.length === 2 ? 0.36 : 0.44;
  const ang = (Math.PI * 2 * k) / mates.length;
  return { x: x + Math.cos(ang) * off, y: y + Math.sin(ang) * off, r: off, shared: mates.length };
}

const SHORT: Record<string, string> = {
  transport: "TR", packet: "PK", tanker: "TK", liner: "LN", corvette: "CV", corsair: "CS", frigate: "FR",
  dreadnaught: "DN", torch: "TC", orbitalBase: "OB",
};

function ship(ctx: CanvasRenderingContext2D, s: ShipView, scene: Scene, z: number, px: (n: number) => number): void {
  const colour = sideColour(s.owner, scene.seat);
  const selected = s.id === scene.selected;
  // several ships in one hex: fanned out around its centre, smaller, so each stays visible and clickable
  const pos = shipDrawPos(s, scene.ships);
  const sx = pos.x;
  const sy = pos.y;
  if (!s.landed) velocityVector(ctx, s.position, s.velocity, colour, px);
  const shrink = pos.shared > 2 ? 0.62 : pos.shared > 1 ? 0.78 : 1;
  const r = Math.max(s.landed ? 0.26 : 0.34, px(s.landed ? 4.5 : 6)) * shrink; // never smaller than a few pixels
  ctx.save();
  ctx.globalAlpha = s.disabled > 0 ? 0.6 : 1;
  if (selected) {
    const pulse = scene.reducedMotion ? 0 : Math.sin(scene.time / 260) * 0.05;
    ctx.beginPath();
    ctx.arc(sx, sy, r + 0.2 + pulse, 0, Math.PI * 2);
    ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
    ctx.lineWidth = px(2);
    ctx.stroke();
  }
  if (s.type === "orbitalBase") {
    octagon(ctx, sx, sy, r * 1.1);
    ctx.fillStyle = colour;
    ctx.fill();
  } else {
    const a = s.velocity[0] || s.velocity[1] ? Math.atan2(P(s.velocity)[1], P(s.velocity)[0]) : -Math.PI / 2;
    ctx.beginPath();
    ctx.moveTo(sx + Math.cos(a) * r * 1.35, sy + Math.sin(a) * r * 1.35);
    ctx.lineTo(sx + Math.cos(a + 2.45) * r, sy + Math.sin(a + 2.45) * r);
    ctx.lineTo(sx + Math.cos(a + Math.PI) * r * 0.45, sy + Math.sin(a + Math.PI) * r * 0.45);
    ctx.lineTo(sx + Math.cos(a - 2.45) * r, sy + Math.sin(a - 2.45) * r);
    ctx.closePath();
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.strokeStyle = "rgba(3, 5, 11, 0.9)";
    ctx.lineWidth = px(1.2);
    ctx.stroke();
  }
  ctx.restore();
  drawn.push({ kind: "ship", text: s.type, id: s.id, x: sx, y: sy, hw: r, hh: r });
  if (z >= 14) {
    const letter = scene.labels?.get(s.id)?.match(/ ([A-Z])$/)?.[1];
    const tag = (SHORT[s.type] ?? s.type.slice(0, 2).toUpperCase()) + (letter ? ` ${letter}` : "") + (s.disabled > 0 ? ` D${s.disabled}` : "") + (s.landed ? " ▼" : "");
    // shared hexes: the tag beside the glyph, away from the hex centre, so tags of hex mates do not overlap
    const dx = pos.shared > 1 ? sx - P(s.position)[0] : 0;
    const dy = pos.shared > 1 ? sy - P(s.position)[1] : 0;
    const len = Math.hypot(dx, dy) || 1;
    const tx = pos.shared > 1 ? sx + (dx / len) * (r + px(14)) : sx;
    const ty = pos.shared > 1 ? sy + (dy / len) * (r + px(9)) : sy + r + px(11);
    label(ctx, tag, tx, ty, z, s.disabled > 0 ? "#ff8080" : colour, pos.shared > 2 ? 10 : 11, s.id);
  }
}

/** The dice rolled lately against ships: a tag at the ship hit, red when it did damage (fades with age 0-1). */
function tags(ctx: CanvasRenderingContext2D, scene: Scene, z: number, px: (n: number) => number): void {
  const placed: [number, number][] = [];
  for (const t of scene.tags ?? []) {
    const [x, y] = P(t.at);
    let ty = y - 0.75;
    // several tags on one hex stack upward
    while (placed.some(([a, b]) => Math.abs(a - x) < 0.5 && Math.abs(b - ty) < px(16))) ty -= px(17);
    placed.push([x, ty]);
    ctx.save();
    ctx.globalAlpha = Math.max(0.45, 1 - t.age * 0.55);
    ctx.font = `700 ${px(12)}px system-ui, sans-serif`;
    const w = ctx.measureText(t.text).width + px(12);
    drawn.push({ kind: "roll", text: t.text, x, y: ty, hw: w / 2, hh: px(10) });
    ctx.fillStyle = t.bad ? "rgba(120, 16, 30, 0.92)" : "rgba(20, 28, 48, 0.92)";
    ctx.strokeStyle = t.bad ? "#ff5d6e" : "#aab5cc";
    ctx.lineWidth = px(1.2);
    ctx.beginPath();
    ctx.roundRect(x - w / 2, ty - px(10), w, px(20), px(6));
    ctx.fill();
    ctx.stroke();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#ffffff";
    ctx.fillText(t.text, x, ty + px(0.5));
    ctx.restore();
  }
  void z;
}

function sensorRing(ctx: CanvasRenderingContext2D, s: ShipView, scene: Scene, px: (n: number) => number): void {
  const [x, y] = P(s.position);
  ctx.beginPath();
  ctx.arc(x, y, scene.sensorRange * SQRT3 + 0.5, 0, Math.PI * 2);
  ctx.strokeStyle = "rgba(62, 224, 255, 0.35)";
  ctx.setLineDash([px(2), px(5)]);
  ctx.lineWidth = px(1.2);
  ctx.stroke();
  ctx.setLineDash([]);
}

const DIR_KEYS = ["1", "2", "3", "4", "5", "6"];

function burnArrows(ctx: CanvasRenderingContext2D, scene: Scene, px: (n: number) => number): void {
  const a = scene.arrows!;
  if (!a.drift) return;
  const [dx, dy] = P(a.drift);
  // the ghosted drift hex
  hexPath(ctx, a.drift, 0.9);
  ctx.setLineDash([px(4), px(3)]);
  ctx.strokeStyle = "rgba(255, 255, 255, 0.55)";
  ctx.lineWidth = px(1.4);
  ctx.stroke();
  ctx.setLineDash([]);
  for (const arr of a.arrows) {
    const [ax, ay] = P(arr.at);
    const chosen = scene.overloadPick ? scene.overloadDir === arr.dir : scene.chosenDir === arr.dir;
    const over = !scene.overloadPick && scene.overloadDir === arr.dir;
    // the shaft from near the drift hex's edge toward the next hex, stopping short of its centre (where a ship
    // or a label may be); the key's badge on the shaft just past the hexside, clear of ships fanned out in
    // either hex and of their tags
    const x0 = dx + (ax - dx) * 0.36;
    const y0 = dy + (ay - dy) * 0.36;
    const x1 = dx + (ax - dx) * 0.78;
    const y1 = dy + (ay - dy) * 0.78;
    const colour = !arr.legal ? "rgba(140, 150, 170, 0.35)" : arr.crash ? "#ff5d5d" : arr.risk && !chosen ? "#ff9f43" : chosen ? "#ffe066" : over ? "#ffb347"
      : scene.overloadPick ? "rgba(255, 179, 71, 0.85)" : "rgba(255, 236, 160, 0.8)";
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = px(chosen ? 3 : 2);
    line(ctx, [[x0, y0], [x1, y1]]);
    arrowHead(ctx, x0, y0, x1, y1, px(chosen ? 11 : 9));
    if (arr.legal) {
      const lx = dx + (ax - dx) * 0.6;
      const ly = dy + (ay - dy) * 0.6;
      drawn.push({ kind: "badge", text: String(arr.dir + 1), x: lx, y: ly, hw: px(8), hh: px(8) });
      ctx.beginPath();
      ctx.arc(lx, ly, px(8), 0, Math.PI * 2);
      ctx.fillStyle = "rgba(3, 5, 11, 0.8)";
      ctx.fill();
      ctx.save();
      ctx.font = `700 ${px(11)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillStyle = colour;
      ctx.fillText(DIR_KEYS[arr.dir]!, lx, ly + px(0.5));
      ctx.restore();
    }
  }
}

/** The preview of a launch: the item's move this turn (solid, violet-pink), where it stops, its drift on the
 * next move (dashed), and the first thing in its way (a red cross and words), or "clear". */
function launchPreview(ctx: CanvasRenderingContext2D, n: LaunchNote, z: number, px: (n: number) => number, name?: (id: string) => string): void {
  const colour = "#ff8ad8";
  const pts = n.path.map((h) => P(hexOf(h)));
  const dest = P(hexOf(n.destination));
  const hitHex = n.first_hit ? hexOf(n.first_hit.hex) : null;
  const bad = n.first_hit !== null && (n.first_hit.what !== "ships" || Boolean(n.first_hit.own?.length)) || n.off_map;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = px(2.4);
  if (pts.length > 1) {
    line(ctx, pts);
    const a = pts[pts.length - 2]!;
    const b = pts[pts.length - 1]!;
    arrowHead(ctx, a[0], a[1], b[0], b[1], px(9));
  } else {
    ctx.beginPath();
    ctx.arc(dest[0], dest[1], px(5), 0, Math.PI * 2);
    ctx.stroke();
  }
  if (!hitHex) {
    hexPath(ctx, hexOf(n.destination), 0.9);
    ctx.setLineDash([px(5), px(3)]);
    ctx.stroke();
    // the drift after: where it goes next turn if nothing stops it
    const next = n.next_path.map((h) => P(hexOf(h)));
    if (next.length > 1) {
      ctx.globalAlpha = 0.6;
      ctx.lineWidth = px(1.6);
      line(ctx, next);
      ctx.globalAlpha = 1;
    }
    ctx.setLineDash([]);
  }
  const words = launchHitWords(n, name, name);
  if (hitHex) {
    const [cx, cy] = P(hitHex);
    ctx.strokeStyle = bad ? "#ff5d5d" : "#ffd166";
    ctx.lineWidth = px(3);
    const r = 0.35;
    line(ctx, [[cx - r, cy - r], [cx + r, cy + r]]);
    line(ctx, [[cx - r, cy + r], [cx + r, cy - r]]);
  }
  const [lx, ly] = hitHex ? P(hitHex) : dest;
  const start = P(hexOf(n.start));
  const below = ly >= start[1];
  label(ctx, `${n.kind.toUpperCase()}${words ? ": " + words : ""}`, lx, ly + (below ? 0.85 : -0.85), z, bad ? "#ff7070" : n.first_hit ? "#ffd166" : colour, 13);
  ctx.restore();
}

/** The preview of one order: v (drift, dashed), + burn (yellow), = v' (the new course, solid), then what it
 * leads to: landing, crash, leaving the map, gravity queued for the next move. */
function course(ctx: CanvasRenderingContext2D, n: CourseNote, z: number, px: (n: number) => number): void {
  const start = P(hexOf(n.start));
  const dest = P(hexOf(n.destination));
  const vb = n.velocity_before;
  const driftHex: Hex = [hexOf(n.start)[0] + vb[0], hexOf(n.start)[1] + vb[1]];
  const drift = P(driftHex);
  const bad = n.outcome === "crash" || (n.off_map && !n.escapes);
  // v: the drift vector
  if (vb[0] || vb[1]) {
    ctx.strokeStyle = "rgba(200, 210, 230, 0.6)";
    ctx.fillStyle = "rgba(200, 210, 230, 0.6)";
    ctx.lineWidth = px(1.5);
    ctx.setLineDash([px(3), px(3)]);
    line(ctx, [start, drift]);
    ctx.setLineDash([]);
  }
  // + burn: drift to destination (gravity queued last turn also moves it; the note's destination is exact)
  if (n.fuel_spent > 0 && (drift[0] !== dest[0] || drift[1] !== dest[1])) {
    ctx.strokeStyle = "#ffe066";
    ctx.fillStyle = "#ffe066";
    ctx.lineWidth = px(2);
    line(ctx, [drift, dest]);
    arrowHead(ctx, drift[0], drift[1], dest[0], dest[1], px(8));
  }
  // = v': the course itself through the hexes it touches
  const pts = n.path.map((h) => P(hexOf(h)));
  ctx.strokeStyle = bad ? "#ff5d5d" : n.outcome === "landing" ? "#5fe39a" : "#ffffff";
  ctx.lineWidth = px(2.6);
  line(ctx, pts.length > 1 ? pts : [start, dest]);
  ctx.fillStyle = ctx.strokeStyle;
  for (const p of pts) {
    ctx.beginPath();
    ctx.arc(p[0], p[1], px(2.2), 0, Math.PI * 2);
    ctx.fill();
  }
  hexPath(ctx, hexOf(n.destination), 0.92);
  ctx.lineWidth = px(2.2);
  ctx.stroke();
  // gravity queued for the next move
  for (const g of n.gravity_queued) {
    const [gx, gy] = P(hexOf(g.hex));
    const d = DIRECTIONS[g.dir]!;
    const [ux, uy] = P(d);
    const len = Math.hypot(ux, uy);
    ctx.strokeStyle = g.ignored ? "rgba(180, 180, 180, 0.6)" : "#c9a0ff";
    ctx.fillStyle = ctx.strokeStyle;
    ctx.lineWidth = px(2);
    const x1 = gx + (ux / len) * 0.55;
    const y1 = gy + (uy / len) * 0.55;
    line(ctx, [[gx, gy], [x1, y1]]);
    arrowHead(ctx, gx, gy, x1, y1, px(7));
  }
  // the outcome's label goes on the far side of the destination from the start, away from the ship
  const ly = dest[1] + (dest[1] >= start[1] ? 0.85 : -0.85);
  if (n.outcome === "crash" && n.crash_hex) {
    const [cx, cy] = P(hexOf(n.crash_hex));
    ctx.strokeStyle = "#ff5d5d";
    ctx.lineWidth = px(3);
    const r = 0.35;
    line(ctx, [[cx - r, cy - r], [cx + r, cy + r]]);
    line(ctx, [[cx - r, cy + r], [cx + r, cy - r]]);
    label(ctx, `CRASH${n.body ? ": " + n.body : ""}`, cx, cy - 0.8, z, "#ff7070", 13);
  } else if (n.off_map && !n.escapes) {
    label(ctx, "OFF THE MAP: lost", dest[0], ly, z, "#ff7070", 13);
  } else if (n.escapes) {
    label(ctx, "ESCAPES", dest[0], ly, z, "#5fe39a", 13);
  } else if (n.outcome === "landing" && n.start === n.destination && n.fuel_spent === 0) {
    // staying landed: the panel says so; nothing to mark on the map
  } else if (n.outcome === "landing") {
    label(ctx, `LANDS${n.body ? " on " + n.body : ""}`, dest[0], ly, z, "#5fe39a", 13);
  } else if (n.orbit_after) {
    label(ctx, `orbit ${n.orbit_after}`, dest[0], ly, z, "#d7dff0", 11);
  }
}

/** The engine's warnings of the previewed course (course_risks.py): where each happens, the hex ringed like the
 *  crash's, and a tag with its chance on a dark box below the hex, clear of the burn arrows' keys (drawn after
 *  them, so nothing covers it). */
function courseWarnings(ctx: CanvasRenderingContext2D, n: CourseNote, z: number, px: (n: number) => number): void {
  const seen = new Map<string, number>();
  for (const w of n.warnings ?? []) {
    if (!w.hex) continue;
    const [wx, wy] = P(hexOf(w.hex));
    const good = w.kind === "capture";
    const k = seen.get(w.hex) ?? 0;
    seen.set(w.hex, k + 1);
    ctx.strokeStyle = good ? "#5fe39a" : "#ff9f43";
    ctx.lineWidth = px(2.4);
    ctx.setLineDash([px(4), px(3)]);
    hexPath(ctx, hexOf(w.hex), 0.78);
    ctx.stroke();
    ctx.setLineDash([]);
    const text = warningTag(w);
    const y = wy + 1.04 + px(8) + px(10) + k * px(20);
    ctx.save();
    ctx.font = `600 ${px(12)}px system-ui, sans-serif`;
    const hw = ctx.measureText(text).width / 2 + px(6);
    ctx.fillStyle = "rgba(3, 5, 11, 0.88)";
    ctx.strokeStyle = good ? "#5fe39a" : "#ff9f43";
    ctx.lineWidth = px(1.2);
    ctx.beginPath();
    ctx.roundRect(wx - hw, y - px(9), 2 * hw, px(18), px(5));
    ctx.fill();
    ctx.stroke();
    ctx.restore();
    label(ctx, text, wx, y, z, good ? "#5fe39a" : "#ffb46b", 12);
  }
}

/** The map's short tag of a course warning: "⚠ RAM 4/6", "⚠ MINE 3/6", "✓ CAPTURE". */
export function warningTag(w: CourseWarning): string {
  if (w.kind === "capture") return "✓ CAPTURE";
  const what = w.kind === "planetary_defense" ? "BASE FIRE" : w.kind.toUpperCase();
  const chance = w.destroy_chance >= 6 ? " destroys" : w.hit_chance ? ` ${w.hit_chance}/6` : "";
  return `⚠ ${what}${chance}`;
}

function ghostPlan(ctx: CanvasRenderingContext2D, plan: PlanStep[], z: number, px: (n: number) => number): void {
  ctx.save();
  plan.forEach((st, i) => {
    const pts = st.path.map((h) => P(hexOf(h)));
    ctx.strokeStyle = `rgba(120, 255, 190, ${Math.max(0.25, 0.8 - i * 0.06).toFixed(2)})`;
    ctx.lineWidth = px(2);
    ctx.setLineDash([px(6), px(4)]);
    if (pts.length > 1) line(ctx, pts);
    ctx.setLineDash([]);
    const [x, y] = P(hexOf(st.destination));
    ctx.beginPath();
    ctx.arc(x, y, px(9), 0, Math.PI * 2);
    ctx.fillStyle = "rgba(3, 5, 11, 0.85)";
    ctx.fill();
    ctx.strokeStyle = "rgba(120, 255, 190, 0.9)";
    ctx.lineWidth = px(1.5);
    ctx.stroke();
    label(ctx, String(st.turn), x, y, z, "#78ffbe", 11);
  });
  ctx.restore();
}

function reticle(ctx: CanvasRenderingContext2D, scene: Scene, z: number, px: (n: number) => number): void {
  const t = scene.ships.find((s) => s.id === scene.target) ?? scene.ordnance.find((o) => o.id === scene.target);
  if (!t) return;
  const [x, y] = P(t.position);
  ctx.strokeStyle = "#ff4d6a";
  ctx.lineWidth = px(2);
  const spin = scene.reducedMotion ? 0 : scene.time / 900;
  for (let i = 0; i < 4; i++) {
    const a = spin + (Math.PI / 2) * i;
    ctx.beginPath();
    ctx.arc(x, y, 0.62, a + 0.25, a + Math.PI / 2 - 0.25);
    ctx.stroke();
  }
  for (const id of scene.attackers) {
    const a = scene.ships.find((s) => s.id === id);
    if (!a) continue;
    const [ax, ay] = P(a.position);
    ctx.strokeStyle = "rgba(255, 77, 106, 0.55)";
    ctx.setLineDash([px(4), px(4)]);
    line(ctx, [[ax, ay], [x, y]]);
    ctx.setLineDash([]);
  }
  void z;
}
