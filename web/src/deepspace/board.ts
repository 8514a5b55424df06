/**
 * The unbounded hex plane of Deep Space Combat on a canvas: a grid drawn for the visible area only, deployment
 * zones, ships (size and velocity for everyone; the owner's stats elsewhere), velocity vectors and the drift
 * ghost, the plotting overlay (reachable destinations, the planned arrow with its drag handle, target rings
 * with odds), the pending plans (the viewer's own; every fleet's in a finished match's full view), the last
 * resolution's shots, every destroyed ship as a wreck where it died, and the reveal animation (movement, then
 * fire). Ships are labelled as the screen names them (`Scene.label`), never by id.
 *
 * Owns drawing and hit-testing only: the screen gives it a `Scene` and reads back hexes and ships under the
 * pointer. It knows no rule; what it draws as reachable or targetable comes from the legal entries.
 */
import { Camera } from "../shell/camera";
import { fromPixel, type Hex, pixel } from "../shell/hex";
import { attachPanZoom } from "../shell/input";
import type { DsMine, DsShip, DsView, StepIndex } from "./model";
import { parseVkey, pct } from "./model";

export interface ShotLine {
  from: string;
  to: string;
  hit: boolean;
  hp: number;
}

/** A ship as drawn: world centre, radius, and its offset from its hex centre (when sharing the hex). */
interface Placed {
  x: number;
  y: number;
  r: number;
  s: DsShip;
  ox: number;
  oy: number;
  crowd: number;
  /** a destroyed ship, drawn where it died */
  wreck: boolean;
}

/** A ship's pending plan as a view's `mine` (or a full view's `private`) holds it. */
export type Plan = NonNullable<DsMine["plans"]>[string];

export interface Scene {
  view: DsView;
  colours: string[];
  /** the ship the player decides for now, its step's legal entries, the planned velocity */
  current: string | null;
  idx: StepIndex | null;
  plan: Hex | null;
  /** a highlighted target (keyboard cycling or hover) */
  focus: string | null;
  hoverShip: string | null;
  /** the deploy cursor hex (keyboard) */
  cursorHex: Hex | null;
  /** how the screen names a ship ("Raider 2", "ship 1 (Lancer)") and a seat ("Ann") */
  label: (s: DsShip) => string;
  seat: (p: number) => string;
  /** pending plans by ship: the viewer's own, or every fleet's in a full view (`everyone`) */
  plans: Record<string, Plan>;
  everyone: boolean;
}

interface Anim {
  start: number;
  from: Map<string, Hex>;
  shots: ShotLine[];
  blasts: string[];
}

