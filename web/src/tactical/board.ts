/**
 * A tactical board on screen: the main canvas (the cached static layer plus a per-frame overlay: the hovered
 * hex), the camera and its controls, and the minimap. Redraws only when something changed.
 *
 * Owns the board view; the page (demo.ts, later the game screen) owns the HUD around it.
 */
import { Camera } from "../shell/camera";
import { fromPixel, type Hex, key, pixel } from "../shell/hex";
import { attachPanZoom } from "../shell/input";
import type { Board } from "./boardData";
import { BoardLayer, BoardRenderer, baseColour } from "./boardLayer";
import { Minimap } from "./minimap";
import { COLORS, SIDE } from "./palette";
import { DIR_ARROW, DIR_WORD } from "./words";

export interface ViewState {
  x: number;
  y: number;
  zoom: number;
  fitZoom: number;
  width: number;
  height: number;
  layerRenders: number;
  hover: Hex | null;
}

export class BoardView {
  readonly camera = new Camera();
  readonly renderer: BoardRenderer;
  private readonly layer: BoardLayer;
  private readonly ctx: CanvasRenderingContext2D;
  readonly minimap: Minimap;
  private dirty = true;
  private hover: Hex | null = null;
  private lastT = 0;
  private fitZ = 1;
  private frame = 0;
  /** Called when the hovered hex changes (null: none). */
  onHover: (h: Hex | null) => void = () => {};
  /** Called after the view moved or zoomed (for a readout). */
  onMove: () => void = () => {};
  /** Called on a click or tap (not a drag) with the world point and the hex under it. */
  onClick: (world: [number, number], h: Hex) => void = () => {};
  /** Extra per-frame drawing over the board, in world units (a game screen's pieces), then in screen pixels. */
  overlay: ((ctx: CanvasRenderingContext2D, zoom: number) => void) | null = null;
  screenOverlay: ((ctx: CanvasRenderingContext2D) => void) | null = null;
  /** Points to mark on the minimap (a game's pieces), in world units. */
  minimapMarks: (() => { x: number; y: number; colour: string }[]) | null = null;
  /** Keys before the view's own (H): return true when used. */
  keys: ((e: KeyboardEvent) => boolean) | null = null;
  private readonly detach: () => void;

