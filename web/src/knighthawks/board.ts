/**
 * The Knight Hawks hex map on a canvas: the battle area (every hex within the map radius), planets with their
 * gravity rings, ship counters in the side colours with their facing and speed, last moves as fading trails,
 * visible traps, and the screen's overlay (the ship being plotted, the three step targets, the shots on offer
 * with their odds, declared shots, the pending missile attack). Camera and input come from the shell.
 *
 * Owns drawing and hit-testing only; it decides nothing (screen.ts does).
 */
import { Camera } from "../shell/camera";
import { fromPixel, pixel } from "../shell/hex";
import { attachPanZoom } from "../shell/input";
import { abbr, DIRS, type Hex, hexDistance, hexEq, type KHShip, type KHView, neighbour, sideOf, severe } from "./model";

const MOVE_MS = 700;
const FLASH_MS = 650;

export const COLOUR = { own: "#3ee0ff", enemy: "#ff9a3c", grid: "rgba(150,175,220,0.22)", ink: "#dfe6f3" };

/** The screen angle (radians, y down) of a facing: toward the centre of that neighbour. */
export function facingAngle(f: number): number {
  const d = DIRS[((f % 6) + 6) % 6]!;
  const [px, py] = pixel([d[0], d[1]]);
  return Math.atan2(py, px);
}

export interface Marker {
  hex: Hex;
  label: string;
  kind: "step" | "target" | "declared" | "danger";
  /** an arrow from this hex toward `hex` (the step's facing) */
  from?: Hex;
}

export interface Overlay {
  selected: string | null;
  markers: Marker[];
  /** lines between hexes: declared shots, the pending attack */
  lines: { a: Hex; b: Hex; colour: string; dash?: boolean }[];
  /** the hexes of the move in progress (the plotted path so far) */
  plotPath: Hex[];
  /** your ships' plotted moves, not yet executed */
  plans?: Hex[][];
}

const EMPTY: Overlay = { selected: null, markers: [], lines: [], plotPath: [] };

export class HexMap {
  readonly camera = new Camera();
  private readonly ctx: CanvasRenderingContext2D;
  private view: KHView | null = null;
  private overlay: Overlay = EMPTY;
  private dirty = true;
  private raf = 0;
  private last = 0;
  private hover: Hex | null = null;
  private detach: () => void;
  private fitted = false;
  private sized = false;
  /** ship id -> the path it is being animated along and when that started (ms) */
  private anims = new Map<string, { path: Hex[]; t0: number }>();
  /** attack flashes: from, to, hit, start time */
  private flashes: { a: Hex; b: Hex; hit: boolean; t0: number }[] = [];
  /** how many moves and shots were animated (the browser tests read it) */
  animations = 0;
  /** What the last frame drew where, in CSS pixels of the canvas (the browser tests read it): the compass, the
   *  exit edge's hexsides (their midpoints) and the labels of the pointers toward ships off screen. */
  drawn: { compass: { x: number; y: number; r: number }; exit: [number, number][];
    pointers: { x: number; y: number; w: number; h: number; label: string }[] } = { compass: { x: 0, y: 0, r: 0 }, exit: [], pointers: [] };
  onClick: (h: Hex) => void = () => {};
  onHover: (h: Hex | null) => void = () => {};
  onKey: (e: KeyboardEvent) => boolean = () => false;
  /** Called once the canvas has a size (the screen frames its ships then). */
  onFirstSize: () => void = () => this.fit(true);

