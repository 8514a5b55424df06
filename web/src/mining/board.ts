/**
 * The mining field on a Canvas 2D: the 7x7 grid with the station in the centre, face-down asteroid backs, the
 * tiles this viewer saw (marked for this viewer only: the view holds them only in this viewer's snapshot),
 * tiles known to all, face-up and revealed tiles, who looked where (public), rockets by colour, the alien and
 * the rockets it freezes, and the screen's highlights (legal targets, the selected rocket, the keyboard cursor).
 *
 * Owns drawing and hit-testing only; the screen decides what a click means.
 */
import { hashInts, mulberry32 } from "../shell/rng";
import { GRID, STATION, type MiningView, type Square, isMineral, squaresOf } from "./model";
import { BOARD, kindStyle, playerColour } from "./palette";

export interface Marks {
  /** Squares a click can act on now, with an optional short label (whether a tile you know fits). */
  targets: Map<number, string | null>;
  /** The chance (0..1) that a tile you do not know counts, for each such tile you may reveal now. */
  chances: Map<number, number>;
  /** Squares where a tile was matched in the running attempt (true) or is the mismatch (false). */
  attempt: Map<number, boolean>;
  selected: number | null;
  cursor: number | null;
  hover: number | null;
  /** Squares the newest events touched, with the strength (0..1) of their fading ring. */
  recent: Map<number, number>;
  /** A drag in progress: from a square to the pointer. */
  drag: { from: number; x: number; y: number } | null;
  /** The label of a face-down tile the view shows though it is not public: "you saw" (the viewer looked), a
   *  seat's name + " saw" (that seat's view in a replay), "" (the full view of a finished match: no label). */
  seenLabel: string;
}

export class MiningBoard {
  private readonly ctx: CanvasRenderingContext2D;
  private cell = 60;
  private gap = 4;
  private ox = 0;
  private oy = 0;
  private cssW = 0;
  private cssH = 0;
  private stars: { x: number; y: number; r: number; a: number }[] = [];

  constructor(readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2D canvas context");
    this.ctx = ctx;
  }

