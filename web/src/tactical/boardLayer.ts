/**
 * The static layer of the tactical board: star field, playfield and its off-map edge, hex grid, gravity hexes
 * with arrows (brighter = full, dashed = weak), asteroid fields, the sun, planets and moons with their names,
 * and bases coloured by control. Drawn into an offscreen canvas for one camera and reused until the camera or
 * the canvas size changes, so per-frame drawing (hover, later ships and trails) only blits it.
 *
 * Owns static board drawing only: no input, no game state, no rules.
 */
import type { Camera, Rect } from "../shell/camera";
import { corners, DIRECTIONS, type Hex, key, pixel, SQRT3 } from "../shell/hex";
import { hashInts, mulberry32 } from "../shell/rng";
import { type Base, type Board, type Body, BoardIndex } from "./boardData";
import { bodyLook, COLORS, SIDE } from "./palette";

/** Unit vector (world) from a hex centre toward its neighbour in direction d. */
export const DIR_UNIT: readonly [number, number][] = DIRECTIONS.map((d) => {
  const [x, y] = pixel(d);
  const n = Math.hypot(x, y);
  return [x / n, y / n];
});

/** The two corner indices (of hex.corners) bounding the hexside toward direction d. */
const edgeCorners = (d: number): [number, number] => {
  const a = (6 - d) % 6;
  return [a, (a + 1) % 6];
};

const CORNER_UNIT: [number, number][] = Array.from({ length: 6 }, (_, i) => [Math.cos((Math.PI / 3) * i), Math.sin((Math.PI / 3) * i)]);

/** The world rectangle of every hex within `margin` of the bounds. */
export function boardExtent(board: Board, margin = 0): Rect {
  const b = board.bounds;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const q of [b.minQ - margin, b.maxQ + margin]) {
    for (const r of [b.minR - margin, b.maxR + margin]) {
      const [x, y] = pixel([q, r]);
      xs.push(x);
      ys.push(y);
    }
  }
  const x0 = Math.min(...xs) - 1;
  const y0 = Math.min(...ys) - SQRT3 / 2;
  return { x: x0, y: y0, w: Math.max(...xs) + 1 - x0, h: Math.max(...ys) + SQRT3 / 2 - y0 };
}

/** Radius (world units) of a body's disc: covers its surface hexes, the zone where a ship crashes. */
export function bodyRadius(b: Body): number {
  if (b.surface_radius > 0) return (b.surface_radius + 0.5) * SQRT3 * 0.97;
  return b.kind === "planet" ? 0.62 : b.kind === "moon" ? 0.5 : 0.42;
}

/** Whose colour a base takes for a viewer seat (null: a spectator, seat 0 cyan and seat 1 orange). */
export function baseColour(base: Base, perspective: number | null): string {
  const c = base.controlled_by;
  if (!c.length) return SIDE.neutral;
  const mine = perspective ?? 0;
  return c.includes(mine) ? SIDE.own : SIDE.enemy;
}

interface Star {
  x: number;
  y: number;
  r: number;
  a: number;
  tint: string;
}

const STAR_TILE = 640;

function makeStars(seed: number, n: number, rMax: number): Star[] {
  const rnd = mulberry32(seed);
  const tints = ["255,255,255", "210,225,255", "255,240,220", "190,205,255"];
  return Array.from({ length: n }, () => ({
    x: rnd() * STAR_TILE,
    y: rnd() * STAR_TILE,
    r: 0.35 + rnd() ** 3 * rMax,
    a: 0.25 + rnd() * 0.6,
    tint: tints[Math.floor(rnd() * tints.length)]!,
  }));
}

