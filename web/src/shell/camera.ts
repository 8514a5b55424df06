/**
 * The 2D camera of a board view: the world point at the centre of the viewport and the zoom (CSS pixels per
 * world unit; one world unit is one hex radius, as hex.pixel with size 1). Smooth moves ease the current
 * values toward a target; `step` advances them and says whether anything changed.
 *
 * Owns view geometry only: it knows no board, no input device, no drawing.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export class Camera {
  x = 0;
  y = 0;
  zoom = 10;
  width = 1;
  height = 1;
  minZoom = 2;
  maxZoom = 96;
  /** The world rectangle the centre may move in (the board plus a margin); null: anywhere. */
  limits: Rect | null = null;
  private tx = 0;
  private ty = 0;
  private tz = 10;

  setViewport(width: number, height: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
  }

  /** Screen (CSS pixel) position of a world point. */
  toScreen(wx: number, wy: number): [number, number] {
    return [(wx - this.x) * this.zoom + this.width / 2, (wy - this.y) * this.zoom + this.height / 2];
  }

  /** World position of a screen (CSS pixel) point. */
  toWorld(sx: number, sy: number): [number, number] {
    return [(sx - this.width / 2) / this.zoom + this.x, (sy - this.height / 2) / this.zoom + this.y];
  }

  /** The world rectangle visible now. */
  visible(): Rect {
    const w = this.width / this.zoom;
    const h = this.height / this.zoom;
    return { x: this.x - w / 2, y: this.y - h / 2, w, h };
  }

  /** The zoom at which `r` fills the viewport with `pad` CSS pixels to spare on each side. */
  fitZoom(r: Rect, pad = 24): number {
    const zx = Math.max(1, this.width - 2 * pad) / r.w;
    const zy = Math.max(1, this.height - 2 * pad) / r.h;
    return Math.min(zx, zy);
  }

  private clampZoom(z: number): number {
    return Math.min(this.maxZoom, Math.max(this.minZoom, z));
  }

  private clampCentre(x: number, y: number): [number, number] {
    const l = this.limits;
    if (!l) return [x, y];
    return [Math.min(l.x + l.w, Math.max(l.x, x)), Math.min(l.y + l.h, Math.max(l.y, y))];
  }

  /** Jump (no easing) to a centre and zoom. */
  jump(x: number, y: number, zoom = this.zoom): void {
    this.zoom = this.tz = this.clampZoom(zoom);
    [this.x, this.y] = [this.tx, this.ty] = this.clampCentre(x, y);
  }

  /** Ease toward a centre and zoom. */
  moveTo(x: number, y: number, zoom = this.tz): void {
    this.tz = this.clampZoom(zoom);
    [this.tx, this.ty] = this.clampCentre(x, y);
  }

  /** Pan the target by a screen-pixel offset (positive dx moves the view right). */
  panBy(dx: number, dy: number, smooth = true): void {
    const nx = this.tx + dx / this.tz;
    const ny = this.ty + dy / this.tz;
    if (smooth) this.moveTo(nx, ny);
    else {
      [this.tx, this.ty] = this.clampCentre(nx, ny);
      [this.x, this.y] = [this.tx, this.ty];
    }
  }

  /** Multiply the zoom, keeping the world point under screen point (sx, sy) in place. */
  zoomAt(factor: number, sx = this.width / 2, sy = this.height / 2, smooth = true): void {
    const z = this.clampZoom(this.tz * factor);
    // the world point under (sx, sy) at the target view
    const wx = (sx - this.width / 2) / this.tz + this.tx;
    const wy = (sy - this.height / 2) / this.tz + this.ty;
    const nx = wx - (sx - this.width / 2) / z;
    const ny = wy - (sy - this.height / 2) / z;
    if (smooth) this.moveTo(nx, ny, z);
    else this.jump(nx, ny, z);
  }

  get target(): { x: number; y: number; zoom: number } {
    return { x: this.tx, y: this.ty, zoom: this.tz };
  }

  get settled(): boolean {
    return this.x === this.tx && this.y === this.ty && this.zoom === this.tz;
  }

  /** Advance the easing by `dt` milliseconds; true if the view changed. */
  step(dt: number, instant = false): boolean {
    if (this.settled) return false;
    const k = instant ? 1 : 1 - Math.exp(-dt / 70);
    const snap = (a: number, b: number, eps: number): number => (Math.abs(b - a) < eps ? b : a + (b - a) * k);
    this.zoom = snap(this.zoom, this.tz, 1e-3 * this.tz);
    this.x = snap(this.x, this.tx, 0.25 / this.zoom);
    this.y = snap(this.y, this.ty, 0.25 / this.zoom);
    return true;
  }
}