  /** Fit the canvas to its CSS box (device pixels) and lay the grid out; true when the size changed. */
  resize(): boolean {
    const r = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width));
    const h = Math.max(1, Math.round(r.height));
    if (w === this.cssW && h === this.cssH && this.canvas.width === Math.round(w * dpr)) return false;
    this.cssW = w;
    this.cssH = h;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const label = Math.max(14, Math.min(w, h) * 0.035);
    const side = Math.min(w, h) - label - 8;
    this.gap = Math.max(2, Math.round(side * 0.008));
    this.cell = Math.floor((side - this.gap * (GRID - 1)) / GRID);
    const total = this.cell * GRID + this.gap * (GRID - 1);
    this.ox = Math.round((w - total + label) / 2);
    this.oy = Math.round((h - total + label) / 2);
    const rnd = mulberry32(hashInts(w, h, 7));
    this.stars = Array.from({ length: Math.round(w * h / 2500) }, () => ({
      x: rnd() * w, y: rnd() * h, r: rnd() * 1.1 + 0.2, a: rnd() * 0.6 + 0.15,
    }));
    return true;
  }

  get cellSize(): number { return this.cell; }

  /** The top-left corner of a square's cell (CSS pixels). */
  cellOrigin(sq: number): [number, number] {
    const r = Math.floor(sq / GRID);
    const c = sq % GRID;
    return [this.ox + c * (this.cell + this.gap), this.oy + r * (this.cell + this.gap)];
  }

  /** The centre of a square in CSS pixels relative to the canvas. */
  centre(sq: number): [number, number] {
    const [x, y] = this.cellOrigin(sq);
    return [x + this.cell / 2, y + this.cell / 2];
  }

  /** The square under a point (CSS pixels relative to the canvas), or null between or outside cells. */
  squareAt(x: number, y: number): number | null {
    const step = this.cell + this.gap;
    const c = Math.floor((x - this.ox) / step);
    const r = Math.floor((y - this.oy) / step);
    if (c < 0 || r < 0 || c >= GRID || r >= GRID) return null;
    if (x - this.ox - c * step > this.cell || y - this.oy - r * step > this.cell) return null;
    return r * GRID + c;
  }

  draw(v: MiningView, marks: Marks): void {
    const g = this.ctx;
    g.fillStyle = BOARD.space;
    g.fillRect(0, 0, this.cssW, this.cssH);
    for (const s of this.stars) {
      g.globalAlpha = s.a;
      g.fillStyle = "#cfd8ff";
      g.beginPath();
      g.arc(s.x, s.y, s.r, 0, Math.PI * 2);
      g.fill();
    }
    g.globalAlpha = 1;
    this.labels();
    for (const sq of squaresOf(v)) this.square(v, sq, marks);
    if (marks.drag) this.dragLine(marks.drag);
  }

  private labels(): void {
    const g = this.ctx;
    const fs = Math.max(10, Math.round(this.cell * 0.18));
    g.font = `600 ${fs}px system-ui, sans-serif`;
    g.fillStyle = BOARD.dim;
    g.textAlign = "center";
    g.textBaseline = "bottom";
    for (let c = 0; c < GRID; c++) {
      const [x] = this.cellOrigin(c);
      g.fillText(`c${c + 1}`, x + this.cell / 2, this.oy - 4);
    }
    g.textAlign = "right";
    g.textBaseline = "middle";
    for (let r = 0; r < GRID; r++) {
      const [, y] = this.cellOrigin(r * GRID);
      g.fillText(`r${r + 1}`, this.ox - 5, y + this.cell / 2);
    }
  }

  private roundRect(x: number, y: number, w: number, h: number, r: number): void {
    const g = this.ctx;
    g.beginPath();
    g.roundRect(x, y, w, h, r);
  }

  private square(v: MiningView, s: Square, marks: Marks): void {
    const g = this.ctx;
    const [x, y] = this.cellOrigin(s.square);
    const c = this.cell;
    const rad = c * 0.1;
    if (s.status === "station") {
      this.station(x, y);
    } else if (s.status === "empty") {
      this.roundRect(x + 1, y + 1, c - 2, c - 2, rad);
      g.setLineDash([3, 4]);
      g.strokeStyle = "rgba(140,160,200,0.25)";
      g.lineWidth = 1;
      g.stroke();
      g.setLineDash([]);
    } else if (s.status === "face_down") {
      this.back(x, y, s.square);
      if (s.tile) this.knownBadge(x, y, s.tile, s.public ? "public" : marks.seenLabel);
    } else {
      // face-up (an alien encounter left in play) or revealed in the current attempt
      if (s.tile && s.tile.kind === "alien_encounter") this.encounter(x, y);
      else if (s.tile) this.face(x, y, s.tile.kind, s.tile.value);
      const m = marks.attempt.get(s.square);
      if (m !== undefined) {
        this.roundRect(x + 2, y + 2, c - 4, c - 4, rad);
        g.lineWidth = Math.max(3, c * 0.06);
        g.strokeStyle = m ? "#5dff9a" : "#ff5d5d";
        g.stroke();
        this.tag(x + c - 3, y + 3, m ? "✓" : "✗", m ? "#0b3d1f" : "#4a0b0b", m ? "#5dff9a" : "#ff8d8d", "right");
      }
    }
    if (s.looked_by.length && s.status === "face_down") this.lookPips(x, y, s.looked_by);
    if (v.alien === s.square) this.alien(x, y, s.rockets.some((n) => n > 0));
    this.rockets(x, y, s.rockets, v.alien === s.square);
    const label = marks.targets.get(s.square);
    if (marks.targets.has(s.square)) {
      this.roundRect(x - 1, y - 1, c + 2, c + 2, rad + 1);
      g.lineWidth = 2.5;
      g.strokeStyle = BOARD.highlight;
      g.shadowColor = BOARD.highlight;
      g.shadowBlur = 8;
      g.stroke();
      g.shadowBlur = 0;
      if (label && c >= 30) this.tag(x + c - 2, y + 2, label, "rgba(20,18,0,0.88)", BOARD.highlight, "right", "top");
    }
    const chance = marks.chances.get(s.square);
    if (chance !== undefined) this.chance(x, y, chance);
    const fade = marks.recent.get(s.square);
    if (fade !== undefined && fade > 0) {
      this.roundRect(x - 4, y - 4, c + 8, c + 8, rad + 4);
      g.lineWidth = 3;
      g.strokeStyle = `rgba(140, 230, 255, ${fade.toFixed(3)})`;
      g.stroke();
    }
    if (marks.hover === s.square) {
      this.roundRect(x, y, c, c, rad);
      g.fillStyle = "rgba(255,255,255,0.08)";
      g.fill();
    }
    if (marks.selected === s.square) {
      this.roundRect(x - 3, y - 3, c + 6, c + 6, rad + 3);
      g.lineWidth = 3;
      g.strokeStyle = BOARD.selected;
      g.stroke();
    }
    if (marks.cursor === s.square) {
      this.roundRect(x - 5, y - 5, c + 10, c + 10, rad + 4);
      g.setLineDash([6, 4]);
      g.lineWidth = 2;
      g.strokeStyle = "#ffffff";
      g.stroke();
      g.setLineDash([]);
    }
  }

  private station(x: number, y: number): void {
    const g = this.ctx;
    const c = this.cell;
    const cx = x + c / 2;
    const cy = y + c / 2;
    this.roundRect(x, y, c, c, c * 0.1);
    g.fillStyle = "#141b2b";
    g.fill();
    g.strokeStyle = "#56688a";
    g.lineWidth = 1.5;
    g.stroke();
    g.strokeStyle = BOARD.station;
    g.lineWidth = Math.max(2, c * 0.05);
    g.beginPath();
    g.arc(cx, cy - c * 0.06, c * 0.26, 0, Math.PI * 2);
    g.stroke();
    g.fillStyle = BOARD.station;
    g.fillRect(cx - c * 0.36, cy - c * 0.08, c * 0.72, c * 0.05);
    g.fillRect(cx - c * 0.03, cy - c * 0.38, c * 0.06, c * 0.64);
    g.beginPath();
    g.arc(cx, cy - c * 0.06, c * 0.09, 0, Math.PI * 2);
    g.fill();
    const fs = Math.max(9, Math.round(c * 0.15));
    g.font = `700 ${fs}px system-ui, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "top";
    g.fillStyle = "#c9d6ee";
    g.fillText("STATION", cx, y + 3);
  }

  private back(x: number, y: number, sq: number): void {
    const g = this.ctx;
    const c = this.cell;
    this.roundRect(x, y, c, c, c * 0.1);
    const grad = g.createLinearGradient(x, y, x + c, y + c);
    grad.addColorStop(0, BOARD.back);
    grad.addColorStop(1, BOARD.backDark);
    g.fillStyle = grad;
    g.fill();
    g.strokeStyle = BOARD.cellEdge;
    g.lineWidth = 1;
    g.stroke();
    // an asteroid silhouette, the same for a square every time
    const rnd = mulberry32(hashInts(sq, 31));
    const cx = x + c * 0.5;
    const cy = y + c * 0.47;
    const rr = c * 0.23;
    g.beginPath();
    for (let i = 0; i < 9; i++) {
      const a = (i / 9) * Math.PI * 2;
      const r = rr * (0.75 + rnd() * 0.35);
      const px = cx + Math.cos(a) * r;
      const py = cy + Math.sin(a) * r * 0.85;
      if (i === 0) g.moveTo(px, py); else g.lineTo(px, py);
    }
    g.closePath();
    g.fillStyle = "rgba(120,132,160,0.35)";
    g.fill();
    g.fillStyle = "rgba(20,26,40,0.45)";
    for (let i = 0; i < 2; i++) {
      g.beginPath();
      g.arc(cx + (rnd() - 0.5) * rr, cy + (rnd() - 0.5) * rr * 0.8, rr * (0.12 + rnd() * 0.12), 0, Math.PI * 2);
      g.fill();
    }
  }

  /** A face-down tile whose face this view shows: a chip with the mineral's code and value. Known to everyone
   *  (flipped back): a solid frame and "public"; otherwise a dashed frame and ``label`` ("you saw", ...). */
  private knownBadge(x: number, y: number, tile: { kind: string; value: number }, label: string): void {
    const pub = label === "public";
    const g = this.ctx;
    const c = this.cell;
    const st = kindStyle(tile.kind);
    // small cells (a phone) stack the chip, its label and the rockets tighter, so none covers another
    const small = c < 56;
    const w = c * 0.62;
    const h = c * (small ? 0.32 : 0.36);
    const bx = x + (c - w) / 2;
    const by = y + c * (small ? 0.05 : 0.13);
    this.roundRect(bx, by, w, h, h * 0.25);
    g.fillStyle = st.fill;
    g.fill();
    g.lineWidth = 2;
    g.strokeStyle = "#ffffff";
    if (!pub) g.setLineDash([3, 2]);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = st.ink;
    g.textAlign = "center";
    g.textBaseline = "middle";
    const fs = Math.max(10, Math.round(h * 0.66));
    g.font = `800 ${fs}px system-ui, sans-serif`;
    const text = isMineral(tile.kind) ? `${st.code}${tile.value}` : st.code;
    g.fillText(text, bx + w / 2, by + h / 2 + 1);
    if (!label) return;
    let ls = Math.max(8, Math.round(c * 0.14));
    g.font = `700 ${ls}px system-ui, sans-serif`;
    while (ls > 7 && g.measureText(label).width > c - 6) {
      ls -= 1;
      g.font = `700 ${ls}px system-ui, sans-serif`;
    }
    g.textBaseline = "top";
    g.fillStyle = pub ? "#ffffff" : "#ffe9a8";
    g.fillText(label, x + c / 2, by + h + (small ? 1 : 2));
  }

  /** A tile face up: the mineral's colour, code and value, or the incident's code. */
  private face(x: number, y: number, kind: string, value: number): void {
    const g = this.ctx;
    const c = this.cell;
    const st = kindStyle(kind);
    this.roundRect(x, y, c, c, c * 0.1);
    g.fillStyle = st.fill;
    g.fill();
    g.strokeStyle = "rgba(255,255,255,0.7)";
    g.lineWidth = 1.5;
    g.stroke();
    g.fillStyle = st.ink;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.font = `800 ${Math.round(c * 0.38)}px system-ui, sans-serif`;
    g.fillText(st.code, x + c / 2, y + c * 0.42);
    g.textAlign = "left";
    g.textBaseline = "top";
    if (isMineral(kind)) {
      g.font = `800 ${Math.max(10, Math.round(c * 0.2))}px system-ui, sans-serif`;
      g.fillText(String(value), x + c * 0.08, y + c * 0.05);
    }
  }

  /** The chance that an unknown tile counts, printed in its middle ("38%"). */
  private chance(x: number, y: number, p: number): void {
    const g = this.ctx;
    const c = this.cell;
    const text = `${Math.round(p * 100)}%`;
    const fs = Math.max(10, Math.round(c * 0.24));
    g.font = `800 ${fs}px system-ui, sans-serif`;
    const w = g.measureText(text).width + fs * 0.6;
    const h = fs + 6;
    this.roundRect(x + (c - w) / 2, y + c * 0.45 - h / 2, w, h, h * 0.3);
    g.fillStyle = "rgba(12,10,0,0.85)";
    g.fill();
    g.fillStyle = BOARD.highlight;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, x + c / 2, y + c * 0.45 + 1);
  }

  /** A face-up Alien Encounter tile: a dark violet tile with a ringed planet and its name, nothing like the green
   *  alien token that moves over the field. */
  private encounter(x: number, y: number): void {
    const g = this.ctx;
    const c = this.cell;
    const st = kindStyle("alien_encounter");
    this.roundRect(x, y, c, c, c * 0.1);
    g.fillStyle = st.fill;
    g.fill();
    g.strokeStyle = st.ink;
    g.lineWidth = 1.5;
    g.stroke();
    const cx = x + c / 2;
    const cy = y + c * 0.36;
    g.strokeStyle = st.ink;
    g.lineWidth = Math.max(1.5, c * 0.03);
    g.beginPath();
    g.arc(cx, cy, c * 0.13, 0, Math.PI * 2);
    g.stroke();
    g.beginPath();
    g.ellipse(cx, cy, c * 0.27, c * 0.07, -0.35, 0, Math.PI * 2);
    g.stroke();
    g.fillStyle = st.ink;
    g.textAlign = "center";
    g.textBaseline = "middle";
    const fs = Math.max(8, Math.round(c * 0.13));
    g.font = `800 ${fs}px system-ui, sans-serif`;
    g.fillText("ALIEN", cx, y + c * 0.68);
    g.fillText("ENCOUNTER", cx, y + c * 0.68 + fs * 1.1, c - 6);
  }

  private lookPips(x: number, y: number, who: number[]): void {
    const g = this.ctx;
    const c = this.cell;
    const r = Math.max(2.5, c * 0.045);
    who.forEach((p, i) => {
      g.beginPath();
      g.arc(x + c - r * 2 - i * r * 2.6, y + r * 2, r, 0, Math.PI * 2);
      g.fillStyle = playerColour(p);
      g.fill();
      g.strokeStyle = "#0b0f1a";
      g.lineWidth = 1;
      g.stroke();
    });
  }

  private alien(x: number, y: number, freezing: boolean): void {
    const g = this.ctx;
    const c = this.cell;
    if (freezing) {
      this.roundRect(x + 1, y + 1, c - 2, c - 2, c * 0.1);
      g.lineWidth = 3;
      g.strokeStyle = BOARD.frozen;
      g.setLineDash([2, 3]);
      g.stroke();
      g.setLineDash([]);
    }
    // at the tile's left edge, below the chip of a known tile and beside the rockets
    const r = c * 0.13;
    const cx = x + r * 1.25;
    const cy = y + c * 0.72;
    g.fillStyle = BOARD.alien;
    g.beginPath();
    g.ellipse(cx, cy, r, r * 1.15, 0, 0, Math.PI * 2);
    g.fill();
    g.strokeStyle = "#04210e";
    g.lineWidth = 1.5;
    g.stroke();
    g.fillStyle = "#04210e";
    for (const s of [-1, 1]) {
      g.beginPath();
      g.ellipse(cx + s * r * 0.42, cy - r * 0.05, r * 0.28, r * 0.17, s * 0.5, 0, Math.PI * 2);
      g.fill();
    }
    g.strokeStyle = BOARD.alien;
    g.lineWidth = 2;
    for (const s of [-1, 1]) {
      g.beginPath();
      g.moveTo(cx + s * r * 0.4, cy - r * 0.95);
      g.lineTo(cx + s * r * 0.75, cy - r * 1.5);
      g.stroke();
    }
  }

  private rockets(x: number, y: number, counts: number[], frozen: boolean): void {
    const entries = counts.map((n, p) => [p, n] as const).filter(([, n]) => n > 0);
    if (!entries.length) return;
    const c = this.cell;
    const g = this.ctx;
    const slot = Math.min(c * 0.3, (c - 6) / entries.length);
    const base = y + c - slot * 0.6 - 4;
    const start = x + (c - slot * entries.length) / 2 + slot / 2;
    entries.forEach(([p, n], i) => {
      const cx = start + i * slot;
      this.rocket(cx, base, slot * 0.8, playerColour(p), frozen);
      if (n > 1) {
        g.font = `800 ${Math.max(9, Math.round(slot * 0.42))}px system-ui, sans-serif`;
        g.textAlign = "left";
        g.textBaseline = "middle";
        g.lineWidth = 3;
        g.strokeStyle = "#05070d";
        g.strokeText(`${n}`, cx + slot * 0.18, base - slot * 0.25);
        g.fillStyle = "#ffffff";
        g.fillText(`${n}`, cx + slot * 0.18, base - slot * 0.25);
      }
    });
  }

  /** A small rocket standing upright: nose cone, body, fins, in the player's colour. */
  private rocket(cx: number, cy: number, s: number, colour: string, frozen: boolean): void {
    const g = this.ctx;
    const h = s;
    const w = s * 0.36;
    g.beginPath();
    g.moveTo(cx, cy - h * 0.55);
    g.quadraticCurveTo(cx + w * 0.75, cy - h * 0.2, cx + w * 0.5, cy + h * 0.3);
    g.lineTo(cx + w, cy + h * 0.48);
    g.lineTo(cx - w, cy + h * 0.48);
    g.lineTo(cx - w * 0.5, cy + h * 0.3);
    g.quadraticCurveTo(cx - w * 0.75, cy - h * 0.2, cx, cy - h * 0.55);
    g.closePath();
    g.fillStyle = colour;
    g.fill();
    g.lineWidth = 1.5;
    g.strokeStyle = frozen ? BOARD.frozen : "#05070d";
    g.stroke();
    g.fillStyle = "#05070d";
    g.beginPath();
    g.arc(cx, cy - h * 0.12, w * 0.28, 0, Math.PI * 2);
    g.fill();
  }

  private tag(x: number, y: number, text: string, bg: string, fg: string, align: "left" | "right",
    base: "top" | "bottom" = "top"): void {
    const g = this.ctx;
    const fs = Math.max(9, Math.round(this.cell * 0.16));
    g.font = `800 ${fs}px system-ui, sans-serif`;
    const w = g.measureText(text).width + 6;
    const h = fs + 4;
    const bx = align === "left" ? x : x - w;
    const by = base === "top" ? y : y - h;
    this.roundRect(bx, by, w, h, 3);
    g.fillStyle = bg;
    g.fill();
    g.fillStyle = fg;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, bx + w / 2, by + h / 2 + 0.5);
  }

  private dragLine(d: { from: number; x: number; y: number }): void {
    const g = this.ctx;
    const [fx, fy] = this.centre(d.from);
    g.strokeStyle = BOARD.highlight;
    g.lineWidth = 3;
    g.setLineDash([8, 6]);
    g.beginPath();
    g.moveTo(fx, fy);
    g.lineTo(d.x, d.y);
    g.stroke();
    g.setLineDash([]);
    g.fillStyle = BOARD.highlight;
    g.beginPath();
    g.arc(d.x, d.y, 5, 0, Math.PI * 2);
    g.fill();
  }
}

export { STATION };