  constructor(
    readonly canvas: HTMLCanvasElement,
    minimapCanvas: HTMLCanvasElement,
    readonly board: Board,
    perspective: number | null = null,
  ) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
    this.renderer = new BoardRenderer(board, { perspective });
    this.layer = new BoardLayer(this.renderer);
    this.minimap = new Minimap(minimapCanvas, this.renderer, (wx, wy) => {
      this.camera.moveTo(wx, wy);
      this.touch();
    });
    const e = this.renderer.extent;
    this.camera.limits = { x: e.x, y: e.y, w: e.w, h: e.h };
    this.detach = attachPanZoom(canvas, this.camera, {
      changed: () => this.touch(),
      onClick: (sx, sy) => this.onClick(this.camera.toWorld(sx, sy), this.hexAt(sx, sy)),
      onKey: (ev) => {
        if (this.keys?.(ev)) return true;
        if (ev.key === "h" || ev.key === "H" || ev.key === "Home") {
          this.fit();
          return true;
        }
        return false;
      },
      onHover: (sx, sy) => this.setHover(this.hexAt(sx, sy)),
      onLeave: () => this.setHover(null),
    });
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
    this.fit(true);
    const loop = (t: number): void => {
      const dt = this.lastT ? Math.min(64, t - this.lastT) : 16;
      this.lastT = t;
      if (this.camera.step(dt, reducedMotion())) this.dirty = true;
      if (this.dirty) this.draw();
      this.frame = requestAnimationFrame(loop);
    };
    this.frame = requestAnimationFrame(loop);
  }

  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.detach();
  }

  /** Redraw on the next frame (the pieces changed). */
  invalidate(): void {
    this.dirty = true;
  }

  /** The hex under a screen point. */
  hexAt(sx: number, sy: number): Hex {
    return fromPixel(...this.camera.toWorld(sx, sy));
  }

  private setHover(h: Hex | null): void {
    if ((h === null) !== (this.hover === null) || (h && this.hover && key(h) !== key(this.hover))) {
      this.hover = h;
      this.dirty = true;
      this.onHover(h);
    }
  }

  private touch(): void {
    this.dirty = true;
    this.onMove();
  }

  private resize(): void {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(r.width * dpr);
    this.canvas.height = Math.round(r.height * dpr);
    const first = this.camera.width <= 1;
    this.camera.setViewport(r.width, r.height);
    this.fitZ = this.camera.fitZoom(this.renderer.extent);
    this.camera.minZoom = this.fitZ * 0.6;
    this.camera.maxZoom = Math.max(this.fitZ * 8, 90);
    // the minimap keeps the board's shape, at most a quarter of the width and 30% of the height
    const e = this.renderer.extent;
    const mh = Math.min(300, r.height * 0.3, (Math.min(200, r.width * 0.25) * e.h) / e.w);
    this.minimap.resize(Math.max(60, Math.round((mh * e.w) / e.h)), dpr);
    if (first) this.fit(true);
    this.dirty = true;
  }

  /** Show the whole board. */
  fit(instant = false): void {
    const e = this.renderer.extent;
    const cx = e.x + e.w / 2;
    const cy = e.y + e.h / 2;
    if (instant) this.camera.jump(cx, cy, this.fitZ);
    else this.camera.moveTo(cx, cy, this.fitZ);
    this.touch();
  }

  /** Centre the view on a hex (optionally zooming). */
  centreOn(h: Hex, zoom?: number): void {
    this.camera.moveTo(...pixel(h), zoom);
    this.touch();
  }

  state(): ViewState {
    return {
      x: this.camera.x,
      y: this.camera.y,
      zoom: this.camera.zoom,
      fitZoom: this.fitZ,
      width: this.camera.width,
      height: this.camera.height,
      layerRenders: this.layer.renders,
      hover: this.hover,
    };
  }

  private draw(): void {
    this.dirty = false;
    const dpr = window.devicePixelRatio || 1;
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.layer.get(this.camera, dpr), 0, 0);
    const z = this.camera.zoom;
    const world = (): void =>
      ctx.setTransform(dpr * z, 0, 0, dpr * z, dpr * (this.camera.width / 2 - this.camera.x * z), dpr * (this.camera.height / 2 - this.camera.y * z));
    if (this.overlay) {
      world();
      ctx.save();
      this.overlay(ctx, z);
      ctx.restore();
    }
    if (this.hover) {
      world();
      const [cx, cy] = pixel(this.hover);
      ctx.beginPath();
      for (let i = 0; i < 6; i++) {
        const a = (Math.PI / 3) * i;
        const x = cx + Math.cos(a) * 0.94;
        const y = cy + Math.sin(a) * 0.94;
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      }
      ctx.closePath();
      ctx.strokeStyle = COLORS.hover;
      ctx.lineWidth = 1.5 / z;
      ctx.stroke();
    }
    if (this.screenOverlay) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.save();
      this.screenOverlay(ctx);
      ctx.restore();
    }
    this.minimap.draw(this.camera, this.minimapMarks?.() ?? []);
  }

  /** Words for what is at a hex: body surface, gravity, base, asteroids, off the map (never its coordinates). */
  describe(h: Hex): string {
    const idx = this.renderer.index;
    const parts: string[] = [];
    const k = key(h);
    const surface = idx.surface.get(k);
    if (surface) parts.push(surface.destructive ? `${surface.name}: entering it destroys a ship` : `${surface.name} (surface: landing only at its bases, any other contact crashes)`);
    const g = idx.gravity.get(k);
    if (g && !surface) parts.push(`${g.strength === "weak" ? "weak gravity (may be ignored once)" : "gravity"} toward ${g.body}, pulls ${DIR_WORD[g.dir]} ${DIR_ARROW[g.dir]}`);
    const base = idx.base.get(k);
    if (base) {
      const colour = baseColour(base, this.renderer.options.perspective);
      const who = colour === SIDE.neutral ? "neutral" : colour === SIDE.own ? "yours" : "enemy";
      parts.push(`${base.kind === "asteroid" ? "asteroid base" : "planetary base"} of ${base.owner} (${who})`);
    }
    if (idx.asteroid.has(k)) parts.push("asteroids: a ship passing through faster than speed 1 risks damage");
    if (!idx.inBounds(h)) parts.push(idx.inBounds(h, this.board.off_map_margin) ? "edge margin: a move ending farther out leaves the map" : "off the map");
    return parts.join(" · ");
  }
}

function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
