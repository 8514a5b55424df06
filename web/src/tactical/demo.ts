/**
 * The board preview page (index.html of the built client): reads the board JSON embedded at build time
 * (<script id="board-data">), draws it with BoardView and wires the small HUD: zoom buttons, the hex readout,
 * the legend. No server: the game screen that talks to one comes later (docs/web.md).
 *
 * Owns the demo page's wiring only.
 */
import { octagon } from "./boardLayer";
import { BoardError, parseBoard } from "./boardData";
import { COLORS, SIDE } from "./palette";
import { BoardView } from "./board";

declare global {
  interface Window {
    /** A handle for debugging and the browser tests: the view and its state. */
    deltav?: { view: BoardView; state: () => ReturnType<BoardView["state"]> };
  }
}

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page has no #${id}`);
  return el as T;
}

function showError(message: string): void {
  const box = byId("error");
  box.textContent = message;
  box.hidden = false;
}

function legendIcon(draw: (ctx: CanvasRenderingContext2D) => void): HTMLCanvasElement {
  const c = document.createElement("canvas");
  const dpr = window.devicePixelRatio || 1;
  c.width = 28 * dpr;
  c.height = 20 * dpr;
  c.style.width = "28px";
  c.style.height = "20px";
  c.setAttribute("aria-hidden", "true");
  const ctx = c.getContext("2d")!;
  ctx.scale(dpr, dpr);
  draw(ctx);
  return c;
}

function arrow(ctx: CanvasRenderingContext2D, weak: boolean): void {
  ctx.strokeStyle = ctx.fillStyle = `rgba(${COLORS.gravity}, ${weak ? 0.55 : 0.9})`;
  ctx.lineWidth = 1.6;
  ctx.setLineDash(weak ? [2.5, 2] : []);
  ctx.beginPath();
  ctx.moveTo(4, 10);
  ctx.lineTo(18, 10);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(24, 10);
  ctx.lineTo(17, 6);
  ctx.lineTo(17, 14);
  ctx.closePath();
  if (weak) ctx.stroke();
  else ctx.fill();
}

function base(ctx: CanvasRenderingContext2D, colour: string): void {
  octagon(ctx, 14, 10, 5.5);
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.strokeStyle = "rgba(3,6,12,0.9)";
  ctx.lineWidth = 1.2;
  ctx.stroke();
}

function buildLegend(list: HTMLElement): void {
  const rows: [string, (ctx: CanvasRenderingContext2D) => void][] = [
    ["Gravity: a ship entering this hex is deflected one hex this way, on its next move", (c) => arrow(c, false)],
    ["Weak gravity (moons): one such hex may be ignored", (c) => arrow(c, true)],
    ["Base, neutral", (c) => base(c, SIDE.neutral)],
    ["Base, yours (cyan) / the enemy's (orange)", (c) => {
      octagon(c, 8, 10, 5);
      c.fillStyle = SIDE.own;
      c.fill();
      octagon(c, 20, 10, 5);
      c.fillStyle = SIDE.enemy;
      c.fill();
    }],
    ["Asteroids: damage risk when passing faster than speed 1", (c) => {
      c.fillStyle = COLORS.rock;
      for (const [x, y, r] of [[9, 8, 3], [17, 12, 4], [21, 6, 2]] as const) {
        c.beginPath();
        c.arc(x, y, r, 0, Math.PI * 2);
        c.fill();
      }
    }],
    ["Map edge: a move ending beyond it leaves the map (eliminated)", (c) => {
      c.strokeStyle = COLORS.edge;
      c.lineWidth = 1.6;
      c.setLineDash([4, 3]);
      c.beginPath();
      c.moveTo(2, 10);
      c.lineTo(26, 10);
      c.stroke();
    }],
  ];
  for (const [text, draw] of rows) {
    const li = document.createElement("li");
    li.append(legendIcon(draw));
    const span = document.createElement("span");
    span.textContent = text;
    li.append(span);
    list.append(li);
  }
}

function main(): void {
  let board;
  try {
    const raw = byId("board-data").textContent ?? "";
    board = parseBoard(JSON.parse(raw));
  } catch (e) {
    showError(e instanceof BoardError || e instanceof SyntaxError ? `Cannot read the board: ${e.message}` : String(e));
    throw e;
  }
  byId("scenario-name").textContent = board.scenario.name;
  byId("scenario-summary").textContent = board.scenario.summary;
  const view = new BoardView(byId<HTMLCanvasElement>("board"), byId<HTMLCanvasElement>("minimap"), board, 0);
  const readout = byId("readout");
  const zoomText = byId("zoom-level");
  const idle = readout.textContent ?? "";
  // the board preview is a developer page: it shows the engine's coordinates too (the game screen never does)
  view.onHover = (h) => (readout.textContent = h ? [`hex ${h[0]}, ${h[1]}`, view.describe(h)].filter(Boolean).join(" · ") : idle);
  const showZoom = (): void => {
    const t = view.camera.target.zoom / view.state().fitZoom;
    zoomText.textContent = `${Math.round(t * 100)}%`;
  };
  view.onMove = showZoom;
  showZoom();
  byId("zoom-in").addEventListener("click", () => {
    view.camera.zoomAt(1.25);
    view.onMove();
  });
  byId("zoom-out").addEventListener("click", () => {
    view.camera.zoomAt(1 / 1.25);
    view.onMove();
  });
  byId("zoom-fit").addEventListener("click", () => view.fit());
  buildLegend(byId("legend-list"));
  const legend = byId("legend");
  const toggle = byId<HTMLButtonElement>("legend-toggle");
  toggle.addEventListener("click", () => {
    const open = legend.hidden;
    legend.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  });
  window.deltav = { view, state: () => view.state() };
  document.documentElement.dataset.ready = "true";
}

main();