  constructor(readonly canvas: HTMLCanvasElement, private readonly reducedMotion: boolean) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
    this.camera.minZoom = 6;
    this.camera.maxZoom = 90;
    this.detach = attachPanZoom(canvas, this.camera, {
      changed: () => this.touch(),
      onKey: (e) => this.onKey(e),
      onClick: (sx, sy) => this.onClick(this.hexAt(sx, sy)),
      onHover: (sx, sy) => {
        const h = this.hexAt(sx, sy);
        if (!this.hover || !hexEq(h, this.hover)) {
          this.hover = h;
          this.onHover(h);
          this.touch();
        }
      },
      onLeave: () => {
        this.hover = null;
        this.onHover(null);
        this.touch();
      },
    });
    const loop = (t: number): void => {
      const dt = this.last ? t - this.last : 16;
      this.last = t;
      if (this.resize() || this.camera.step(dt, this.reducedMotion)) this.dirty = true;
      if (this.anims.size || this.flashes.length) this.dirty = true;
      if (this.dirty) this.draw();
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  destroy(): void {
    cancelAnimationFrame(this.raf);
    this.detach();
  }

  touch(): void {
    this.dirty = true;
  }

  hexAt(sx: number, sy: number): Hex {
    const [wx, wy] = this.camera.toWorld(sx, sy);
    const h = fromPixel(wx, wy);
    return [h[0], h[1]];
  }

  screenOf(h: Hex): [number, number] {
    const [wx, wy] = pixel(h);
    return this.camera.toScreen(wx, wy);
  }

  setView(view: KHView): void {
    this.view = view;
    const R = view.map.radius + 1;
    this.camera.limits = { x: -1.5 * R, y: -Math.sqrt(3) * R, w: 3 * R, h: 2 * Math.sqrt(3) * R };
    this.touch();
  }

  /** Animate the moves and shots just made (nothing with prefers-reduced-motion: the map simply shows the
   *  new positions). */
  animate(moves: { ship: string; path: Hex[] }[], shots: { a: Hex; b: Hex; hit: boolean }[]): void {
    if (this.reducedMotion) return;
    this.animations += moves.length + shots.length;
    const t0 = performance.now();
    moves.forEach((mv, i) => {
      if (mv.path.length > 1) this.anims.set(mv.ship, { path: mv.path, t0: t0 + i * 120 });
    });
    const base = t0 + moves.length * 120 + (moves.length ? MOVE_MS : 0);
    shots.forEach((sh, i) => this.flashes.push({ ...sh, t0: base + i * 160 }));
    this.touch();
  }

  /** Where an animated ship is drawn now, or null when it is not animated. */
  private animPos(id: string, now: number): [number, number] | null {
    const a = this.anims.get(id);
    if (!a) return null;
    const k = (now - a.t0) / MOVE_MS;
    if (k >= 1) {
      this.anims.delete(id);
      return null;
    }
    const f = Math.max(0, k) * (a.path.length - 1);
    const i = Math.min(a.path.length - 2, Math.floor(f));
    const [x0, y0] = this.screenOf(a.path[i]!);
    const [x1, y1] = this.screenOf(a.path[i + 1]!);
    const t = f - i;
    return [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
  }

  private drawFlashes(now: number): void {
    const ctx = this.ctx;
    this.flashes = this.flashes.filter((f) => now - f.t0 < FLASH_MS);
    for (const f of this.flashes) {
      const k = (now - f.t0) / FLASH_MS;
      if (k < 0) continue;
      const [ax, ay] = this.screenOf(f.a);
      const [bx, by] = this.screenOf(f.b);
      ctx.globalAlpha = 1 - k;
      ctx.strokeStyle = f.hit ? "#ffe066" : "rgba(200,210,230,0.8)";
      ctx.lineWidth = f.hit ? 3 : 1.5;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
      ctx.stroke();
      if (f.hit) {
        ctx.fillStyle = "#ffb347";
        ctx.beginPath();
        ctx.arc(bx, by, this.camera.zoom * (0.3 + 0.5 * k), 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
  }

  setOverlay(o: Overlay): void {
    this.overlay = o;
    this.touch();
  }

  /** The world rectangle of the whole battle area with its edge labels (the exit arrow outside it). */
  private mapRect(): { x: number; y: number; w: number; h: number } {
    const R = (this.view?.map.radius ?? 10) + 0.8;
    const side = 1.5 * R + 1.4; // room for the EXIT arrow beyond the east and west edges
    return { x: -side, y: -Math.sqrt(3) * R, w: 2 * side, h: 2 * Math.sqrt(3) * R };
  }

  /** The zoom at which the whole battle area fits the canvas. */
  fitZoom(): number {
    return this.camera.fitZoom(this.mapRect(), 8);
  }

  /** Show the whole battle area. */
  fit(instant = false): void {
    if (!this.view) return;
    const z = this.fitZoom();
    if (instant) this.camera.jump(0, 0, z);
    else this.camera.moveTo(0, 0, z);
    this.fitted = true;
  }

  /** Frame a set of hexes (the ships in play) with a margin of `pad` hexes, never zooming out past the map. */
  frame(hexes: Hex[], pad = 3, instant = false): void {
    if (!hexes.length) return this.fit(instant);
    const pts = hexes.map((h) => pixel(h));
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const x0 = Math.min(...xs) - 1.5 * pad;
    const x1 = Math.max(...xs) + 1.5 * pad;
    const y0 = Math.min(...ys) - 1.7 * pad;
    const y1 = Math.max(...ys) + 1.7 * pad;
    const z = this.camera.fitZoom({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, 8);
    if (instant) this.camera.jump((x0 + x1) / 2, (y0 + y1) / 2, Math.min(z, 30));
    else this.camera.moveTo((x0 + x1) / 2, (y0 + y1) / 2, Math.min(z, 30));
    this.fitted = true;
  }

  get hasFitted(): boolean {
    return this.fitted && this.sized;
  }

  /** Centre on a hex, zooming in to at least `minZoom` (a ship being plotted). */
  focus(h: Hex, minZoom: number): void {
    const [wx, wy] = pixel(h);
    this.camera.moveTo(wx, wy, Math.max(this.camera.target.zoom, minZoom));
  }

  /** Whether a hex is inside the visible part of the map, `margin` pixels from the edge. */
  onScreen(h: Hex, margin = 40): boolean {
    const [x, y] = this.screenOf(h);
    return x > margin && y > margin && x < this.camera.width - margin && y < this.camera.height - margin;
  }

  centreOn(h: Hex): void {
    const [wx, wy] = pixel(h);
    this.camera.moveTo(wx, wy);
  }

  private resize(): boolean {
    const c = this.canvas;
    const w = c.clientWidth;
    const h = c.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
      this.camera.setViewport(w, h);
      if (!this.sized && w > 1 && h > 1) {
        this.sized = true;
        this.onFirstSize();
      }
      return true;
    }
    return false;
  }

  private hexPath(h: Hex, shrink = 1): void {
    const ctx = this.ctx;
    const [cx, cy] = this.screenOf(h);
    const s = this.camera.zoom * shrink;
    ctx.beginPath();
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      const x = cx + s * Math.cos(a);
      const y = cy + s * Math.sin(a);
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }

  private draw(): void {
    this.dirty = false;
    const ctx = this.ctx;
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = this.camera.width;
    const H = this.camera.height;
    const bg = ctx.createRadialGradient(W / 2, H / 2, 0, W / 2, H / 2, Math.max(W, H) * 0.7);
    bg.addColorStop(0, "#0b1226");
    bg.addColorStop(1, "#03050b");
    ctx.fillStyle = bg;
    ctx.fillRect(0, 0, W, H);
    const v = this.view;
    if (!v) return;
    const z = this.camera.zoom;
    const R = v.map.radius;
    // the battle area
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLOUR.grid;
    for (let q = -R; q <= R; q++) {
      for (let r = Math.max(-R, -q - R); r <= Math.min(R, -q + R); r++) {
        this.hexPath([q, r]);
        ctx.stroke();
      }
    }
    // the edge: leaving it takes a ship out of the battle (the exit edge of an escape scenario in green)
    this.edges(v);
    // planets and gravity rings
    for (const [name, ph] of v.map.planets) {
      for (let d = 0; d < 6; d++) {
        const dir = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]][d]!;
        const g: Hex = [ph[0] + dir[0]!, ph[1] + dir[1]!];
        this.hexPath(g);
        ctx.fillStyle = "rgba(244,232,190,0.08)";
        ctx.fill();
        // an arrow toward the planet
        const [gx, gy] = this.screenOf(g);
        const [px, py] = this.screenOf(ph);
        this.arrow(gx + (px - gx) * 0.15, gy + (py - gy) * 0.15, gx + (px - gx) * 0.45, gy + (py - gy) * 0.45,
          "rgba(244,232,190,0.55)", Math.max(1, z * 0.06));
      }
      const [cx, cy] = this.screenOf(ph);
      const rad = z * 0.85;
      const grad = ctx.createRadialGradient(cx - rad * 0.35, cy - rad * 0.35, rad * 0.1, cx, cy, rad);
      grad.addColorStop(0, "#a9d1ff");
      grad.addColorStop(0.55, "#3d72b8");
      grad.addColorStop(1, "#14264a");
      ctx.fillStyle = grad;
      ctx.beginPath();
      ctx.arc(cx, cy, rad, 0, Math.PI * 2);
      ctx.fill();
      this.label(name, cx, cy + rad + Math.max(10, z * 0.35), "#d7dff0", Math.max(11, Math.min(15, z * 0.38)));
    }
    // the hovered hex
    if (this.hover) {
      this.hexPath(this.hover);
      ctx.strokeStyle = "rgba(255,255,255,0.7)";
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
    // trails of the last moves
    for (const s of v.ships) {
      if (s.path.length < 2) continue;
      const col = COLOUR[sideOf(s.owner, v.viewer)];
      ctx.strokeStyle = col;
      ctx.globalAlpha = 0.25;
      ctx.lineWidth = Math.max(1.5, z * 0.08);
      ctx.setLineDash([z * 0.2, z * 0.15]);
      ctx.beginPath();
      s.path.forEach((h, i) => {
        const [x, y] = this.screenOf(h);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.globalAlpha = 1;
    }
    // traps you can see
    for (const t of v.mines) {
      const [x, y] = this.screenOf(t[3]);
      const col = COLOUR[sideOf(t[1], v.viewer)];
      ctx.strokeStyle = col;
      ctx.lineWidth = 1.5;
      if (t[2] === "M") {
        for (let i = 0; i < 6; i++) {
          const a = (Math.PI / 3) * i + Math.PI / 6;
          ctx.beginPath();
          ctx.arc(x + Math.cos(a) * z * 0.45, y + Math.sin(a) * z * 0.45, Math.max(1.5, z * 0.07), 0, Math.PI * 2);
          ctx.stroke();
        }
      } else {
        ctx.beginPath();
        ctx.moveTo(x, y - z * 0.4);
        ctx.lineTo(x + z * 0.3, y + z * 0.3);
        ctx.lineTo(x - z * 0.3, y + z * 0.3);
        ctx.closePath();
        ctx.stroke();
      }
      if (z > 18) this.label(t[2] === "M" ? "mines" : t[4] >= 0 ? "seeker (live)" : "seeker", x, y + z * 0.62, col, 10);
    }
    const o = this.overlay;
    // the plot in progress
    if (o.plotPath.length > 1) {
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = Math.max(2, z * 0.1);
      ctx.beginPath();
      o.plotPath.forEach((h, i) => {
        const [x, y] = this.screenOf(h);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
    }
    for (const plan of o.plans ?? []) {
      if (plan.length < 2) continue;
      ctx.strokeStyle = "rgba(62,224,255,0.75)";
      ctx.lineWidth = Math.max(2, z * 0.08);
      ctx.setLineDash([z * 0.25, z * 0.12]);
      ctx.beginPath();
      plan.forEach((h, i) => {
        const [x, y] = this.screenOf(h);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
      ctx.setLineDash([]);
      this.hexPath(plan[plan.length - 1]!, 0.8);
      ctx.stroke();
    }
    for (const l of o.lines) {
      const [ax, ay] = this.screenOf(l.a);
      const [bx, by] = this.screenOf(l.b);
      if (l.dash) ctx.setLineDash([8, 6]);
      this.arrow(ax, ay, bx, by, l.colour, 2);
      ctx.setLineDash([]);
    }
    // ships, stacked in their hexes
    const byHex = new Map<string, KHShip[]>();
    for (const s of v.ships) {
      if (s.status !== "active") continue;
      const k = `${s.hex[0]},${s.hex[1]}`;
      const l = byHex.get(k);
      if (l) l.push(s);
      else byHex.set(k, [s]);
    }
    const now = performance.now();
    for (const list of byHex.values()) {
      if (list.length > 1 && this.camera.zoom < 24) {
        // too small to spread the stack legibly: a pile, the selected ship (else the first) on top, and a count
        const top = list.find((s) => s.id === o.selected) ?? list[0]!;
        const pile = [...list.filter((s) => s !== top), top];
        pile.forEach((s, i) => this.counter(s, v, 0, 1, o.selected === s.id, this.animPos(s.id, now), (pile.length - 1 - i) * 3));
        this.stackBadge(top.hex, list.length);
      } else list.forEach((s, i) => this.counter(s, v, i, list.length, o.selected === s.id, this.animPos(s.id, now)));
    }
    this.drawFlashes(now);
    // markers last: step targets and shots
    for (const m of o.markers) this.marker(m);
    this.offscreen(v);
    this.compass();
  }

  /** Pointers at the edge of the view toward the ships in play that are off screen, with their class letters.
   *  Pointers that would overlap merge into one ("FTR ×2", "HC +1"), in the colour of the first ship's side. */
  private offscreen(v: KHView): void {
    const ctx = this.ctx;
    const W = this.camera.width;
    const H = this.camera.height;
    const m = 16;
    const groups: { px: number; py: number; a: number; ships: KHShip[] }[] = [];
    for (const s of v.ships) {
      if (s.status !== "active") continue;
      const [x, y] = this.screenOf(s.hex);
      if (x >= 0 && y >= 0 && x <= W && y <= H) continue;
      const cx = W / 2;
      const cy = H / 2;
      const dx = x - cx;
      const dy = y - cy;
      const k = Math.min((W / 2 - m) / Math.max(1e-6, Math.abs(dx)), (H / 2 - m) / Math.max(1e-6, Math.abs(dy)));
      const px = cx + dx * k;
      const py = cy + dy * k;
      const near = groups.find((g) => Math.hypot(g.px - px, g.py - py) < 44);
      if (near) near.ships.push(s);
      else groups.push({ px, py, a: Math.atan2(dy, dx), ships: [s] });
    }
    const labels: { x: number; y: number; w: number; h: number; label: string }[] = [];
    for (const g of groups) {
      const first = g.ships[0]!;
      const col = COLOUR[sideOf(first.owner, v.viewer)];
      const { px, py, a } = g;
      ctx.fillStyle = col;
      ctx.beginPath();
      ctx.moveTo(px + Math.cos(a) * 9, py + Math.sin(a) * 9);
      ctx.lineTo(px + Math.cos(a + 2.5) * 8, py + Math.sin(a + 2.5) * 8);
      ctx.lineTo(px + Math.cos(a - 2.5) * 8, py + Math.sin(a - 2.5) * 8);
      ctx.closePath();
      ctx.fill();
      const names = [...new Set(g.ships.map((s) => abbr(s.class)))];
      const text = g.ships.length === 1 ? names[0]! : names.length === 1 ? `${names[0]} ×${g.ships.length}` : `${names[0]} +${g.ships.length - 1}`;
      ctx.font = "700 11px system-ui, sans-serif";
      const w = ctx.measureText(text).width + 6;
      // the label inside the view, on the far side of the arrow from the edge
      let lx = px - Math.cos(a) * (w / 2 + 10);
      let ly = py - Math.sin(a) * 16;
      lx = Math.max(w / 2 + 2, Math.min(W - w / 2 - 2, lx));
      ly = Math.max(9, Math.min(H - 9, ly));
      for (const o of labels) {
        if (Math.abs(o.x - lx) < (o.w + w) / 2 && Math.abs(o.y - ly) < 14) ly = o.y + (ly >= o.y ? 15 : -15);
      }
      this.label(text, lx, ly, col, 11, 700);
      labels.push({ x: lx, y: ly, w, h: 14, label: text });
    }
    this.drawn.pointers = labels.map((l) => ({ x: l.x - l.w / 2, y: l.y - 7, w: l.w, h: l.h, label: l.label }));
  }

  /** The map's edge hexside by hexside: dashed red where leaving takes a ship out of the battle, solid green
   *  where the scenario's escaping ship must leave (exit victory: `east` the hexes past it with q > 0, `west`
   *  q < 0, `any` all), with an EXIT arrow outside the edge. */
  private edges(v: KHView): void {
    const ctx = this.ctx;
    const R = v.map.radius;
    const z = this.camera.zoom;
    const exit = v.victory.kind === "exit" ? (v.victory.edge ?? "any") : null;
    const isExit = (n: Hex): boolean => exit === "any" || (exit === "east" && n[0] > 0) || (exit === "west" && n[0] < 0);
    const red = new Path2D();
    const green = new Path2D();
    const mids: [number, number][] = [];
    for (let q = -R; q <= R; q++) {
      for (let r = Math.max(-R, -q - R); r <= Math.min(R, -q + R); r++) {
        if (hexDistance([q, r], [0, 0]) !== R) continue;
        const [cx, cy] = this.screenOf([q, r]);
        for (let d = 0; d < 6; d++) {
          const n = neighbour([q, r], d);
          if (hexDistance(n, [0, 0]) <= R) continue;
          const a = facingAngle(d);
          const x0 = cx + z * Math.cos(a - Math.PI / 6);
          const y0 = cy + z * Math.sin(a - Math.PI / 6);
          const x1 = cx + z * Math.cos(a + Math.PI / 6);
          const y1 = cy + z * Math.sin(a + Math.PI / 6);
          const path = exit && isExit(n) ? green : red;
          path.moveTo(x0, y0);
          path.lineTo(x1, y1);
          if (path === green) mids.push([(x0 + x1) / 2, (y0 + y1) / 2]);
        }
      }
    }
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "rgba(235,95,95,0.7)";
    ctx.setLineDash([6, 5]);
    ctx.stroke(red);
    ctx.setLineDash([]);
    if (mids.length) {
      ctx.lineWidth = Math.max(2.5, z * 0.16);
      ctx.strokeStyle = "#5be37d";
      ctx.stroke(green);
      const fs = Math.max(11, Math.min(16, z * 0.5));
      const arrow = (wx: number, dir: number, text: string): void => {
        const [x, y] = this.camera.toScreen(wx, 0);
        this.arrow(x, y, x + dir * Math.max(22, z * 1.1), y, "#5be37d", Math.max(2.5, z * 0.14));
        this.label(text, x + dir * Math.max(11, z * 0.55), y - Math.max(14, z * 0.6), "#5be37d", fs, 800);
      };
      if (exit === "east" || exit === "any") arrow(1.5 * R + 1.2, 1, "EXIT");
      if (exit === "west" || exit === "any") arrow(-1.5 * R - 1.2, -1, "EXIT");
    }
    this.drawn.exit = mids;
  }

  /** A compass rose in the top left corner: north up, and the six directions a ship can face (its hexsides). */
  private compass(): void {
    const ctx = this.ctx;
    const r = 22;
    const x = 14 + r;
    const y = 14 + r;
    ctx.fillStyle = "rgba(8,12,24,0.78)";
    ctx.strokeStyle = "rgba(150,175,220,0.45)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(x, y, r + 9, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.strokeStyle = "rgba(62,224,255,0.7)";
    ctx.lineWidth = 2;
    for (let d = 0; d < 6; d++) {
      const a = facingAngle(d);
      ctx.beginPath();
      ctx.moveTo(x + Math.cos(a) * r * 0.35, y + Math.sin(a) * r * 0.35);
      ctx.lineTo(x + Math.cos(a) * r * 0.72, y + Math.sin(a) * r * 0.72);
      ctx.stroke();
    }
    ctx.fillStyle = "#ff6a6a";
    ctx.beginPath();
    ctx.moveTo(x, y - r * 0.95);
    ctx.lineTo(x - 4, y - r * 0.5);
    ctx.lineTo(x + 4, y - r * 0.5);
    ctx.closePath();
    ctx.fill();
    this.label("N", x, y - r - 1, "#ffffff", 11, 800);
    this.label("S", x, y + r + 1, "#9aa6bd", 10, 700);
    this.label("E", x + r + 1, y, "#9aa6bd", 10, 700);
    this.label("W", x - r - 1, y, "#9aa6bd", 10, 700);
    this.drawn.compass = { x, y, r: r + 9 };
  }

  private arrow(x0: number, y0: number, x1: number, y1: number, colour: string, width: number): void {
    const ctx = this.ctx;
    const a = Math.atan2(y1 - y0, x1 - x0);
    const head = Math.max(6, width * 3.5);
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = width;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1 - Math.cos(a) * head * 0.7, y1 - Math.sin(a) * head * 0.7);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - Math.cos(a - 0.45) * head, y1 - Math.sin(a - 0.45) * head);
    ctx.lineTo(x1 - Math.cos(a + 0.45) * head, y1 - Math.sin(a + 0.45) * head);
    ctx.closePath();
    ctx.fill();
  }

  private label(text: string, x: number, y: number, colour: string, size: number, weight = 600): void {
    const ctx = this.ctx;
    ctx.font = `${weight} ${size}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(3,5,11,0.9)";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = colour;
    ctx.fillText(text, x, y);
  }

  /** A ship counter: a rounded square in the side colour, its class letters, a facing wedge on the hexside it
   *  points at, and its speed; a selected ship gets a white ring, a severely damaged one a red corner, a
   *  burning one a flame dot. */
  /** The number of ships in a piled hex, on the pile's top right corner. */
  private stackBadge(h: Hex, n: number): void {
    const ctx = this.ctx;
    const [x, y] = this.screenOf(h);
    const half = Math.max(9, this.camera.zoom * 0.52);
    const bx = x + half;
    const by = y - half;
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.arc(bx, by, 7, 0, Math.PI * 2);
    ctx.fill();
    ctx.font = "800 10px system-ui, sans-serif";
    ctx.fillStyle = "#0a0f1f";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(n), bx, by + 0.5);
  }

  private counter(s: KHShip, v: KHView, i: number, n: number, selected: boolean, at: [number, number] | null, lift = 0): void {
    const ctx = this.ctx;
    const z = this.camera.zoom;
    let [x, y] = at ?? this.screenOf(s.hex);
    if (!at && lift) {
      x -= lift;
      y -= lift;
    }
    if (n > 1 && !at) {
      const a = (Math.PI * 2 * i) / n - Math.PI / 2;
      x += Math.cos(a) * z * 0.38;
      y += Math.sin(a) * z * 0.38;
    }
    const col = COLOUR[sideOf(s.owner, v.viewer)];
    const small = s.kind === "fighter" || s.kind === "scout";
    const half = Math.max(n > 1 ? 7 : 9, z * (n > 1 ? 0.34 : small ? 0.42 : 0.52));
    const fa = facingAngle(s.facing);
    // facing wedge
    ctx.fillStyle = col;
    ctx.beginPath();
    ctx.moveTo(x + Math.cos(fa) * half * 1.95, y + Math.sin(fa) * half * 1.95);
    ctx.lineTo(x + Math.cos(fa + 0.6) * half * 0.9, y + Math.sin(fa + 0.6) * half * 0.9);
    ctx.lineTo(x + Math.cos(fa - 0.6) * half * 0.9, y + Math.sin(fa - 0.6) * half * 0.9);
    ctx.closePath();
    ctx.fill();
    // the counter
    ctx.fillStyle = "#0c1424";
    ctx.strokeStyle = selected ? "#ffffff" : col;
    ctx.lineWidth = selected ? 3 : 2;
    ctx.beginPath();
    ctx.roundRect(x - half, y - half, half * 2, half * 2, half * 0.25);
    ctx.fill();
    ctx.stroke();
    const fs = Math.max(8, Math.min(15, half * 0.75));
    ctx.font = `700 ${fs}px system-ui, sans-serif`;
    ctx.fillStyle = col;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(abbr(s.class), x, y - (half > 12 ? fs * 0.3 : 0));
    if (half > 12) {
      ctx.font = `600 ${Math.max(8, fs * 0.72)}px system-ui, sans-serif`;
      ctx.fillStyle = COLOUR.ink;
      ctx.fillText(`v${s.speed}`, x, y + fs * 0.62);
    }
    if (severe(s)) {
      ctx.fillStyle = "#ff4a4a";
      ctx.beginPath();
      ctx.moveTo(x + half, y - half);
      ctx.lineTo(x + half - half * 0.6, y - half);
      ctx.lineTo(x + half, y - half + half * 0.6);
      ctx.closePath();
      ctx.fill();
    }
    if (s.damaged_systems.fire) {
      ctx.fillStyle = "#ffcf3c";
      ctx.beginPath();
      ctx.arc(x - half, y - half, Math.max(3, half * 0.22), 0, Math.PI * 2);
      ctx.fill();
    }
    if (s.masking > 0 || s.screen) {
      ctx.strokeStyle = s.masking > 0 ? "rgba(200,220,255,0.6)" : "rgba(160,255,200,0.6)";
      ctx.lineWidth = 1.5;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.arc(x, y, half * 1.55, 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (selected) {
      ctx.strokeStyle = "rgba(255,255,255,0.5)";
      ctx.lineWidth = 1.5;
      this.hexPath(s.hex, 0.95);
      ctx.stroke();
    }
  }

  private marker(m: Marker): void {
    const ctx = this.ctx;
    const z = this.camera.zoom;
    const [x, y] = this.screenOf(m.hex);
    const colours = { step: "#ffffff", target: "#ffe066", declared: "#ff6a6a", danger: "#ff4a4a" } as const;
    const col = colours[m.kind];
    if (m.from) {
      const [fx, fy] = this.screenOf(m.from);
      this.arrow(fx, fy, fx + (x - fx) * 0.72, fy + (y - fy) * 0.72, col, Math.max(2, z * 0.09));
    }
    this.hexPath(m.hex, 0.9);
    if (!m.label && !m.from) {
      ctx.fillStyle = "rgba(255,255,255,0.13)";
      ctx.fill();
    }
    ctx.strokeStyle = col;
    ctx.lineWidth = 2;
    ctx.setLineDash(m.kind === "step" ? [5, 4] : []);
    ctx.stroke();
    ctx.setLineDash([]);
    if (m.label) {
      const fs = Math.max(11, Math.min(14, z * 0.34));
      const ly = m.kind === "target" || m.kind === "declared" ? y - z * 0.95 : y;
      this.label(m.label, x, ly, col, fs, 700);
    }
  }
}