const MOVE_MS = 900;
const FIRE_MS = 900;

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export class Plane {
  readonly camera = new Camera();
  private readonly ctx: CanvasRenderingContext2D;
  private scene: Scene | null = null;
  private dirty = true;
  private frame = 0;
  private lastT = 0;
  private anim: Anim | null = null;
  private shotsShown: ShotLine[] = [];
  private detach: () => void;
  private resizeObs: ResizeObserver;
  private dragging = false;
  /** a click on the plane (not a drag) */
  onClick: (sx: number, sy: number) => void = () => {};
  /** the planned arrow's handle was dragged to a hex (live), and released */
  onDrag: (h: Hex, final: boolean) => void = () => {};
  onHover: (sx: number, sy: number) => void = () => {};
  onKey: (e: KeyboardEvent) => boolean = () => false;
  /** the person moved the view (drag, wheel, pinch, keys) */
  onUserMove: () => void = () => {};
  /** the canvas changed size */
  onResize: () => void = () => {};

  constructor(readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
    this.camera.zoom = 24;
    this.camera.jump(0, 0, 24);
    this.camera.minZoom = 2;
    this.camera.maxZoom = 120;
    // the handle drag comes before the camera's own drag (capture at the target runs first)
    canvas.addEventListener("pointerdown", this.handleDown, { capture: true });
    // registered before the camera's key listener: a key the page already used (the shell, or this screen
    // through the shell) or one pressed while a dialog of the page is open moves nothing
    window.addEventListener("keydown", this.keyGuard);
    this.detach = attachPanZoom(canvas, this.camera, {
      changed: () => {
        this.touch();
        this.onUserMove();
      },
      onKey: (e) => this.onKey(e),
      onClick: (sx, sy) => this.onClick(sx, sy),
      onHover: (sx, sy) => this.onHover(sx, sy),
    });
    this.resizeObs = new ResizeObserver(() => this.resize());
    this.resizeObs.observe(canvas);
    this.resize();
    const loop = (t: number): void => {
      const dt = this.lastT ? Math.min(64, t - this.lastT) : 16;
      this.lastT = t;
      if (this.camera.step(dt, reducedMotion())) this.dirty = true;
      if (this.anim) this.dirty = true;
      if (this.dirty) this.draw(t);
      this.frame = requestAnimationFrame(loop);
    };
    this.frame = requestAnimationFrame(loop);
  }

  private keyGuard = (e: KeyboardEvent): void => {
    const overlay = document.querySelector<HTMLElement>("[role=dialog][aria-modal=true]:not([hidden]), .overlay:not([hidden])");
    if (e.defaultPrevented || overlay) e.stopImmediatePropagation();
  };

  destroy(): void {
    window.removeEventListener("keydown", this.keyGuard);
    cancelAnimationFrame(this.frame);
    this.detach();
    this.resizeObs.disconnect();
    this.canvas.removeEventListener("pointerdown", this.handleDown, { capture: true });
  }

  setScene(s: Scene): void {
    this.scene = s;
    this.touch();
  }

  touch(): void {
    this.dirty = true;
  }

  get animating(): boolean {
    return this.anim !== null;
  }

  /** Start the reveal: ships glide from `from` to their new positions, then the shots flash. */
  reveal(from: Map<string, Hex>, shots: ShotLine[], blasts: string[]): void {
    this.shotsShown = shots;
    if (reducedMotion()) {
      this.anim = null;
      this.touch();
      return;
    }
    this.anim = { start: performance.now(), from, shots, blasts };
  }

  /** The shots of the last resolution to keep drawn (faint) until the next reveal. */
  setShots(shots: ShotLine[]): void {
    this.shotsShown = shots;
    this.touch();
  }

  private resize(): void {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(r.width * dpr));
    this.canvas.height = Math.max(1, Math.round(r.height * dpr));
    const changed = r.width !== this.camera.width || r.height !== this.camera.height;
    this.camera.setViewport(r.width, r.height);
    this.dirty = true;
    if (changed) this.onResize();
  }

  hexAt(sx: number, sy: number): Hex {
    return fromPixel(...this.camera.toWorld(sx, sy));
  }

  screenOf(h: Hex): [number, number] {
    return this.camera.toScreen(...pixel(h));
  }

  /** Screen space the HUD panels cover (CSS pixels), so fitting and centring use the free part. */
  insets = { left: 0, top: 0, right: 0, bottom: 0 };

  /** Fit the given hexes in the free part of the view (or ease there). */
  fitHexes(hexes: Hex[], instant = false, pad = 40): void {
    if (!hexes.length) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const h of hexes) {
      const [x, y] = pixel(h);
      x0 = Math.min(x0, x - 1.5);
      y0 = Math.min(y0, y - 1.5);
      x1 = Math.max(x1, x + 1.5);
      y1 = Math.max(y1, y + 1.5);
    }
    const c = this.camera;
    const ins = this.insets;
    const fw = Math.max(120, c.width - ins.left - ins.right - 2 * pad);
    const fh = Math.max(120, c.height - ins.top - ins.bottom - 2 * pad);
    const z = Math.min(48, Math.max(3, Math.min(fw / (x1 - x0), fh / (y1 - y0))));
    // the world centre such that the box's centre lands in the middle of the free area
    const cx = (x0 + x1) / 2 - (ins.left - ins.right) / 2 / z;
    const cy = (y0 + y1) / 2 - (ins.top - ins.bottom) / 2 / z;
    if (instant || reducedMotion()) this.camera.jump(cx, cy, z);
    else this.camera.moveTo(cx, cy, z);
    this.touch();
  }

  centreOn(h: Hex): void {
    const z = this.camera.target.zoom;
    const [hx, hy] = pixel(h);
    const x = hx - (this.insets.left - this.insets.right) / 2 / z;
    const y = hy - (this.insets.top - this.insets.bottom) / 2 / z;
    if (reducedMotion()) this.camera.jump(x, y);
    else this.camera.moveTo(x, y);
    this.touch();
  }

  /** Where a ship is drawn (its hex, spread when several share it), in world units. */
  private shipWorld(_s: DsShip, at: Hex, stackIndex: number, stackSize: number): [number, number] {
    const [x, y] = pixel(at);
    if (stackSize <= 1) return [x, y];
    const a = (2 * Math.PI * stackIndex) / stackSize - Math.PI / 2;
    const r = Math.max(0.42, (6 + 2.4 * stackSize) / this.camera.zoom);
    return [x + r * Math.cos(a), y + r * Math.sin(a)];
  }

  /** A ship's disc: grows with size; never below a readable screen size (so its size number fits). */
  private shipRadius(s: DsShip, stackSize: number): number {
    const base = 0.26 + 0.07 * Math.sqrt(s.size);
    const world = stackSize > 1 ? Math.min(base, 0.34) : Math.min(base, 0.6);
    const minPx = (stackSize > 1 ? 7 : 8) + 1.5 * Math.sqrt(s.size);
    return Math.max(world, minPx / this.camera.zoom);
  }

  /** Drawn positions (world) of every ship on the plane this frame. */
  private layout(now: number): Map<string, Placed> {
    const out = new Map<string, Placed>();
    const sc = this.scene;
    if (!sc) return out;
    const a = this.anim;
    const k = a ? Math.min(1, (now - a.start) / MOVE_MS) : 1;
    const ease = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
    const groups = new Map<string, DsShip[]>();
    const at = (s: DsShip): Hex | null =>
      s.pos ? (s.pos as Hex) : sc.view.phase === "deploy" ? ((sc.plans[s.id]?.pos as Hex | undefined) ?? null) : null;
    const where = new Map<string, Hex>();
    for (const s of sc.view.ships) {
      const pos = at(s);
      if (!pos || s.status === "withdrawn") continue;
      if (s.status === "destroyed") {
        // a wreck stays where the ship died, under the living ships (not spread with them)
        const [x, y] = pixel(pos);
        out.set(s.id, { x, y, r: this.shipRadius(s, 1) * 0.85, s, ox: 0, oy: 0, crowd: 1, wreck: true });
        continue;
      }
      where.set(s.id, pos);
      const key = `${pos[0]},${pos[1]}`;
      const g = groups.get(key) ?? [];
      g.push(s);
      groups.set(key, g);
    }
    for (const g of groups.values()) {
      g.forEach((s, i) => {
        const [x1, y1] = this.shipWorld(s, where.get(s.id)!, i, g.length);
        let x = x1, y = y1;
        const from = a?.from.get(s.id);
        if (from && k < 1) {
          const [x0, y0] = pixel(from);
          x = x0 + (x1 - x0) * ease;
          y = y0 + (y1 - y0) * ease;
        }
        const [hx, hy] = pixel(where.get(s.id)!);
        out.set(s.id, { x, y, r: this.shipRadius(s, g.length), s, ox: x1 - hx, oy: y1 - hy, crowd: g.length, wreck: false });
      });
    }
    return out;
  }

  /** The ship under a screen point (nearest within its disc, with a finger's slack; a living ship before a wreck). */
  shipAt(sx: number, sy: number): DsShip | null {
    const [wx, wy] = this.camera.toWorld(sx, sy);
    let best: DsShip | null = null;
    let bestD = Infinity;
    const slack = 10 / this.camera.zoom;
    for (const { x, y, r, s, wreck } of this.layout(performance.now()).values()) {
      const d = Math.hypot(wx - x, wy - y) + (wreck ? 1000 : 0);
      if (d - (wreck ? 1000 : 0) <= r + slack && d < bestD) {
        best = s;
        bestD = d;
      }
    }
    return best;
  }

  /** Every ship drawn now: its id, screen point and whether it is a wreck (the tests read what the page shows). */
  drawn(): { id: string; at: [number, number]; wreck: boolean; s: DsShip }[] {
    return [...this.layout(performance.now()).values()].map((p) => ({ id: p.s.id, at: this.camera.toScreen(p.x, p.y), wreck: p.wreck, s: p.s }));
  }

  /** The screen point of a ship's disc as drawn now (tests and keyboard focus use it), or null. */
  shipScreen(id: string): [number, number] | null {
    const p = this.layout(performance.now()).get(id);
    return p ? this.camera.toScreen(p.x, p.y) : null;
  }

  handlePos(): [number, number] | null {
    const sc = this.scene;
    if (!sc || !sc.current || !sc.plan || !sc.idx || sc.idx.kind !== "velocity") return null;
    const s = sc.view.ships.find((x) => x.id === sc.current);
    const origin = originOf(sc, s);
    if (!origin) return null;
    return this.camera.toScreen(...pixel([origin[0] + sc.plan[0], origin[1] + sc.plan[1]]));
  }

  private handleDown = (e: PointerEvent): void => {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const hp = this.handlePos();
    if (!hp) return;
    const r = this.canvas.getBoundingClientRect();
    const sx = e.clientX - r.left;
    const sy = e.clientY - r.top;
    const grab = Math.max(16, this.camera.zoom * 0.55);
    if (Math.hypot(sx - hp[0], sy - hp[1]) > grab) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    this.dragging = true;
    this.canvas.setPointerCapture(e.pointerId);
    const move = (ev: PointerEvent): void => {
      const b = this.canvas.getBoundingClientRect();
      this.onDrag(this.hexAt(ev.clientX - b.left, ev.clientY - b.top), false);
    };
    const up = (ev: PointerEvent): void => {
      this.canvas.removeEventListener("pointermove", move, { capture: true });
      this.canvas.removeEventListener("pointerup", up, { capture: true });
      this.canvas.removeEventListener("pointercancel", up, { capture: true });
      this.dragging = false;
      const b = this.canvas.getBoundingClientRect();
      ev.stopImmediatePropagation();
      this.onDrag(this.hexAt(ev.clientX - b.left, ev.clientY - b.top), true);
    };
    const capMove = (ev: PointerEvent): void => {
      ev.stopImmediatePropagation();
      move(ev);
    };
    this.canvas.addEventListener("pointermove", capMove, { capture: true });
    this.canvas.addEventListener("pointerup", up, { capture: true });
    this.canvas.addEventListener("pointercancel", up, { capture: true });
    const cleanup = (): void => this.canvas.removeEventListener("pointermove", capMove, { capture: true });
    this.canvas.addEventListener("pointerup", cleanup, { capture: true, once: true });
    this.canvas.addEventListener("pointercancel", cleanup, { capture: true, once: true });
  };

  get isDragging(): boolean {
    return this.dragging;
  }

  // --- drawing ---------------------------------------------------------------------------------------

  private worldTransform(): void {
    const dpr = window.devicePixelRatio || 1;
    const z = this.camera.zoom;
    this.ctx.setTransform(dpr * z, 0, 0, dpr * z, dpr * (this.camera.width / 2 - this.camera.x * z),
      dpr * (this.camera.height / 2 - this.camera.y * z));
  }

  private screenTransform(): void {
    const dpr = window.devicePixelRatio || 1;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  private hexPath(h: Hex, scale = 1): void {
    const [cx, cy] = pixel(h);
    const ctx = this.ctx;
    ctx.beginPath();
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      const x = cx + Math.cos(a) * scale;
      const y = cy + Math.sin(a) * scale;
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }

  private draw(now: number): void {
    this.dirty = false;
    const ctx = this.ctx;
    this.screenTransform();
    ctx.fillStyle = "#03050b";
    ctx.fillRect(0, 0, this.camera.width, this.camera.height);
    this.drawStars();
    const sc = this.scene;
    this.worldTransform();
    this.drawGrid();
    if (!sc) return;
    this.drawZones(sc);
    const arena = Number(sc.view.options.arena_radius ?? 0);
    if (arena > 0) this.drawArena(arena);
    const lay = this.layout(now);
    this.drawReach(sc);
    this.drawVectors(sc, lay);
    this.drawPlans(sc, lay);
    this.drawShots(sc, lay, now);
    this.drawShips(sc, lay, now);
    this.drawTargets(sc, lay);
    if (this.anim && now - this.anim.start > MOVE_MS + FIRE_MS) {
      this.anim = null;
      this.dirty = true;
    }
  }

  private drawStars(): void {
    const ctx = this.ctx;
    const w = this.camera.width;
    const h = this.camera.height;
    // fixed pseudo-random stars with a slow parallax
    ctx.fillStyle = "rgba(200,210,255,0.55)";
    const px = this.camera.x * this.camera.zoom * 0.05;
    const py = this.camera.y * this.camera.zoom * 0.05;
    let seed = 7;
    for (let i = 0; i < 140; i++) {
      seed = (seed * 16807) % 2147483647;
      const x = (((seed % 4000) - px) % w + w) % w;
      seed = (seed * 16807) % 2147483647;
      const y = (((seed % 4000) - py) % h + h) % h;
      ctx.fillRect(x, y, i % 9 === 0 ? 1.6 : 1, i % 9 === 0 ? 1.6 : 1);
    }
  }

  private drawGrid(): void {
    const z = this.camera.zoom;
    const ctx = this.ctx;
    const v = this.camera.visible();
    const q0 = Math.floor(v.x / 1.5) - 1;
    const q1 = Math.ceil((v.x + v.w) / 1.5) + 1;
    if (z < 5) {
      // too small for lines: a dot per hex every few hexes
      ctx.fillStyle = "rgba(120,140,190,0.25)";
      const stepQ = z < 2.5 ? 4 : 2;
      for (let q = q0 - (q0 % stepQ); q <= q1; q += stepQ) {
        const r0 = Math.floor(v.y / Math.sqrt(3) - q / 2) - 1;
        const r1 = Math.ceil((v.y + v.h) / Math.sqrt(3) - q / 2) + 1;
        for (let r = r0 - (r0 % stepQ); r <= r1; r += stepQ) {
          const [x, y] = pixel([q, r]);
          ctx.fillRect(x - 0.15, y - 0.15, 0.3, 0.3);
        }
      }
      return;
    }
    ctx.strokeStyle = `rgba(110,130,180,${Math.min(0.3, 0.08 + z / 200)})`;
    ctx.lineWidth = 1 / z;
    ctx.beginPath();
    for (let q = q0; q <= q1; q++) {
      const r0 = Math.floor(v.y / Math.sqrt(3) - q / 2) - 1;
      const r1 = Math.ceil((v.y + v.h) / Math.sqrt(3) - q / 2) + 1;
      for (let r = r0; r <= r1; r++) {
        const [cx, cy] = pixel([q, r]);
        // three edges per hex (upper-left, top, upper-right) draw the whole grid once
        ctx.moveTo(cx - 1, cy);
        ctx.lineTo(cx - 0.5, cy - Math.sqrt(3) / 2);
        ctx.lineTo(cx + 0.5, cy - Math.sqrt(3) / 2);
        ctx.lineTo(cx + 1, cy);
      }
    }
    ctx.stroke();
  }

  private drawZones(sc: Scene): void {
    if (sc.view.phase !== "deploy" && sc.view.phase !== "design") return;
    const ctx = this.ctx;
    const z = this.camera.zoom;
    sc.view.players.forEach((p, i) => {
      const [q, r, rad] = p.zone;
      const col = sc.colours[i] ?? "#888";
      ctx.globalAlpha = i === sc.view.you ? 0.22 : 0.1;
      ctx.fillStyle = col;
      for (let dq = -rad; dq <= rad; dq++) {
        for (let dr = Math.max(-rad, -dq - rad); dr <= Math.min(rad, -dq + rad); dr++) {
          this.hexPath([q + dq, r + dr], 0.96);
          ctx.fill();
        }
      }
      ctx.globalAlpha = 1;
      const [x, y] = pixel([q, r]);
      ctx.strokeStyle = col;
      ctx.lineWidth = 1.5 / z;
      ctx.beginPath();
      ctx.arc(x, y, (rad + 0.9) * Math.sqrt(3), 0, 2 * Math.PI);
      ctx.stroke();
      this.label(i === sc.view.you ? "your zone" : `${sc.seat(i)}'s zone`, x, y - (rad + 1.4) * Math.sqrt(3), col, 12, "center");
    });
  }

  private drawArena(radius: number): void {
    const ctx = this.ctx;
    ctx.strokeStyle = "rgba(255,120,120,0.5)";
    ctx.setLineDash([6 / this.camera.zoom, 6 / this.camera.zoom]);
    ctx.lineWidth = 1.5 / this.camera.zoom;
    ctx.beginPath();
    ctx.arc(0, 0, (radius + 0.5) * 1.5 * 1.1547, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  /** Reachable destinations of the current ship (the legal velocities), and the deploy hexes. */
  private drawReach(sc: Scene): void {
    const idx = sc.idx;
    if (!idx) return;
    const ctx = this.ctx;
    const z = this.camera.zoom;
    if (idx.kind === "place") {
      ctx.fillStyle = "rgba(255,255,255,0.10)";
      ctx.strokeStyle = "rgba(255,255,255,0.45)";
      ctx.lineWidth = 1 / z;
      for (const k of idx.byKey.keys()) {
        const h = parseVkey(k);
        this.hexPath(h, 0.9);
        ctx.fill();
        ctx.stroke();
      }
      if (sc.cursorHex) {
        ctx.strokeStyle = "#ffffff";
        ctx.lineWidth = 3 / z;
        this.hexPath(sc.cursorHex, 0.92);
        ctx.stroke();
      }
      return;
    }
    if (idx.kind !== "velocity") return;
    const s = sc.view.ships.find((x) => x.id === sc.current);
    const origin = originOf(sc, s);
    if (!origin) return;
    ctx.fillStyle = "rgba(120,190,255,0.17)";
    ctx.strokeStyle = "rgba(140,200,255,0.35)";
    ctx.lineWidth = 1 / z;
    for (const k of idx.byKey.keys()) {
      const v = parseVkey(k);
      this.hexPath([origin[0] + v[0], origin[1] + v[1]], 0.9);
      ctx.fill();
      ctx.stroke();
    }
    // the cost of each reachable hex as a tint ring when zoomed in enough
    if (z >= 14) {
      for (const [k, e] of idx.byKey) {
        const v = parseVkey(k);
        if (typeof e.note?.cost !== "number") continue; // deployment: no thrust is spent
        const cost = e.note.cost;
        const [x, y] = pixel([origin[0] + v[0], origin[1] + v[1]]);
        ctx.fillStyle = "rgba(190,205,235,0.45)";
        ctx.font = `${10 / z}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        if (z >= 22) ctx.fillText(String(cost), x, y + 0.55);
      }
    }
  }

  private arrow(x0: number, y0: number, x1: number, y1: number, col: string, width: number, head = 0.35): void {
    const ctx = this.ctx;
    const z = this.camera.zoom;
    ctx.strokeStyle = col;
    ctx.fillStyle = col;
    ctx.lineWidth = width / z;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    const d = Math.hypot(x1 - x0, y1 - y0);
    if (d < 0.01) return;
    const ux = (x1 - x0) / d;
    const uy = (y1 - y0) / d;
    const hs = Math.max(head, 9 / z);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - ux * hs - uy * hs * 0.55, y1 - uy * hs + ux * hs * 0.55);
    ctx.lineTo(x1 - ux * hs + uy * hs * 0.55, y1 - uy * hs - ux * hs * 0.55);
    ctx.closePath();
    ctx.fill();
  }

  /** Every ship's velocity vector (its drift: where it goes if it keeps it) with a ghost at the end. */
  private drawVectors(sc: Scene, lay: Map<string, Placed>): void {
    if (this.anim) return;
    const ctx = this.ctx;
    const z = this.camera.zoom;
    for (const { x, y, s, wreck } of lay.values()) {
      if (wreck || !s.vel || !s.pos || (s.vel[0] === 0 && s.vel[1] === 0)) continue;
      const col = sc.colours[s.owner] ?? "#aaa";
      const [tx, ty] = pixel([s.pos[0] + s.vel[0], s.pos[1] + s.vel[1]]);
      ctx.globalAlpha = 0.55;
      ctx.setLineDash([5 / z, 4 / z]);
      this.arrow(x, y, tx, ty, col, 1.5, 0.28);
      ctx.setLineDash([]);
      ctx.globalAlpha = 0.35;
      ctx.strokeStyle = col;
      ctx.lineWidth = 1 / z;
      ctx.beginPath();
      ctx.arc(tx, ty, 0.3, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
  }

  /** The pending plotted velocities and aims (the player's own in white; in a full view every fleet's in its
   *  colour) and the planned arrow of the current ship. */
  private drawPlans(sc: Scene, lay: Map<string, Placed>): void {
    if (this.anim) return;
    const ctx = this.ctx;
    const z = this.camera.zoom;
    if (sc.view.phase === "plot" || sc.view.phase === "deploy") {
      for (const [sid, p] of Object.entries(sc.plans)) {
        const at = lay.get(sid);
        const s = sc.view.ships.find((x) => x.id === sid);
        if (!s || !p.vel) continue;
        const origin = sc.view.phase === "deploy" ? p.pos ?? null : s.pos;
        if (!origin) continue;
        const [x0, y0] = at && sc.view.phase === "plot" ? [at.x, at.y] : pixel(origin as Hex);
        const [tx, ty] = pixel([origin[0] + p.vel[0], origin[1] + p.vel[1]]);
        ctx.globalAlpha = 0.9;
        this.arrow(x0, y0, tx, ty, sc.everyone ? sc.colours[s.owner] ?? "#ffffff" : "#ffffff", 2, 0.3);
        ctx.globalAlpha = 1;
        for (const [, target] of p.shots ?? []) {
          const t = target ? lay.get(target) : undefined;
          if (!t) continue;
          ctx.strokeStyle = "rgba(255,110,110,0.75)";
          ctx.setLineDash([3 / z, 5 / z]);
          ctx.lineWidth = 1.5 / z;
          ctx.beginPath();
          ctx.moveTo(tx, ty);
          ctx.lineTo(t.x, t.y);
          ctx.stroke();
          ctx.setLineDash([]);
        }
      }
    }
    if (sc.idx?.kind === "velocity" && sc.plan) {
      const s = sc.view.ships.find((x) => x.id === sc.current);
      const origin = originOf(sc, s);
      if (!origin || !s) return;
      const at = lay.get(s.id);
      const [x0, y0] = at ? [at.x, at.y] : pixel(origin);
      const dest: Hex = [origin[0] + sc.plan[0], origin[1] + sc.plan[1]];
      const [tx, ty] = pixel(dest);
      this.arrow(x0, y0, tx, ty, "#ffffff", 3, 0.4);
      // the handle
      ctx.fillStyle = "rgba(255,255,255,0.18)";
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 2 / z;
      ctx.beginPath();
      ctx.arc(tx, ty, Math.max(0.45, 11 / z), 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      const e = sc.idx.byKey.get(`${sc.plan[0]},${sc.plan[1]}`);
      if (e?.note && typeof e.note.cost === "number") {
        const thrust = s.thrust ?? 0;
        this.label(`thrust ${e.note.cost}/${thrust} · speed ${e.note.speed}`, tx, ty - Math.max(0.75, 22 / z), "#ffffff", 12, "center", true);
      } else if (e?.note) {
        this.label(`speed ${e.note.speed}`, tx, ty - Math.max(0.75, 22 / z), "#ffffff", 12, "center", true);
      }
    }
  }

  private shotList(sc: Scene): ShotLine[] {
    return this.shotsShown.filter((l) => sc.view.ships.some((s) => s.id === l.from));
  }

  private drawShots(sc: Scene, lay: Map<string, Placed>, now: number): void {
    const a = this.anim;
    const lines = this.shotList(sc);
    if (!lines.length) return;
    // shown from the reveal through allocation and declarations; gone once the next round's plotting begins
    if (sc.view.phase === "plot" && !a) return;
    let alpha = 0.8;
    if (a) {
      const t = now - a.start - MOVE_MS;
      if (t < 0) return;
      alpha = 1 - 0.6 * Math.min(1, t / FIRE_MS);
    }
    const ctx = this.ctx;
    const z = this.camera.zoom;
    const posOf = (id: string): [number, number] | null => {
      const l = lay.get(id);
      if (l) return [l.x, l.y];
      const s = sc.view.ships.find((x) => x.id === id);
      return s?.pos ? pixel(s.pos as Hex) : null;
    };
    for (const l of lines) {
      const p0 = posOf(l.from);
      const p1 = posOf(l.to);
      if (!p0 || !p1) continue;
      ctx.globalAlpha = alpha;
      ctx.strokeStyle = l.hit ? "#ff5a4a" : "#9aa6bd";
      ctx.lineWidth = (l.hit ? 2.5 : 1.5) / z;
      if (!l.hit) ctx.setLineDash([4 / z, 4 / z]);
      ctx.beginPath();
      ctx.moveTo(p0[0], p0[1]);
      ctx.lineTo(p1[0], p1[1]);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.globalAlpha = Math.min(1, alpha + 0.4);
      if (l.hit && l.hp > 0) this.label(`-${l.hp}`, p1[0] + 0.5, p1[1] - 0.5, "#ff8a7a", 12, "left", true);
      ctx.globalAlpha = 1;
    }
  }

  private drawShips(sc: Scene, lay: Map<string, Placed>, now: number): void {
    const ctx = this.ctx;
    const z = this.camera.zoom;
    const me = sc.view.you;
    const pulse = reducedMotion() ? 1 : 0.75 + 0.25 * Math.sin(now / 260);
    // wrecks first, under the living ships
    const order = [...lay.values()].sort((a, b) => Number(b.wreck) - Number(a.wreck));
    for (const { x, y, r, s, crowd, wreck } of order) {
      const col = sc.colours[s.owner] ?? "#aaa";
      if (wreck) {
        this.drawWreck(x, y, r, col, z);
        if (z >= 16) this.label(`wreck of ${sc.label(s)}`, x, y + r + 9 / z, "rgba(200,150,150,0.7)", 10, "center");
        continue;
      }
      if (s.id === sc.current) {
        ctx.strokeStyle = `rgba(255,255,255,${pulse})`;
        ctx.lineWidth = 2.5 / z;
        ctx.beginPath();
        ctx.arc(x, y, r + 0.22, 0, 2 * Math.PI);
        ctx.stroke();
        if (!reducedMotion()) this.dirty = true;
      }
      // the hull: a disc for every ship, a diamond mark for the viewer's own
      ctx.fillStyle = col;
      ctx.globalAlpha = s.status === "active" ? 1 : 0.35;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.strokeStyle = "rgba(0,0,0,0.7)";
      ctx.lineWidth = 1.5 / z;
      ctx.stroke();
      if (me !== null && s.owner === me) {
        ctx.strokeStyle = "#ffffff";
        ctx.lineWidth = 1.5 / z;
        ctx.beginPath();
        ctx.arc(x, y, r + 0.09, 0, 2 * Math.PI);
        ctx.stroke();
      }
      if (s.id === sc.hoverShip) {
        ctx.strokeStyle = "rgba(255,255,255,0.8)";
        ctx.lineWidth = 1 / z;
        ctx.beginPath();
        ctx.arc(x, y, r + 0.16, 0, 2 * Math.PI);
        ctx.stroke();
      }
      // the size inside the hull, readable at any zoom that shows ships at a few pixels
      if (r * z >= 6.5) {
        ctx.fillStyle = "#05070d";
        ctx.font = `700 ${Math.min(r * 1.15, 16 / z)}px system-ui, sans-serif`;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(String(s.size), x, y + r * 0.05);
      }
      // the ship's name under it when there is room (as the lists and the log name it)
      // (beside the disc, so that a ship in the hex below never covers it)
      if (z >= 16 && crowd <= 2) this.label(sc.label(s), x + r + 4 / z, y + r * 0.45, "rgba(210,220,240,0.8)", 10, "left");
      if (s.incoming > 0 && (sc.view.phase === "allocate" || sc.view.phase === "destruct")) {
        this.label(`-${s.incoming}`, x + r + 3 / z, y - r, "#ff6a5a", 13, "left", true);
      }
    }
  }

  /** A destroyed ship: its faded hull broken by a red cross. */
  private drawWreck(x: number, y: number, r: number, col: string, z: number): void {
    const ctx = this.ctx;
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = col;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.globalAlpha = 0.85;
    ctx.strokeStyle = "#ff6a5a";
    ctx.lineWidth = 2 / z;
    ctx.beginPath();
    ctx.moveTo(x - r * 0.75, y - r * 0.75);
    ctx.lineTo(x + r * 0.75, y + r * 0.75);
    ctx.moveTo(x + r * 0.75, y - r * 0.75);
    ctx.lineTo(x - r * 0.75, y + r * 0.75);
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  /** Target rings with the engine's odds during a fire step. */
  private drawTargets(sc: Scene, lay: Map<string, Placed>): void {
    const idx = sc.idx;
    if (!idx || idx.kind !== "fire" || this.anim) return;
    const ctx = this.ctx;
    const z = this.camera.zoom;
    const shooter = sc.view.ships.find((s) => s.id === sc.current);
    const plan = shooter ? sc.view.mine?.plans?.[shooter.id] : undefined;
    const from = shooter?.pos && plan?.vel ? pixel([shooter.pos[0] + plan.vel[0], shooter.pos[1] + plan.vel[1]]) : null;
    for (const [tid, e] of idx.targets) {
      const t = lay.get(tid);
      if (!t) continue;
      const focused = tid === sc.focus || tid === sc.hoverShip;
      ctx.strokeStyle = focused ? "#ff5a4a" : "rgba(255,120,100,0.7)";
      ctx.lineWidth = (focused ? 3 : 1.5) / z;
      ctx.setLineDash(focused ? [] : [4 / z, 3 / z]);
      ctx.beginPath();
      ctx.arc(t.x, t.y, t.r + 0.3, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
      if (focused && from) {
        ctx.strokeStyle = "rgba(255,90,74,0.8)";
        ctx.lineWidth = 1.5 / z;
        ctx.beginPath();
        ctx.moveTo(from[0], from[1]);
        ctx.lineTo(t.x, t.y);
        ctx.stroke();
      }
      // the odds label outside the disc, away from the other ships of a shared hex (a crowded hex: the focused only)
      if (t.crowd > 3 && !focused) continue;
      const d = Math.hypot(t.ox, t.oy);
      const [ux, uy] = d > 1e-6 ? [t.ox / d, t.oy / d] : [0, -1];
      const off = t.r + 0.3 + 14 / z;
      this.label(pct(e.note?.p_hit), t.x + ux * off, t.y + uy * off, focused ? "#ffffff" : "#ffc0b0", focused ? 13 : 11, "center", true);
    }
  }

  /** Text at a world point, drawn at a fixed screen size. */
  private label(text: string, wx: number, wy: number, col: string, px: number, align: CanvasTextAlign, box = false): void {
    const ctx = this.ctx;
    const [sx, sy] = this.camera.toScreen(wx, wy);
    this.screenTransform();
    ctx.font = `600 ${px}px system-ui, sans-serif`;
    ctx.textAlign = align;
    ctx.textBaseline = "middle";
    if (box) {
      const w = ctx.measureText(text).width;
      const x0 = align === "center" ? sx - w / 2 : align === "left" ? sx : sx - w;
      ctx.fillStyle = "rgba(5,8,16,0.78)";
      ctx.fillRect(x0 - 4, sy - px * 0.7, w + 8, px * 1.4);
    }
    ctx.fillStyle = col;
    ctx.fillText(text, sx, sy);
    this.worldTransform();
  }
}

/** Where the current ship's new velocity is measured from: its position (plot) or its planned hex (deploy). */
export function originOf(sc: Scene, s: DsShip | undefined): Hex | null {
  if (!s) return null;
  if (sc.view.phase === "deploy") {
    const p = sc.plans[s.id];
    return p?.pos ? (p.pos as Hex) : null;
  }
  return s.pos ? (s.pos as Hex) : null;
}