/** Decorative rocks of one asteroid hex: [dx, dy, radius, vertex jitters] in world units, stable per hex. */
function rocksOf(h: Hex): { x: number; y: number; r: number; shape: number[] }[] {
  const rnd = mulberry32(hashInts(h[0], h[1], 7));
  const n = 3 + Math.floor(rnd() * 3);
  return Array.from({ length: n }, () => {
    const ang = rnd() * Math.PI * 2;
    const dist = 0.12 + rnd() * 0.45;
    return {
      x: Math.cos(ang) * dist,
      y: Math.sin(ang) * dist,
      r: 0.08 + rnd() * 0.13,
      shape: Array.from({ length: 7 }, () => 0.7 + rnd() * 0.45),
    };
  });
}

export interface LayerOptions {
  /** The viewer's seat, for base colours (null: spectator). */
  perspective: number | null;
}

export class BoardRenderer {
  /** Hexes the bodies' names keep clear of (where ships are: a name never sits under a ship and its tag). */
  labelAvoid: Hex[] = [];
  readonly index: BoardIndex;
  readonly extent: Rect;
  private readonly starLayers: { stars: Star[]; depth: number }[];
  private readonly rocks = new Map<string, ReturnType<typeof rocksOf>>();
  private readonly playfield: Hex[] = [];
  private readonly edgeRing: Hex[] = [];

  constructor(
    readonly board: Board,
    readonly options: LayerOptions = { perspective: null },
  ) {
    this.index = new BoardIndex(board);
    this.extent = boardExtent(board, board.off_map_margin);
    this.starLayers = [
      { stars: makeStars(11, 260, 0.8), depth: 0.08 },
      { stars: makeStars(23, 140, 1.2), depth: 0.2 },
      { stars: makeStars(37, 45, 1.7), depth: 0.35 },
    ];
    const b = board.bounds;
    const m = board.off_map_margin;
    for (let q = b.minQ - m; q <= b.maxQ + m; q++) {
      for (let r = b.minR - m; r <= b.maxR + m; r++) {
        if (this.index.inBounds([q, r])) this.playfield.push([q, r]);
        else this.edgeRing.push([q, r]);
      }
    }
    for (const h of board.asteroids) this.rocks.set(key(h), rocksOf(h));
  }

  /** Draw the whole static board for `camera` into `ctx` (a canvas of camera.width x camera.height CSS pixels
   * at `dpr` device pixels each). */
  render(ctx: CanvasRenderingContext2D, camera: Camera, dpr: number): void {
    const w = camera.width;
    const h = camera.height;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.background(ctx, camera, w, h);
    const z = camera.zoom;
    // world transform: one unit = one hex radius
    ctx.setTransform(dpr * z, 0, 0, dpr * z, dpr * (w / 2 - camera.x * z), dpr * (h / 2 - camera.y * z));
    const view = camera.visible();
    const pad = 6;
    const vis = (hx: Hex): boolean => {
      const [x, y] = pixel(hx);
      return x > view.x - pad && x < view.x + view.w + pad && y > view.y - pad && y < view.y + view.h + pad;
    };
    const px = 1 / z; // one CSS pixel in world units
    this.playfieldAndGrid(ctx, vis, px, z);
    this.gravity(ctx, vis, px, z);
    this.asteroids(ctx, vis, px, z);
    for (const b of this.board.bodies) this.body(ctx, b, px);
    this.bases(ctx, vis, px, z);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.labels(ctx, camera);
  }

  private background(ctx: CanvasRenderingContext2D, camera: Camera, w: number, h: number): void {
    const g = ctx.createRadialGradient(w * 0.55, h * 0.4, 0, w * 0.55, h * 0.4, Math.hypot(w, h) * 0.75);
    g.addColorStop(0, COLORS.spaceInner);
    g.addColorStop(1, COLORS.spaceOuter);
    ctx.fillStyle = g;
    ctx.fillRect(0, 0, w, h);
    for (const { stars, depth } of this.starLayers) {
      const ox = -camera.x * camera.zoom * depth;
      const oy = -camera.y * camera.zoom * depth;
      for (const s of stars) {
        const sx = (((s.x + ox) % STAR_TILE) + STAR_TILE) % STAR_TILE;
        const sy = (((s.y + oy) % STAR_TILE) + STAR_TILE) % STAR_TILE;
        for (let tx = sx; tx < w; tx += STAR_TILE) {
          for (let ty = sy; ty < h; ty += STAR_TILE) {
            ctx.fillStyle = `rgba(${s.tint},${s.a})`;
            ctx.beginPath();
            ctx.arc(tx, ty, s.r, 0, Math.PI * 2);
            ctx.fill();
          }
        }
      }
    }
  }

