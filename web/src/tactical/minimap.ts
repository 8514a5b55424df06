/**
 * The clickable minimap: the whole board in miniature (playfield, gravity rings, bodies, bases, asteroids) with
 * the camera's view as a frame. Click or drag on it to move the view there.
 *
 * Owns the minimap canvas only; it moves the camera through the `jumpTo` callback.
 */
import type { Camera, Rect } from "../shell/camera";
import { pixel } from "../shell/hex";
import { baseColour, bodyRadius, type BoardRenderer } from "./boardLayer";
import { bodyLook, COLORS } from "./palette";

export class Minimap {
  private readonly ctx: CanvasRenderingContext2D;
  private base: HTMLCanvasElement | null = null;
  private scale = 1;
  private ox = 0;
  private oy = 0;
  private cssW = 0;
  private cssH = 0;
  private dpr = 1;

  constructor(
    readonly canvas: HTMLCanvasElement,
    private readonly renderer: BoardRenderer,
    private readonly jumpTo: (wx: number, wy: number) => void,
  ) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
    let dragging = false;
    const at = (e: PointerEvent): void => {
      const r = canvas.getBoundingClientRect();
      this.jumpTo(...this.toWorld(e.clientX - r.left, e.clientY - r.top));
    };
    canvas.addEventListener("pointerdown", (e) => {
      dragging = true;
      canvas.setPointerCapture(e.pointerId);
      at(e);
    });
    canvas.addEventListener("pointermove", (e) => dragging && at(e));
    canvas.addEventListener("pointerup", () => (dragging = false));
    canvas.addEventListener("pointercancel", () => (dragging = false));
  }

  toWorld(mx: number, my: number): [number, number] {
    return [(mx - this.ox) / this.scale, (my - this.oy) / this.scale];
  }

  private toMini(wx: number, wy: number): [number, number] {
    return [wx * this.scale + this.ox, wy * this.scale + this.oy];
  }

  /** Size the minimap to `cssW` CSS pixels wide (the height follows the board's shape). */
  resize(cssW: number, dpr: number): void {
    const e = this.renderer.extent;
    const cssH = Math.round((cssW * e.h) / e.w);
    if (cssW === this.cssW && cssH === this.cssH && dpr === this.dpr && this.base) return;
    this.cssW = cssW;
    this.cssH = cssH;
    this.dpr = dpr;
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(cssH * dpr);
    const pad = 4;
    this.scale = Math.min((cssW - 2 * pad) / e.w, (cssH - 2 * pad) / e.h);
    this.ox = pad - e.x * this.scale + (cssW - 2 * pad - e.w * this.scale) / 2;
    this.oy = pad - e.y * this.scale + (cssH - 2 * pad - e.h * this.scale) / 2;
    this.base = this.drawBase();
  }

  private drawBase(): HTMLCanvasElement {
    const c = document.createElement("canvas");
    c.width = this.canvas.width;
    c.height = this.canvas.height;
    const ctx = c.getContext("2d")!;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = "rgba(4, 7, 16, 0.92)";
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    const s = this.scale;
    const board = this.renderer.board;
    const dot = (wx: number, wy: number, r: number, fill: string): void => {
      const [x, y] = this.toMini(wx, wy);
      ctx.fillStyle = fill;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
    };
    // playfield
    const b = board.bounds;
    const corner = (q: number, r: number): [number, number] => this.toMini(...pixel([q, r]));
    ctx.beginPath();
    ctx.moveTo(...corner(b.minQ, b.minR));
    ctx.lineTo(...corner(b.maxQ, b.minR));
    ctx.lineTo(...corner(b.maxQ, b.maxR));
    ctx.lineTo(...corner(b.minQ, b.maxR));
    ctx.closePath();
    ctx.fillStyle = "rgba(60, 85, 150, 0.16)";
    ctx.fill();
    ctx.strokeStyle = "rgba(150, 175, 220, 0.25)";
    ctx.lineWidth = 1;
    ctx.stroke();
    for (const g of board.gravity) dot(...pixel(g.hex), Math.max(0.8, 0.7 * s), `rgba(${COLORS.gravity}, ${g.strength === "full" ? 0.3 : 0.17})`);
    for (const h of board.asteroids) dot(...pixel(h), Math.max(0.7, 0.45 * s), "rgba(160, 145, 125, 0.75)");
    for (const body of board.bodies) {
      const look = bodyLook(body.name, body.kind);
      dot(...pixel(body.center), Math.max(1.6, bodyRadius(body) * s), look.mid);
    }
    for (const base of board.bases) dot(...pixel(base.hex), 1.2, baseColour(base, this.renderer.options.perspective));
    return c;
  }

  /** Draw the map, then `marks` (world points with a colour: a game's ships), then the camera's rectangle. */
  draw(camera: Camera, marks: readonly { x: number; y: number; colour: string }[] = []): void {
    if (!this.base) return;
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.drawImage(this.base, 0, 0);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    for (const m of marks) {
      const [x, y] = this.toMini(m.x, m.y);
      ctx.beginPath();
      ctx.arc(x, y, 2.6, 0, Math.PI * 2);
      ctx.fillStyle = m.colour;
      ctx.fill();
      ctx.strokeStyle = "rgba(3, 5, 11, 0.9)";
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    const v: Rect = camera.visible();
    const [x0, y0] = this.toMini(v.x, v.y);
    const [x1, y1] = this.toMini(v.x + v.w, v.y + v.h);
    const cx0 = Math.max(1, x0);
    const cy0 = Math.max(1, y0);
    const cx1 = Math.min(this.cssW - 1, x1);
    const cy1 = Math.min(this.cssH - 1, y1);
    if (cx1 > cx0 && cy1 > cy0) {
      ctx.fillStyle = "rgba(255, 255, 255, 0.06)";
      ctx.fillRect(cx0, cy0, cx1 - cx0, cy1 - cy0);
      ctx.strokeStyle = "rgba(255, 255, 255, 0.85)";
      ctx.lineWidth = 1.25;
      ctx.strokeRect(cx0 + 0.5, cy0 + 0.5, cx1 - cx0 - 1, cy1 - cy0 - 1);
    }
  }
}