  private hexPath(ctx: CanvasRenderingContext2D, hx: Hex, shrink = 1): void {
    const [cx, cy] = pixel(hx);
    ctx.moveTo(cx + CORNER_UNIT[0]![0] * shrink, cy + CORNER_UNIT[0]![1] * shrink);
    for (let i = 1; i < 6; i++) ctx.lineTo(cx + CORNER_UNIT[i]![0] * shrink, cy + CORNER_UNIT[i]![1] * shrink);
    ctx.closePath();
  }

  private playfieldAndGrid(ctx: CanvasRenderingContext2D, vis: (h: Hex) => boolean, px: number, z: number): void {
    // the margin ring: ships there survive, but a move ending beyond it is off the map
    ctx.beginPath();
    for (const hx of this.edgeRing) if (vis(hx)) this.hexPath(ctx, hx);
    ctx.fillStyle = "rgba(120, 40, 50, 0.07)";
    ctx.fill();
    ctx.beginPath();
    for (const hx of this.playfield) if (vis(hx)) this.hexPath(ctx, hx);
    ctx.fillStyle = "rgba(60, 85, 150, 0.07)";
    ctx.fill();
    // grid: each hexside once
    const alpha = Math.min(0.2, Math.max(0.05, (z - 3) / 60 + 0.06));
    ctx.beginPath();
    for (const hx of this.playfield) {
      if (!vis(hx)) continue;
      const cs = corners(hx);
      for (let d = 0; d < 6; d++) {
        const nb: Hex = [hx[0] + DIRECTIONS[d]![0], hx[1] + DIRECTIONS[d]![1]];
        if (d > 2 && this.index.inBounds(nb)) continue;
        const [a, b] = edgeCorners(d);
        ctx.moveTo(cs[a]![0], cs[a]![1]);
        ctx.lineTo(cs[b]![0], cs[b]![1]);
      }
    }
    ctx.strokeStyle = `rgba(${COLORS.grid}, ${alpha})`;
    ctx.lineWidth = px;
    ctx.stroke();
    // the elimination edge: the outer border of the margin ring
    ctx.beginPath();
    const m = this.board.off_map_margin;
    for (const hx of this.edgeRing) {
      if (!vis(hx)) continue;
      const cs = corners(hx);
      for (let d = 0; d < 6; d++) {
        const nb: Hex = [hx[0] + DIRECTIONS[d]![0], hx[1] + DIRECTIONS[d]![1]];
        if (this.index.inBounds(nb, m)) continue;
        const [a, b] = edgeCorners(d);
        ctx.moveTo(cs[a]![0], cs[a]![1]);
        ctx.lineTo(cs[b]![0], cs[b]![1]);
      }
    }
    ctx.setLineDash([6 * px, 5 * px]);
    ctx.strokeStyle = COLORS.edge;
    ctx.lineWidth = 1.4 * px;
    ctx.stroke();
    ctx.setLineDash([]);
  }

  private gravity(ctx: CanvasRenderingContext2D, vis: (h: Hex) => boolean, px: number, z: number): void {
    for (const strength of ["weak", "full"] as const) {
      ctx.beginPath();
      for (const g of this.board.gravity) {
        if (g.strength === strength && vis(g.hex) && !this.index.surface.has(key(g.hex))) this.hexPath(ctx, g.hex, 0.96);
      }
      ctx.fillStyle = `rgba(${COLORS.gravity}, ${strength === "full" ? 0.075 : 0.04})`;
      ctx.fill();
    }
    if (z < 4.5) return;
    const lw = Math.max(1.2 * px, 0.075);
    for (const g of this.board.gravity) {
      if (!vis(g.hex) || this.index.surface.has(key(g.hex))) continue;
      const [cx, cy] = pixel(g.hex);
      const [ux, uy] = DIR_UNIT[g.dir]!;
      const weak = g.strength === "weak";
      const tail = -0.4;
      const tip = 0.42;
      const headLen = 0.24;
      const half = 0.15;
      const bx = cx + ux * (tip - headLen);
      const by = cy + uy * (tip - headLen);
      ctx.strokeStyle = ctx.fillStyle = `rgba(${COLORS.gravity}, ${weak ? 0.5 : 0.85})`;
      ctx.lineWidth = lw;
      ctx.setLineDash(weak ? [0.1, 0.075] : []);
      ctx.beginPath();
      ctx.moveTo(cx + ux * tail, cy + uy * tail);
      ctx.lineTo(bx, by);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(cx + ux * tip, cy + uy * tip);
      ctx.lineTo(bx - uy * half, by + ux * half);
      ctx.lineTo(bx + uy * half, by - ux * half);
      ctx.closePath();
      if (weak) ctx.stroke();
      else ctx.fill();
    }
  }

  private asteroids(ctx: CanvasRenderingContext2D, vis: (h: Hex) => boolean, px: number, z: number): void {
    ctx.beginPath();
    for (const h of this.board.asteroids) if (vis(h)) this.hexPath(ctx, h, 0.96);
    ctx.fillStyle = `rgba(${COLORS.rockField}, 0.09)`;
    ctx.fill();
    for (const h of this.board.asteroids) {
      if (!vis(h)) continue;
      const [cx, cy] = pixel(h);
      const rocks = this.rocks.get(key(h)) ?? [];
      for (const rock of z < 6 ? rocks.slice(0, 2) : rocks) {
        const r = Math.max(rock.r, 1.1 * px);
        ctx.beginPath();
        rock.shape.forEach((k, i) => {
          const a = (Math.PI * 2 * i) / rock.shape.length;
          const x = cx + rock.x + Math.cos(a) * r * k;
          const y = cy + rock.y + Math.sin(a) * r * k;
          if (i === 0) ctx.moveTo(x, y);
          else ctx.lineTo(x, y);
        });
        ctx.closePath();
        ctx.fillStyle = COLORS.rock;
        ctx.fill();
        if (z >= 10) {
          ctx.strokeStyle = COLORS.rockLight;
          ctx.lineWidth = 0.7 * px;
          ctx.stroke();
        }
      }
    }
  }

  private body(ctx: CanvasRenderingContext2D, b: Body, px: number): void {
    const [cx, cy] = pixel(b.center);
    const r = Math.max(bodyRadius(b), 2.5 * px);
    const look = bodyLook(b.name, b.kind);
    if (look.glow) {
      const reach = b.kind === "star" ? r * 2.3 : r * 1.35;
      const g = ctx.createRadialGradient(cx, cy, r * 0.8, cx, cy, reach);
      g.addColorStop(0, `rgba(${look.glow}, ${b.kind === "star" ? 0.55 : 0.3})`);
      g.addColorStop(1, `rgba(${look.glow}, 0)`);
      ctx.fillStyle = g;
      ctx.beginPath();
      ctx.arc(cx, cy, reach, 0, Math.PI * 2);
      ctx.fill();
    }
    const lit = b.kind === "star" ? 0 : 0.38;
    const g = ctx.createRadialGradient(cx - r * lit, cy - r * lit, r * 0.05, cx, cy, r * 1.05);
    g.addColorStop(0, look.light);
    g.addColorStop(b.kind === "star" ? 0.55 : 0.45, look.mid);
    g.addColorStop(1, look.dark);
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.fill();
    if (look.bands) {
      ctx.save();
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
      ctx.clip();
      ctx.fillStyle = look.bands;
      for (const [off, thick] of [[-0.55, 0.12], [-0.22, 0.16], [0.12, 0.1], [0.4, 0.18], [0.7, 0.08]] as const) {
        ctx.fillRect(cx - r, cy + off * r, 2 * r, thick * r);
      }
      ctx.restore();
    }
    if (look.glow && b.kind !== "star") {
      ctx.strokeStyle = `rgba(${look.glow}, 0.55)`;
      ctx.lineWidth = Math.max(px, r * 0.05);
      ctx.beginPath();
      ctx.arc(cx, cy, r, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  private bases(ctx: CanvasRenderingContext2D, vis: (h: Hex) => boolean, px: number, _z: number): void {
    for (const base of this.board.bases) {
      if (!vis(base.hex)) continue;
      const [cx, cy, size] = this.baseMarker(base);
      const r = Math.max(size, 3 * px);
      octagon(ctx, cx, cy, r);
      ctx.fillStyle = baseColour(base, this.options.perspective);
      ctx.fill();
      ctx.strokeStyle = "rgba(3, 6, 12, 0.9)";
      ctx.lineWidth = Math.max(px, r * 0.22);
      ctx.stroke();
      if (base.kind === "asteroid") {
        octagon(ctx, cx, cy, r * 1.7);
        ctx.strokeStyle = baseColour(base, this.options.perspective);
        ctx.lineWidth = Math.max(px, 0.04);
        ctx.stroke();
      }
    }
  }

  /** Where a base's marker goes (world centre and radius): a planetary base sits on the hexside facing its
   * body, clear of the gravity arrow; an asteroid base in the middle of its hex. */
  baseMarker(base: Base): [number, number, number] {
    let [cx, cy] = pixel(base.hex);
    const g = this.index.gravity.get(key(base.hex));
    if (base.kind === "planetary" && g && g.body === base.owner) {
      const [ux, uy] = DIR_UNIT[g.dir]!;
      cx += ux * 0.68;
      cy += uy * 0.68;
    }
    return [cx, cy, base.kind === "asteroid" ? 0.22 : 0.17];
  }

  private labels(ctx: CanvasRenderingContext2D, camera: Camera): void {
    const placed: Rect[] = [];
    // every disc is an obstacle for the other bodies' names (moons beside Jupiter, Mercury beside Sol)
    const discs = this.board.bodies.map((b) => {
      const [sx, sy] = camera.toScreen(...pixel(b.center));
      const rr = Math.max(bodyRadius(b) * camera.zoom, 2.5) + 2;
      return { body: b, box: { x: sx - rr, y: sy - rr, w: 2 * rr, h: 2 * rr } };
    });
    // base markers too: a moon's name must not cover the bases around it
    const markers: Rect[] = this.board.bases.map((base) => {
      const [wx, wy, wr] = this.baseMarker(base);
      const [sx, sy] = camera.toScreen(wx, wy);
      const r = Math.max(wr * camera.zoom, 3) + 1;
      return { x: sx - r, y: sy - r, w: 2 * r, h: 2 * r };
    });
    // the ships' hexes (a glyph and its tag below it)
    for (const h of this.labelAvoid) {
      const [sx, sy] = camera.toScreen(...pixel(h));
      const r = camera.zoom * 0.55;
      markers.push({ x: sx - r, y: sy - r, w: 2 * r, h: 2 * r + 14 });
    }
    const order = [...this.board.bodies].sort((a, b) => rank(a) - rank(b));
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    for (const b of order) {
      const major = b.kind === "star" || b.kind === "planet";
      const size = Math.round(Math.min(major ? 17 : 13, Math.max(major ? 11 : 9.5, camera.zoom * (major ? 0.85 : 0.7))));
      ctx.font = `${major ? 650 : 550} ${size}px system-ui, "Segoe UI", Roboto, sans-serif`;
      const text = b.name.toUpperCase().split("").join("\u200a");
      const tw = ctx.measureText(text).width;
      const [sx, sy] = camera.toScreen(...pixel(b.center));
      const rr = Math.max(bodyRadius(b) * camera.zoom, 2.5);
      const gap = 4 + size / 2;
      const inside = rr > Math.max(45, tw / 2 + 12);
      // close up, a small body's name goes beyond its ring of gravity hexes, where ships orbit and land and
      // the burn arrows are drawn (the name beside the disc would sit under them)
      const ring = SQRT3 * (b.surface_radius + 1.5) * camera.zoom + gap;
      const beyond: [number, number][] = !inside && b.gravity !== "none" && camera.zoom >= 20 ? [[sx, sy + ring], [sx, sy - ring]] : [];
      const candidates: [number, number][] = inside
        ? [[sx, sy + rr * 0.62]] // a big disc carries its own name, clear of the bases around it
        : [
            ...beyond,
            [sx, sy + rr + gap],
            [sx, sy - rr - gap],
            [sx + rr + 6 + tw / 2, sy],
            [sx - rr - 6 - tw / 2, sy],
            // beyond the ring of hexes around the body (its bases and gravity)
            [sx, sy + Math.max(rr, rr + 1.1 * camera.zoom) + gap],
            [sx, sy - Math.max(rr, rr + 1.1 * camera.zoom) - gap],
            // and beyond the ring on either side
            [sx + SQRT3 * (b.surface_radius + 1.5) * camera.zoom + tw / 2, sy],
            [sx - SQRT3 * (b.surface_radius + 1.5) * camera.zoom - tw / 2, sy],
          ];
      for (const [lx, ly] of candidates) {
        const box = { x: lx - tw / 2 - 2, y: ly - size / 2 - 1, w: tw + 4, h: size + 2 };
        if (box.x + box.w < 0 || box.y + box.h < 0 || box.x > camera.width || box.y > camera.height) continue;
        if (placed.some((p) => overlap(p, box))) continue;
        if (!inside && discs.some((d) => d.body !== b && overlap(d.box, box))) continue;
        if (!inside && markers.some((m) => overlap(m, box))) continue;
        placed.push(box);
        ctx.strokeStyle = COLORS.labelHalo;
        ctx.lineWidth = 3.5;
        ctx.strokeText(text, lx, ly);
        ctx.fillStyle = major ? COLORS.label : COLORS.labelMinor;
        ctx.fillText(text, lx, ly);
        break;
      }
    }
  }
}

function rank(b: Body): number {
  return { star: 0, planet: 1, moon: 2, minor: 3 }[b.kind];
}

function overlap(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function octagon(ctx: CanvasRenderingContext2D, cx: number, cy: number, r: number): void {
  ctx.beginPath();
  for (let i = 0; i < 8; i++) {
    const a = Math.PI / 8 + (Math.PI / 4) * i;
    const x = cx + Math.cos(a) * r;
    const y = cy + Math.sin(a) * r;
    if (i === 0) ctx.moveTo(x, y);
    else ctx.lineTo(x, y);
  }
  ctx.closePath();
}

/** A canvas holding the static board for one camera; redrawn only when the view or the size changed. */
export class BoardLayer {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private stamp = "";
  renders = 0;

  constructor(readonly renderer: BoardRenderer) {
    this.canvas = document.createElement("canvas");
    const ctx = this.canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
  }

  /** The layer for this camera, redrawn if the camera, size or pixel ratio changed since the last call. */
  get(camera: Camera, dpr: number): HTMLCanvasElement {
    const stamp = [camera.x, camera.y, camera.zoom, camera.width, camera.height, dpr, this.renderer.labelAvoid.join(";")].join(",");
    if (stamp !== this.stamp) {
      const w = Math.round(camera.width * dpr);
      const h = Math.round(camera.height * dpr);
      if (this.canvas.width !== w || this.canvas.height !== h) {
        this.canvas.width = w;
        this.canvas.height = h;
      }
      this.renderer.render(this.ctx, camera, dpr);
      this.stamp = stamp;
      this.renders++;
    }
    return this.canvas;
  }
}
