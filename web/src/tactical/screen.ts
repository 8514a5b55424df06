/**
 * The Delta-V tactical game screen (GameScreen): the board with the pieces (pieces.ts), a side panel with the
 * turn, the objective, your ships and the phase's controls, and the input of the help text (click or 1-6 burns,
 * Shift overload, Tab ships, Enter confirm, N/T/K ordnance, [ ] { } targeting, E, H, the gamepad, touch).
 *
 * Every action it submits is an entry of `snapshot.legal`, found by matching (legal.ts); previews, odds and
 * costs are the engine's notes on those entries; the assistant and the hint are the server's `advise` and `hint`
 * answers. A multi-step choice (orders for several ships, then the end of astrogation; attackers, then fire) is
 * submitted one entry at a time, each matched again against the snapshot that follows the previous one.
 */
import { type Hex, distance, DIRECTION_NAMES, key, pixel } from "../shell/hex";
import type { GameScreen, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { type Board, parseBoard } from "./boardData";
import { buildHelp, type Tables } from "./help";
import {
  burnArrows, choiceOf, COAST, type CourseNote, hasLandVariant, hexOf, keyIntent, matchOrder, type OddsBlock,
  type OrderChoice, ordersOf, pressBurn, shipsToOrder, arrowAt, type Intent, nextWeak,
} from "./legal";
import { drawScene, launchHitWords, sideColour, type LaunchNote, type OrdnanceView, type PlanStep, type Scene, type ShipView, type Trail } from "./pieces";
import { injectStyle } from "./screenStyle";
import { BoardView } from "./view";

type Act = LegalEntry["action"];

/** What the shell may additionally offer: a request/answer message on the match socket (advise, hint). */
export interface RequestHost extends ScreenHost {
  request?(msg: { type: string; [k: string]: unknown }): Promise<Record<string, unknown>>;
}

const PHASES: Record<string, string> = {
  fleet_building: "Fleet building", astrogation: "Astrogation", ordnance: "Ordnance", combat: "Combat", logistics: "Logistics",
};

function canon(a: unknown): string {
  if (Array.isArray(a)) return `[${a.map(canon).join(",")}]`;
  if (a && typeof a === "object") {
    return `{${Object.keys(a as object).sort().map((k) => `${JSON.stringify(k)}:${canon((a as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(a ?? null);
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Screen pixels per hex radius when the view centres on a ship: the burn arrows and their keys readable. */
const FOCUS_ZOOM = 30;
const vec = (v: readonly number[]): string => `(${v[0]}, ${v[1]})`;
const pct = (n: number): string => `${Math.round((n / 6) * 100)}%`;

export class TacticalScreen implements GameScreen {
  private host!: RequestHost;
  private root!: HTMLElement;
  private board: Board | null = null;
  private tables: Tables | null = null;
  private view: BoardView | null = null;
  private snap: Snapshot | null = null;
  private selected: string | null = null;
  private choices = new Map<string, OrderChoice>();
  private launch: { ship: string; kind: "mine" | "torpedo" | "nuke"; dir: number | null; boost: number } | null = null;
  private target: string | null = null;
  private attackerMode: string = "all";
  private queue: Act[] = [];
  private inFlight: number | null = null;
  private trails = new Map<string, Trail>();
  private plan: PlanStep[] | null = null;
  private planFor: string | null = null;
  private lastTurnKey = "";
  private lastPhaseKey = "";
  /** Ships gliding along the path of the move just made: id -> path (hexes) and start time (ms). */
  private glides = new Map<string, { path: Hex[]; t0: number }>();
  private hover: Hex | null = null;
  private surrenderArmed = false;
  private pads: number[] = [];
  private padFrame = 0;
  private els!: {
    canvas: HTMLCanvasElement; minimap: HTMLCanvasElement; readout: HTMLElement; status: HTMLElement; ships: HTMLElement;
    detail: HTMLElement; controls: HTMLElement; extra: HTMLElement; objective: HTMLElement;
  };

  async mount(root: HTMLElement, host: ScreenHost): Promise<void> {
    this.host = host as RequestHost;
    this.root = root;
    injectStyle();
    root.classList.add("tac-root");
    const boardBox = el("div", "tac-board");
    const canvas = el("canvas", "tac-canvas");
    canvas.setAttribute("aria-label", "Tactical map: drag to pan, wheel or pinch to zoom, click a ship or a burn arrow");
    canvas.tabIndex = 0;
    const minimap = el("canvas", "tac-minimap");
    minimap.setAttribute("aria-label", "Minimap: click to move the view");
    const readout = el("div", "tac-readout");
    readout.setAttribute("aria-hidden", "true");
    const objective = el("div", "tac-objective");
    boardBox.append(canvas, minimap, readout, objective);
    const panel = el("aside", "tac-panel");
    panel.setAttribute("aria-label", "Your fleet and orders");
    const status = el("section", "tac-status");
    const ships = el("section", "tac-ships");
    const detail = el("section", "tac-detail");
    detail.setAttribute("aria-live", "polite");
    const controls = el("section", "tac-controls");
    const extra = el("section", "tac-extra");
    panel.append(status, ships, detail, controls, extra);
    root.append(boardBox, panel);
    this.els = { canvas, minimap, readout, status, ships, detail, controls, extra, objective };
    const doc = await host.board();
    try {
      this.board = parseBoard(doc as never);
      this.tables = ((doc as Record<string, unknown>)["tables"] as Tables | undefined) ?? null;
    } catch (e) {
      detail.textContent = `The board could not be read: ${(e as Error).message}`;
      return;
    }
    if (this.snap) this.ensureView();
    this.startGamepad();
  }

  unmount(): void {
    this.view?.destroy();
    cancelAnimationFrame(this.padFrame);
    this.root.replaceChildren();
  }

  phase(s: Snapshot): string {
    const v = s.view as Record<string, unknown>;
    if (s.status === "over") return "Game over";
    const ph = PHASES[String(v["phase"])] ?? String(v["phase"]);
    const mine = s.seat !== null && v["active_player"] === s.seat;
    if (v["phase"] === "fleet_building") return s.to_act ? "Fleet building: buy your ships" : s.seat === null ? "Fleet building" : "Fleet building: waiting for the opponent";
    if (s.seat === null) return `Turn ${v["turn"]}: ${this.host?.seatName(Number(v["active_player"])) ?? "player"} · ${ph}`;
    if (!mine) return `Turn ${v["turn"]}: the opponent's ${ph.toLowerCase()}`;
    const what: Record<string, string> = {
      astrogation: "plot your burns", ordnance: "launch ordnance or skip", combat: "pick a target or end combat",
      logistics: "transfer fuel or cargo",
    };
    return `Turn ${v["turn"]} · ${ph}: ${what[String(v["phase"])] ?? "your move"}`;
  }

  help(): HTMLElement {
    const sc = (this.board as unknown as { scenario?: Parameters<typeof buildHelp>[1] } | null)?.scenario ?? null;
    return buildHelp(this.tables, sc);
  }

  /** The snapshot on screen (the browser tests read it). */
  /** What the board draws now (the browser tests read the previews from it). */
  sceneForTests(): Scene | null {
    return this.board ? this.scene() : null;
  }

  snapshot(): Snapshot | null {
    return this.snap;
  }

  // --- snapshots -----------------------------------------------------------------------------------------
  update(s: Snapshot, newEvents: LogEntry[]): void {
    const prev = this.snap;
    this.snap = s;
    this.learnTrails(newEvents, prev !== null);
    this.ensureView();
    const v = this.v();
    const turnKey = `${v["turn"]}:${v["active_player"]}:${v["phase"] === "astrogation" ? "a" : "b"}`;
    const myTurnStarted = turnKey !== this.lastTurnKey && v["active_player"] === s.seat && v["phase"] === "astrogation";
    if (turnKey !== this.lastTurnKey) {
      this.lastTurnKey = turnKey;
      this.choices.clear();
      this.plan = null;
      this.target = null;
      this.launch = null;
    }
    if (!prev || prev.step !== s.step) this.surrenderArmed = false;
    // a new phase of mine: the status line says what to do (and no longer what the last phase's key did)
    const phaseKey = `${v["turn"]}:${v["active_player"]}:${v["phase"]}`;
    if (phaseKey !== this.lastPhaseKey) {
      this.lastPhaseKey = phaseKey;
      if (s.to_act && s.status === "playing") {
        const tips: Record<string, string> = {
          astrogation: "Astrogation: 1-6 burn, Shift+1-6 overload, 0 clear, Tab next ship, Enter confirm.",
          ordnance: "Ordnance: N mine, T torpedo (1-6 boost), K nuke; Enter launches, or skips.",
          combat: "Combat: [ ] or click a target, { } attackers; Enter attacks, or ends combat.",
          logistics: "Logistics: pick a transfer below, or Done (Enter).",
          fleet_building: "Fleet building: buy ships within the budget, then Fleet ready (Enter).",
        };
        const tip = tips[String(v["phase"])];
        if (tip) this.host.say(tip, "info");
      }
    }
    if (s.status === "over") {
      this.choices.clear();
      this.plan = null;
      this.queue = [];
    }
    // keep the selection on a ship that can act; else the first that can
    const actable = this.actableShips();
    if (!this.selected || (!actable.includes(this.selected) && s.to_act)) this.selected = actable[0] ?? this.ownShips()[0]?.id ?? null;
    if (myTurnStarted || !prev) this.centreOnFleet();
    if (this.target && !this.targets().includes(this.target)) this.target = null;
    this.narrate(newEvents);
    this.render();
    this.pump();
  }

  private v(): Record<string, unknown> {
    return (this.snap?.view ?? {}) as Record<string, unknown>;
  }

  private ownShips(): ShipView[] {
    const seat = this.snap?.seat;
    return this.ships().filter((s) => s.owner === seat && !s.destroyed);
  }

  private ships(): ShipView[] {
    return (this.v()["ships"] as ShipView[] | undefined) ?? [];
  }

  private legal(): LegalEntry[] {
    return this.snap?.to_act ? this.snap.legal : [];
  }

  private phaseName(): string {
    return String(this.v()["phase"] ?? "");
  }

  private actableShips(): string[] {
    const legal = this.legal();
    const ph = this.phaseName();
    if (ph === "astrogation") return shipsToOrder(legal);
    if (ph === "ordnance") return [...new Set(legal.filter((e) => e.action.type === "launch" || e.action.type === "emplace_base").map((e) => String(e.action["ship"])))];
    if (ph === "combat") return this.attackerShips();
    return [];
  }

  private learnTrails(events: LogEntry[], live: boolean): void {
    const now = performance.now();
    for (const e of events) {
      const ev = e.event;
      if (ev.type === "ship_moved" || ev.type === "ordnance_moved") {
        const id = String(ev.type === "ship_moved" ? ev["ship"] : ev["ordnance"]);
        const path = ((ev["path"] as string[]) ?? []).map((h) => hexOf(h));
        // a move seen live (not the history of a page just opened) glides, unless motion is reduced
        if (live && ev.type === "ship_moved" && path.length > 1 && !reducedMotion()) this.glides.set(id, { path, t0: now });
        const owner = ev.type === "ship_moved" ? this.ships().find((s) => s.id === id)?.owner : (this.v()["ordnance"] as OrdnanceView[] | undefined)?.find((o) => o.id === id)?.owner;
        const t = this.trails.get(id) ?? { owner: owner ?? (id.startsWith("p1") ? 1 : 0), ordnance: ev.type === "ordnance_moved", legs: [] };
        t.legs.push(path);
        if (t.legs.length > 5) t.legs.shift();
        this.trails.set(id, t);
      } else if (ev.type === "ship_destroyed" || ev.type === "ordnance_removed" || ev.type === "ordnance_detonated") {
        const id = String(ev["ship"] ?? ev["ordnance"]);
        this.trails.delete(id);
      }
    }
  }

  private narrate(events: LogEntry[]): void {
    for (const e of events) {
      const t = e.event.type;
      if (t === "ship_destroyed" || t === "ship_landed" || t === "checkpoint_visited" || t === "attack_declared" || t === "ship_captured") {
        this.host.sound(t === "ship_destroyed" ? "hit" : t === "attack_declared" ? "fire" : "select");
      }
    }
  }

  private ensureView(): void {
    if (this.view || !this.board || !this.snap) return;
    const view = new BoardView(this.els.canvas, this.els.minimap, this.board, this.snap.seat);
    view.overlay = (ctx, z) => drawScene(ctx, this.scene(), z);
    view.screenOverlay = (ctx) => this.drawObjectiveMarker(ctx);
    view.minimapMarks = () => this.ships().filter((sh) => !sh.destroyed).map((sh) => {
      const [x, y] = pixel(sh.position);
      return { x, y, colour: sideColour(sh.owner, this.snap?.seat ?? null) };
    });
    view.onClick = (w, h) => this.click(w, h);
    view.onHover = (h) => {
      this.hover = h;
      this.els.readout.textContent = h ? this.describe(h) : "";
    };
    view.keys = (e) => {
      if (e.defaultPrevented) return e.key === "h" || e.key === "H" || e.key === "Home"; // the screen took it already
      if (e.key === "h" || e.key === "H" || e.key === "Home") {
        this.act(e.key === "Home" ? { kind: "whole-map" } : { kind: "centre-fleet" });
        return true;
      }
      return false;
    };
    this.view = view;
    // the view fits the whole board when it first gets its size: centre on the fleet after that
    requestAnimationFrame(() => requestAnimationFrame(() => this.centreOnFleet()));
    const tick = (): void => {
      if (!this.view) return;
      if (!reducedMotion() && (this.selected || this.target || this.glides.size)) this.view.invalidate();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    window.deltavTactical = { screen: this, view };
  }

  private describe(h: Hex): string {
    const base = this.view?.describe(h) ?? "";
    const here = this.ships().filter((s) => !s.destroyed && s.position[0] === h[0] && s.position[1] === h[1]);
    const ships = here.map((s) => `${s.id} ${s.type}${s.owner === this.snap?.seat ? "" : " (enemy)"} v${vec(s.velocity)}${s.fuel !== null ? ` fuel ${s.fuel}` : ""}${s.disabled ? ` disabled ${s.disabled}` : ""}`);
    return [base, ...ships].join(" · ");
  }

  private scene(): Scene {
    const v = this.v();
    const sel = this.selected;
    const ph = this.phaseName();
    const legal = this.legal();
    let arrows = null;
    let preview: CourseNote | null = null;
    let chosenDir: number | null = null;
    let overloadDir: number | null = null;
    if (ph === "astrogation" && sel && ordersOf(legal, sel).length) {
      arrows = burnArrows(legal, sel);
      const c = this.choices.get(sel) ?? COAST;
      chosenDir = c.burn;
      overloadDir = c.overload;
      const entry = matchOrder(legal, sel, c);
      preview = (entry?.note as unknown as CourseNote | undefined) ?? null;
    }
    const launch = ph === "ordnance" ? ((this.launchEntry()?.note as unknown as LaunchNote | undefined) ?? null) : null;
    const rules = (v["rules"] ?? {}) as Record<string, unknown>;
    const attack = this.attackPreview();
    return {
      board: this.board!,
      seat: this.snap?.seat ?? null,
      ships: this.glidingShips(),
      ordnance: (v["ordnance"] as OrdnanceView[] | undefined) ?? [],
      trails: this.trails,
      destroyedBases: new Set(((v["destroyed_bases"] as unknown[]) ?? []).map((h) => (typeof h === "string" ? h : key(hexOf(h as number[]))))),
      selected: sel,
      arrows,
      chosenDir,
      overloadDir,
      preview,
      launch,
      plan: this.planFor === sel ? this.plan : null,
      target: ph === "combat" ? this.target : null,
      attackers: attack?.ships ?? [],
      sensorRange: this.tables?.detection.ship_range ?? 3,
      planetaryDefense: Boolean(rules["planetary_defense"] ?? true),
      reducedMotion: reducedMotion(),
      time: performance.now(),
    };
  }

  /** The ships as drawn now: one that just moved is shown part way along its path for GLIDE_MS. */
  private glidingShips(): ShipView[] {
    const ships = this.ships();
    if (!this.glides.size) return ships;
    const now = performance.now();
    return ships.map((s) => {
      const g = this.glides.get(s.id);
      if (!g) return s;
      const t = (now - g.t0) / GLIDE_MS;
      if (t >= 1 || s.destroyed) {
        this.glides.delete(s.id);
        return s;
      }
      const ease = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
      const x = Math.max(0, ease) * (g.path.length - 1);
      const i = Math.min(g.path.length - 2, Math.floor(x));
      const f = x - i;
      const a = g.path[i]!;
      const b = g.path[i + 1]!;
      return { ...s, position: [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f] as [number, number] };
    });
  }

  // --- the objective ---------------------------------------------------------------------------------------
  private objective(): { name: string; hex: Hex } | null {
    const seat = this.snap?.seat;
    if (seat === null || seat === undefined || !this.board) return null;
    const v = this.v();
    const me = ((v["players"] as Record<string, unknown>[]) ?? [])[seat];
    if (!me) return null;
    const rules = (v["rules"] ?? {}) as Record<string, unknown>;
    const checkpoints = (rules["checkpoints"] as string[]) ?? [];
    const visited = (me["visited"] as string[]) ?? [];
    let name = String(me["target"] ?? "");
    if (checkpoints.length) name = checkpoints.find((c) => !visited.includes(c)) ?? String(me["home"]);
    if (!name && me["escape_wins"]) {
      const own = this.ownShips()[0];
      return own ? { name: "the north edge", hex: [own.position[0], this.board.bounds.minR - 3] } : null;
    }
    const body = this.board.bodies.find((b) => b.name === name);
    return body ? { name, hex: body.center } : null;
  }

  private drawObjectiveMarker(ctx: CanvasRenderingContext2D): void {
    const o = this.objective();
    const view = this.view;
    if (!o || !view) return;
    const [wx, wy] = pixel(o.hex);
    const [sx, sy] = view.camera.toScreen(wx, wy);
    const w = view.camera.width;
    const h = view.camera.height;
    const m = 28;
    const inside = sx > m && sx < w - m && sy > m && sy < h - m;
    if (!inside && h < 260) return; // a short board (a phone): the objective chip says it, the edge has no room
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    if (inside) {
      ctx.strokeStyle = "rgba(95, 227, 154, 0.8)";
      ctx.setLineDash([4, 4]);
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(sx, sy, Math.max(18, view.camera.zoom * 1.6), 0, Math.PI * 2);
      ctx.stroke();
      ctx.setLineDash([]);
      return;
    }
    const cx = w / 2;
    const cy = h / 2;
    const a = Math.atan2(sy - cy, sx - cx);
    const t = Math.min(Math.abs((w / 2 - m) / Math.cos(a)), Math.abs((h / 2 - m) / Math.sin(a)));
    const x = cx + Math.cos(a) * t;
    const y = cy + Math.sin(a) * t;
    ctx.fillStyle = "#5fe39a";
    ctx.beginPath();
    ctx.moveTo(x + Math.cos(a) * 12, y + Math.sin(a) * 12);
    ctx.lineTo(x + Math.cos(a + 2.5) * 9, y + Math.sin(a + 2.5) * 9);
    ctx.lineTo(x + Math.cos(a - 2.5) * 9, y + Math.sin(a - 2.5) * 9);
    ctx.closePath();
    ctx.fill();
    const text = o.name;
    const tw = ctx.measureText(text).width;
    const lx = Math.min(w - tw / 2 - 6, Math.max(tw / 2 + 6, x - Math.cos(a) * 22));
    const ly = Math.min(h - 10, Math.max(10, y - Math.sin(a) * 18));
    ctx.textAlign = "center";
    ctx.lineWidth = 3;
    ctx.strokeStyle = "rgba(3,5,11,0.9)";
    ctx.strokeText(text, lx, ly);
    ctx.fillText(text, lx, ly);
  }

  // --- input -------------------------------------------------------------------------------------------------
  key(e: KeyboardEvent): boolean {
    if (e.defaultPrevented) return false;
    const intent = keyIntent(e, this.phaseName());
    if (!intent) return false;
    // Enter, Space and Tab on a focused button or link are the page's (keyboard navigation of the panel)
    const t = e.target as HTMLElement | null;
    if (t && t !== this.els.canvas && ["BUTTON", "A", "SUMMARY", "SELECT"].includes(t.tagName) && (e.key === "Enter" || e.key === "Tab" || e.key === " ")) return false;
    if (intent.kind === "next-ship" && !this.snap) return false;
    this.act(intent);
    return true;
  }

  /** Carry out one intent (a key, a button, a gamepad button). */
  act(intent: Intent): void {
    const ph = this.phaseName();
    const say = (t: string, kind: "info" | "warn" | "error" = "warn"): void => this.host.say(t, kind);
    switch (intent.kind) {
      case "centre-fleet": this.centreOnFleet(); return;
      case "whole-map": this.view?.fit(); return;
      case "focus-enemy": {
        const own = this.ships().find((s) => s.id === this.selected) ?? this.ownShips()[0];
        const enemies = this.ships().filter((s) => s.owner !== this.snap?.seat && !s.destroyed);
        if (!enemies.length) return say("No enemy ship is in sight.", "info");
        const near = own ? enemies.sort((a, b) => distance(a.position, own.position) - distance(b.position, own.position))[0]! : enemies[0]!;
        this.view?.centreOn(near.position);
        if (ph === "combat" && this.targets().includes(near.id)) this.target = near.id;
        say(`Nearest enemy: ${near.type} ${near.id} at ${near.position.join(",")}.`, "info");
        this.render();
        return;
      }
      case "next-ship": return this.cycleShip(intent.back ? -1 : 1);
      case "hint": void this.askHint(); return;
      case "assist": void this.askPlan(); return;
      case "apply-plan": return this.applyPlan();
      case "cancel":
        if (ph === "combat" && this.target) this.target = null;
        else if (this.launch) this.launch = null;
        else this.selected = null;
        this.render();
        return;
      default:
    }
    if (!this.snap?.to_act) {
      say(this.snap?.status === "over" ? "The game is over." : "It is not your turn: wait for the opponent.");
      this.host.sound("error");
      return;
    }
    if (this.queue.length) return say("Still sending your last orders…", "info");
    if (ph === "astrogation") return this.astrogation(intent);
    if (ph === "ordnance") return this.ordnanceKey(intent);
    if (ph === "combat") return this.combatKey(intent);
    if (intent.kind === "confirm") {
      const end = this.legal().find((e) => e.action.type === "end_logistics" || e.action.type === "fleet_ready");
      if (end) return this.send([end.action]);
    }
    say(`That key does nothing in the ${PHASES[ph]?.toLowerCase() ?? ph} phase.`);
  }

  private astrogation(intent: Intent): void {
    const legal = this.legal();
    const ship = this.selected;
    if (intent.kind === "confirm") return this.confirmAstrogation();
    if (!ship || !ordersOf(legal, ship).length) {
      this.host.say(ship ? `${ship} already has its order this turn (or cannot act): Tab to another ship or Enter to end.` : "Select one of your ships first (click it or press Tab).", "warn");
      return;
    }
    const cur = this.choices.get(ship) ?? COAST;
    let next: OrderChoice | null = null;
    if (intent.kind === "burn") {
      next = pressBurn(cur, intent.dir, intent.overload);
      if (!matchOrder(legal, ship, next)) {
        const sh = this.ships().find((s) => s.id === ship);
        let why = `A burn ${DIRECTION_NAMES[intent.dir]} is not possible for ${ship}`;
        if (intent.overload) why = cur.burn === null ? `Pick a burn first, then Shift+1-6 for the overload` : `${ship} cannot overload now (warships only, 2 fuel, once between resupplies)`;
        else if (sh && sh.fuel === 0) why += ": no fuel left (it can only drift)";
        else if (sh && sh.disabled > 0) why += `: it is disabled for ${sh.disabled} more turn(s)`;
        else if (sh && sh.control === "captured") why += ": a captured ship only coasts";
        this.host.say(why + ".", "warn");
        this.host.sound("error");
        return;
      }
    } else if (intent.kind === "clear") next = { ...COAST };
    else if (intent.kind === "land") {
      if (!hasLandVariant(legal, ship, cur.burn)) {
        this.host.say("No landing with this burn: land from orbit (speed 1 in the body's gravity) with one burn.", "warn");
        return;
      }
      next = { ...cur, land: !cur.land };
    } else if (intent.kind === "weak") {
      // V steps through the legal list's weak-gravity choices one hex at a time, then back to none
      const want = nextWeak(legal, ship, cur);
      if (want === null) {
        this.host.say("This course enters no weak gravity it may ignore.", "info");
        return;
      }
      next = { ...cur, weak: want };
    } else {
      this.host.say("In astrogation: 1-6 burn, Shift+1-6 overload, 0 clear, Tab next ship, Enter confirm.", "info");
      return;
    }
    this.choices.set(ship, next);
    this.host.sound("select");
    const n = matchOrder(legal, ship, next)?.note as unknown as CourseNote | undefined;
    if (n) this.host.say(this.courseWords(ship, next, n), n.outcome === "crash" || (n.off_map && !n.escapes) ? "warn" : "info");
    this.render();
  }

  private confirmAstrogation(): void {
    const legal = this.legal();
    const acts: Act[] = [];
    for (const ship of shipsToOrder(legal)) {
      const c = this.choices.get(ship);
      if (!c) continue;
      const e = matchOrder(legal, ship, c);
      if (e) acts.push(e.action);
    }
    const end = legal.find((e) => e.action.type === "end_astrogation");
    if (!end) return this.host.say("The turn cannot be ended now.", "warn");
    acts.push(end.action);
    const crash = acts.find((a) => {
      const e = legal.find((x) => canon(x.action) === canon(a));
      const n = e?.note as unknown as CourseNote | undefined;
      return n && (n.outcome === "crash" || (n.off_map && !n.escapes));
    });
    const coastCrash = shipsToOrder(legal).filter((s) => !this.choices.has(s)).find((s) => {
      const n = matchOrder(legal, s, COAST)?.note as unknown as CourseNote | undefined;
      return n && (n.outcome === "crash" || (n.off_map && !n.escapes));
    });
    const doomed = crash ? String(crash["ship"]) : coastCrash;
    if (doomed && !this.surrenderArmed) {
      this.surrenderArmed = true;
      this.host.say(`Warning: ${doomed}'s course ends in a crash or off the map. Press Enter again to confirm anyway.`, "warn");
      this.host.sound("error");
      return;
    }
    this.surrenderArmed = false;
    this.host.sound("confirm");
    this.send(acts);
  }

  private ordnanceKey(intent: Intent): void {
    const legal = this.legal();
    const launches = legal.filter((e) => e.action.type === "launch");
    if (intent.kind === "launch") {
      const ships = [this.selected, ...this.actableShips()].filter(Boolean) as string[];
      const ship = ships.find((s) => launches.some((e) => e.action["ship"] === s && e.action["kind"] === intent.ordnance));
      if (!ship) {
        this.host.say(`No ship can launch a ${intent.ordnance} now (${intent.ordnance === "torpedo" ? "warships only, " : ""}it needs free cargo mass, the scenario must allow it${intent.ordnance === "mine" ? ", and a mine needs a burn that leaves the hex" : ""}).`, "warn");
        this.host.sound("error");
        return;
      }
      this.selected = ship;
      this.launch = { ship, kind: intent.ordnance, dir: null, boost: 0 };
      this.host.say(`${intent.ordnance} from ${ship}${intent.ordnance === "torpedo" ? ": 1-6 to boost it, Enter to launch" : ": Enter to launch"}.`, "info");
    } else if (intent.kind === "boost") {
      if (!this.launch || this.launch.kind !== "torpedo") return this.host.say("Boost is for torpedoes: press T first.", "warn");
      if (intent.dir < 0) this.launch = { ...this.launch, dir: null, boost: 0 };
      else {
        const boost = this.launch.dir === intent.dir ? (this.launch.boost % 2) + 1 : 1;
        this.launch = { ...this.launch, dir: intent.dir, boost };
      }
      if (!this.launchEntry()) {
        this.host.say("That boost is not possible.", "warn");
        this.launch = { ...this.launch, dir: null, boost: 0 };
      }
    } else if (intent.kind === "confirm") {
      const e = this.launchEntry();
      if (e) {
        this.launch = null;
        this.host.sound("fire");
        return this.send([e.action]);
      }
      const end = legal.find((x) => x.action.type === "end_ordnance");
      if (end) return this.send([end.action]);
    } else {
      this.host.say("In the ordnance phase: N mine, T torpedo (1-6 boost), K nuke, Enter launch or skip.", "info");
    }
    this.render();
  }

  private launchEntry(): LegalEntry | null {
    const l = this.launch;
    if (!l) return null;
    return this.legal().find((e) => e.action.type === "launch" && e.action["ship"] === l.ship && e.action["kind"] === l.kind &&
      (e.action["boost_dir"] ?? null) === (l.boost ? l.dir : null) && Number(e.action["boost"] ?? 0) === l.boost) ?? null;
  }

  // --- combat ----------------------------------------------------------------------------------------------
  private attackerShips(): string[] {
    return this.legal().filter((e) => e.action.type === "add_attacker").map((e) => String(e.action["ship"]));
  }

  private targets(): string[] {
    const out = new Set<string>();
    for (const e of this.legal()) {
      if (e.action.type === "fire") out.add(String(e.action["target"]));
      if (e.action.type === "add_attacker") for (const t of ((e.note?.["targets"] as string[]) ?? [])) out.add(t);
    }
    return [...out];
  }

  private attackPreview(): (OddsBlock & { ships: string[] }) | null {
    const t = this.target;
    if (!t || this.phaseName() !== "combat") return null;
    const legal = this.legal();
    const fire = legal.find((e) => e.action.type === "fire" && e.action["target"] === t && e.action["strength"] === null);
    const group = ((this.v()["combat"] as Record<string, unknown> | null)?.["group"] as string[]) ?? [];
    if (fire?.note && this.attackerMode === "all" && !this.allIn(t)) return { ...(fire.note as unknown as OddsBlock), ships: group };
    if (this.attackerMode !== "all") {
      const add = legal.find((e) => e.action.type === "add_attacker" && e.action["ship"] === this.attackerMode);
      const odds = (add?.note?.["attacks"] as Record<string, OddsBlock> | undefined)?.[t];
      if (odds) return { ...odds, ships: [...group, this.attackerMode] };
    }
    const all = this.allIn(t);
    if (all) return all;
    return fire?.note ? { ...(fire.note as unknown as OddsBlock), ships: group } : null;
  }

  private allIn(t: string): (OddsBlock & { ships: string[] }) | null {
    const end = this.legal().find((e) => e.action.type === "end_combat");
    return ((end?.note?.["attacks"] as Record<string, OddsBlock & { ships: string[] }> | undefined)?.[t]) ?? null;
  }

  private combatKey(intent: Intent): void {
    const targets = this.targets();
    if (intent.kind === "target") {
      if (!targets.length) return this.host.say("No enemy is in sight of a ship that may fire: Enter ends combat.", "warn");
      const i = this.target ? targets.indexOf(this.target) : -1;
      this.target = targets[(i + intent.step + targets.length) % targets.length]!;
      this.attackerMode = "all";
      const t = this.ships().find((s) => s.id === this.target);
      if (t) this.view?.centreOn(t.position);
      const p = this.attackPreview();
      this.host.say(`Target ${this.target}${p ? `: ${this.oddsWords(p)}` : ""}.`, "info");
    } else if (intent.kind === "attacker") {
      if (!this.target) return this.host.say("Pick a target first with [ or ].", "warn");
      const able = this.attackerShips().filter((s) => {
        const e = this.legal().find((x) => x.action.type === "add_attacker" && x.action["ship"] === s);
        return ((e?.note?.["targets"] as string[]) ?? []).includes(this.target!);
      });
      const modes = ["all", ...able];
      const i = modes.indexOf(this.attackerMode);
      this.attackerMode = modes[(i + intent.step + modes.length) % modes.length]!;
      const p = this.attackPreview();
      this.host.say(`${this.attackerMode === "all" ? "Every ship that sees it fires" : `${this.attackerMode} fires alone`}${p ? `: ${this.oddsWords(p)}` : ""}.`, "info");
    } else if (intent.kind === "confirm") {
      const legal = this.legal();
      if (!this.target) {
        const end = legal.find((e) => e.action.type === "end_combat");
        if (end) return this.send([end.action]);
        return;
      }
      const t = this.target;
      const group = ((this.v()["combat"] as Record<string, unknown> | null)?.["group"] as string[]) ?? [];
      const p = this.attackPreview();
      const ships = (p?.ships ?? []).filter((s) => !group.includes(s));
      const acts: Act[] = [];
      for (const s of ships) {
        const e = legal.find((x) => x.action.type === "add_attacker" && x.action["ship"] === s);
        if (e) acts.push(e.action);
      }
      acts.push({ type: "fire", target: t, strength: null });
      this.host.sound("fire");
      this.target = null;
      this.send(acts, true);
    } else {
      this.host.say("In combat: [ ] pick a target, { } choose attackers, Enter attack (or end combat without a target).", "info");
    }
    this.render();
  }

  private cycleShip(step: number): void {
    const list = this.actableShips().length ? this.actableShips() : this.ownShips().map((s) => s.id);
    if (!list.length) return this.host.say("You have no ship that can act now.", "info");
    const i = this.selected ? list.indexOf(this.selected) : -1;
    this.selected = list[(i + step + list.length) % list.length]!;
    const s = this.ships().find((x) => x.id === this.selected);
    if (s) this.view?.centreOn(s.position);
    this.host.say(`Selected ${this.selected}${s ? ` (${s.type}, fuel ${s.fuel ?? "∞"})` : ""}.`, "info");
    this.host.sound("select");
    this.render();
  }

  private click(world: [number, number], h: Hex): void {
    const ph = this.phaseName();
    const legal = this.legal();
    if (ph === "astrogation" && this.selected && ordersOf(legal, this.selected).length) {
      const a = burnArrows(legal, this.selected);
      const d = arrowAt(a.arrows, world, (x) => pixel(x));
      if (d !== null) return this.astrogation({ kind: "burn", dir: d, overload: (this.choices.get(this.selected)?.burn ?? null) !== null && this.choices.get(this.selected)?.burn !== d && this.shiftDown });
      const near = a.arrows.find((x) => !x.legal && x.at[0] === h[0] && x.at[1] === h[1]);
      if (near) {
        this.host.say(`No burn ${DIRECTION_NAMES[near.dir]} is possible for ${this.selected}.`, "warn");
        return;
      }
    }
    const here = this.ships().filter((s) => !s.destroyed && s.position[0] === h[0] && s.position[1] === h[1]);
    const own = here.find((s) => s.owner === this.snap?.seat);
    const enemy = here.find((s) => s.owner !== this.snap?.seat);
    if (enemy && ph === "combat" && this.snap?.to_act) {
      if (!this.targets().includes(enemy.id)) {
        this.host.say(`${enemy.id} cannot be attacked now (landed, hidden, already attacked, or a body blocks the line of sight).`, "warn");
        return;
      }
      this.target = enemy.id;
      this.attackerMode = "all";
      const p = this.attackPreview();
      this.host.say(`Target ${enemy.id}${p ? `: ${this.oddsWords(p)}` : ""}. Enter to attack.`, "info");
      this.render();
      return;
    }
    if (own) {
      const ids = here.filter((s) => s.owner === this.snap?.seat).map((s) => s.id);
      const i = this.selected ? ids.indexOf(this.selected) : -1;
      this.selected = ids[(i + 1) % ids.length]!;
      this.host.sound("select");
      this.render();
      return;
    }
    if (enemy) {
      this.host.say(`${enemy.type} ${enemy.id} (enemy), velocity ${vec(enemy.velocity)}.`, "info");
      return;
    }
    this.hover = h;
  }

  private shiftDown = false;

  // --- sending ---------------------------------------------------------------------------------------------
  /** Submit `acts` one by one, each matched against the legal list of the snapshot current when it is sent. */
  private send(acts: Act[], loose = false): void {
    this.queue = [...acts];
    this.looseFire = loose;
    this.pump();
  }

  private looseFire = false;

  private pump(): void {
    const s = this.snap;
    if (!s || !this.queue.length || this.inFlight !== null) return;
    if (!s.to_act) {
      if (s.status === "over") this.queue = [];
      return;
    }
    const want = this.queue[0]!;
    let entry = s.legal.find((e) => canon(e.action) === canon(want));
    if (!entry && this.looseFire && want.type === "fire") entry = s.legal.find((e) => e.action.type === "fire" && e.action["target"] === want["target"] && e.action["strength"] === null);
    if (!entry) {
      this.host.say(`${this.actionWords(want)} is no longer possible; the rest of this plan was dropped.`, "warn");
      this.queue = [];
      this.render();
      return;
    }
    this.inFlight = s.step;
    this.host.submit(entry.action).then(
      () => {
        this.queue.shift();
        const sentAt = this.inFlight;
        this.inFlight = null;
        if (this.snap && this.snap.step !== sentAt) this.pump();
      },
      (err: { message?: string }) => {
        this.inFlight = null;
        this.queue = [];
        this.host.say(`Refused: ${err?.message ?? String(err)}`, "error");
        this.host.sound("error");
        this.render();
      },
    );
  }

  private actionWords(a: Act): string {
    if (a.type === "order") return `The order for ${a["ship"]}`;
    if (a.type === "fire") return `The attack on ${a["target"]}`;
    if (a.type === "add_attacker") return `Adding ${a["ship"]} to the attack`;
    return a.type.replace(/_/g, " ");
  }

  // --- the assistant and the hint ----------------------------------------------------------------------------
  private async askPlan(): Promise<void> {
    const ship = this.selected;
    if (!ship || !this.ownShips().some((s) => s.id === ship)) return this.host.say("Select one of your ships first.", "warn");
    if (!this.host.request) return this.host.say("The assistant needs a connection to the server.", "warn");
    const goal = this.goalRequest();
    if (!goal) return this.host.say("Hover a hex or a body as the destination, then press P (or use the Plan button for your objective).", "info");
    this.host.say(`Planning a course for ${ship}…`, "info");
    try {
      const msg = await this.host.request({ type: "advise", request: { ship, goal } });
      const advice = msg["advice"] as { found: boolean; turns: number; steps: PlanStep[]; reason: string | null };
      if (!advice.found) {
        this.plan = null;
        this.host.say(`No course found: ${advice.reason}.`, "warn");
      } else {
        this.plan = advice.steps;
        this.planFor = ship;
        const last = advice.steps[advice.steps.length - 1]!;
        this.host.say(`Plan: ${advice.turns} turn(s), ending ${last.outcome === "landing" ? `landed${last.body ? " on " + last.body : ""}` : `at ${last.destination}`} with ${last.fuel_after ?? "∞"} fuel. B applies the first burn.`, "info");
      }
    } catch (e) {
      this.host.say(`The assistant refused: ${(e as { message?: string }).message ?? e}`, "error");
    }
    this.render();
  }

  private goalRequest(): Record<string, unknown> | null {
    const h = this.hover;
    if (h && this.board) {
      const idx = this.view?.renderer.index;
      const k = key(h);
      const base = idx?.base.get(k);
      if (base) return { kind: "base", hex: k };
      const surf = idx?.surface.get(k);
      if (surf) return { kind: "body", body: surf.name };
      const g = idx?.gravity.get(k);
      if (g) return { kind: "orbit", body: g.body };
      return { kind: "hex", hex: k };
    }
    const o = this.objective();
    return o && this.board?.bodies.some((b) => b.name === o.name) ? { kind: "body", body: o.name } : null;
  }

  /** Plan a course to the objective (the button). */
  planObjective(): void {
    const saved = this.hover;
    this.hover = null;
    void this.askPlan().finally(() => (this.hover = saved));
  }

  private applyPlan(): void {
    const ship = this.selected;
    if (!this.plan || this.planFor !== ship || !ship) return this.host.say("No plan for this ship: press P first.", "warn");
    if (this.phaseName() !== "astrogation" || !this.snap?.to_act) return this.host.say("A plan's burn is applied in your astrogation phase.", "warn");
    const first = this.plan[0]!;
    const c = choiceOf(first.order as Act);
    const e = matchOrder(this.legal(), ship, c);
    const here = this.ships().find((s) => s.id === ship);
    if (!e || (here && key(here.position as unknown as Hex) !== first.start)) {
      this.host.say("The plan no longer fits this ship's position: press P to plan again.", "warn");
      return;
    }
    this.choices.set(ship, c);
    this.host.say(`Plan applied to ${ship}: ${c.burn === null ? "coast" : `burn ${DIRECTION_NAMES[c.burn]}`}${c.land ? ", land" : ""}. Enter to confirm.`, "info");
    this.render();
  }

  private async askHint(): Promise<void> {
    if (!this.host.request) return this.host.say("Hints need a connection to the server.", "warn");
    if (!this.snap?.to_act) return this.host.say("A hint is for your own turn.", "warn");
    this.host.say("Asking the hard bot…", "info");
    try {
      const asked = this.snap.step;
      const msg = await this.host.request({ type: "hint" });
      if (msg["step"] !== asked || this.snap?.step !== asked) {
        // the game moved on while the bot thought: a hint for an earlier moment would set a stale order
        this.host.say("The game moved on before the hint came: press I again for one.", "warn");
        return;
      }
      const action = msg["action"] as Act;
      const text = this.actionWords(action);
      if (action.type === "order") {
        const c = choiceOf(action);
        this.selected = String(action["ship"]);
        this.choices.set(this.selected, c);
        this.host.say(`Hint: ${action["ship"]} ${c.burn === null ? "coasts" : `burns ${DIRECTION_NAMES[c.burn]}${c.overload !== null ? ` and overloads ${DIRECTION_NAMES[c.overload]}` : ""}`}${c.land ? " and lands" : ""} (set for you; Enter to confirm).`, "info");
      } else if (action.type === "fire" || action.type === "add_attacker") {
        this.host.say(`Hint: ${action.type === "fire" ? `attack ${action["target"]}` : `attack with ${action["ship"]}`}.`, "info");
      } else {
        this.host.say(`Hint: ${String(msg["text"] ?? text)}.`, "info");
      }
    } catch (e) {
      this.host.say(`No hint: ${(e as { message?: string }).message ?? e}`, "warn");
    }
    this.render();
  }

  // --- words -------------------------------------------------------------------------------------------------
  private courseWords(ship: string, c: OrderChoice, n: CourseNote): string {
    const burn = c.burn === null ? "coast" : `burn ${DIRECTION_NAMES[c.burn]}${c.overload !== null ? ` + overload ${DIRECTION_NAMES[c.overload]}` : ""}`;
    const parts = [`${ship}: ${burn}`, `v ${vec(n.velocity_before)} → v′ ${vec(n.velocity)}`, `to ${n.destination}`];
    if (n.fuel_after !== null) parts.push(`fuel ${n.fuel_before} → ${n.fuel_after}`);
    if (n.outcome === "crash") parts.push(`CRASH into ${n.body ?? "a body"}`);
    else if (n.off_map && !n.escapes) parts.push("leaves the map: the ship is lost");
    else if (n.escapes) parts.push("escapes");
    else if (n.outcome === "landing") parts.push(`lands on ${n.body}`);
    const g = n.gravity_queued.filter((x) => !x.ignored);
    if (g.length) parts.push(`next turn ${g.map((x) => `${x.body} pulls ${DIRECTION_NAMES[x.dir]}`).join(", ")}`);
    if (n.orbit_after) parts.push(`in orbit of ${n.orbit_after}`);
    return parts.join(" · ");
  }

  private oddsWords(p: OddsBlock): string {
    const mods = [p.range_mod ? `range −${p.range_mod}` : "", p.velocity_mod ? `velocity −${p.velocity_mod}` : "", p.heroism ? `heroism +${p.heroism}` : ""].filter(Boolean);
    const hit = p.kind === "gun" ? p.hit_chance ?? 0 : p.destroy_chance ?? 0;
    const counter = p.counter ? `; it counterattacks at ${p.counter.odds}` : "; no counterattack";
    return `${p.attack} against ${p.defence} = ${p.odds}${mods.length ? ` (${mods.join(", ")})` : ""}, ${pct(hit)} to ${p.kind === "gun" ? "hit" : "destroy"}${p.kind === "gun" ? counter : ""}`;
  }

  // --- the panel -----------------------------------------------------------------------------------------------
  private render(): void {
    this.view?.invalidate();
    if (!this.snap) return;
    const s = this.snap;
    const v = this.v();
    const E = this.els;
    // status: turn, phase, objective, checkpoints
    E.status.replaceChildren();
    const me = s.seat !== null ? ((v["players"] as Record<string, unknown>[]) ?? [])[s.seat] : null;
    // the shell's banner names the turn, the phase and who moves; the panel starts with the objective
    const obj = this.objective();
    if (me) {
      const rules = (v["rules"] ?? {}) as Record<string, unknown>;
      const cps = (rules["checkpoints"] as string[]) ?? [];
      const objLine = el("p", "tac-obj");
      objLine.textContent = cps.length ? `Grand Tour: ${((me["visited"] as string[]) ?? []).length}/${cps.length} checkpoints, next ${obj?.name ?? "home"}` : me["target"] ? `Objective: land on ${me["target"]}` : me["escape_wins"] ? "Objective: escape off the north edge" : "Objective: destroy the enemy fleet";
      E.status.append(objLine);
      if (cps.length) {
        const row = el("div", "tac-checkpoints");
        for (const c of cps) {
          const done = ((me["visited"] as string[]) ?? []).includes(c);
          const chip = el("span", `tac-chip${done ? " done" : ""}`, `${done ? "✓ " : ""}${c}`);
          row.append(chip);
        }
        E.status.append(row);
      }
      const unseen = Number(v["unseen_enemy_ships"] ?? 0);
      if (unseen) E.status.append(el("p", "tac-muted", `${unseen} enemy ship${unseen > 1 ? "s" : ""} not detected`));
    }
    E.objective.textContent = obj ? `→ ${obj.name}` : "";
    // ships
    E.ships.replaceChildren();
    const ownShips = this.ownShips();
    if (s.seat !== null) {
      const orders = (v["orders"] ?? {}) as Record<string, unknown>;
      const list = el("ul", "tac-shiplist");
      list.setAttribute("aria-label", "Your ships");
      for (const sh of ownShips) {
        const li = el("li");
        const b = el("button", `tac-ship${sh.id === this.selected ? " selected" : ""}`);
        b.type = "button";
        const c = this.choices.get(sh.id);
        const given = sh.id in orders;
        const state = given ? "order given" : c ? (c.burn === null ? "coast" : `burn ${DIRECTION_NAMES[c.burn]}${c.overload !== null ? "+" + DIRECTION_NAMES[c.overload] : ""}`) : "";
        b.innerHTML = "";
        b.append(el("span", "tac-ship-name", `${sh.id} · ${sh.type}`), el("span", "tac-ship-stats",
          `fuel ${sh.fuel ?? "∞"} · v ${vec(sh.velocity)}${sh.passengers ? ` · ${sh.passengers} passengers` : ""}${sh.cargo_used ? ` · cargo used ${sh.cargo_used}` : ""}${sh.landed ? " · landed" : ""}${sh.disabled ? ` · disabled ${sh.disabled}` : ""}${state ? ` · ${state}` : ""}`));
        b.setAttribute("aria-pressed", String(sh.id === this.selected));
        b.onclick = () => {
          this.selected = sh.id;
          this.view?.centreOn(sh.position);
          this.render();
        };
        li.append(b);
        list.append(li);
      }
      if (!ownShips.length) {
        const home = String((((v["players"] as Record<string, unknown>[]) ?? [])[s.seat]?.["home"]) ?? "");
        list.append(el("li", "tac-muted", this.phaseName() === "fleet_building"
          ? `Ships you buy start at your home base${home ? ` on ${home}` : ""} when every fleet is ready.` : "No ships left."));
      }
      E.ships.append(list);
    }
    // ships in sight that are not yours (both sides for a spectator): a click centres on one
    const others = this.ships().filter((sh) => !sh.destroyed && sh.owner !== s.seat);
    if (others.length) {
      const list = el("ul", "tac-shiplist tac-others");
      list.setAttribute("aria-label", s.seat === null ? "Ships in sight" : "Enemy ships in sight");
      for (const sh of others) {
        const li = el("li");
        const b = el("button", "tac-ship tac-ship-other");
        b.type = "button";
        b.style.borderColor = sideColour(sh.owner, s.seat);
        const name = el("span", "tac-ship-name", `${sh.id} · ${sh.type}${s.seat === null ? ` (${this.host.seatName(sh.owner)})` : ""}`);
        name.style.color = sideColour(sh.owner, s.seat);
        b.append(name, el("span", "tac-ship-stats", `v ${vec(sh.velocity)} at ${sh.position.join(",")}${sh.landed ? " · landed" : ""}${sh.disabled ? ` · disabled ${sh.disabled}` : ""}`));
        b.onclick = () => this.view?.centreOn(sh.position);
        li.append(b);
        list.append(li);
      }
      E.ships.append(list);
    }
    this.renderDetail();
    this.renderControls();
  }

  private renderDetail(): void {
    const E = this.els;
    E.detail.replaceChildren();
    const ph = this.phaseName();
    const legal = this.legal();
    const sel = this.selected;
    if (ph === "astrogation" && sel && ordersOf(legal, sel).length) {
      const c = this.choices.get(sel) ?? COAST;
      const entry = matchOrder(legal, sel, c);
      const n = entry?.note as unknown as CourseNote | undefined;
      if (n) {
        const eq = el("p", "tac-equation");
        const burnV = [n.velocity[0] - n.velocity_before[0], n.velocity[1] - n.velocity_before[1]];
        eq.textContent = `v ${vec(n.velocity_before)} + ${c.burn === null ? "no burn" : `burn ${DIRECTION_NAMES[c.burn]}${c.overload !== null ? "+" + DIRECTION_NAMES[c.overload] : ""}`}${n.gravity_queued.length || burnV.join() !== "0,0" ? "" : ""} = v′ ${vec(n.velocity)}`;
        E.detail.append(el("h2", undefined, `${sel}: course preview`), eq);
        const facts = el("ul", "tac-facts");
        facts.append(el("li", undefined, `Ends at ${n.destination}${n.orbit_after ? ` (orbiting ${n.orbit_after})` : ""}`));
        if (n.fuel_after !== null) facts.append(el("li", undefined, `Fuel ${n.fuel_before} → ${n.fuel_after}`));
        const warn = n.outcome === "crash" ? `CRASH into ${n.body ?? "a body"} at ${n.crash_hex}` : n.off_map && !n.escapes ? "Leaves the map: the ship is lost" : "";
        if (warn) facts.append(el("li", "tac-warn", `⚠ ${warn}`));
        if (n.escapes) facts.append(el("li", "tac-good", "Escapes off the north edge"));
        if (n.outcome === "landing") facts.append(el("li", "tac-good", n.start === n.destination && n.fuel_spent === 0 ? `Stays landed on ${n.body}` : `Lands on ${n.body}`));
        for (const g of n.gravity_queued) facts.append(el("li", g.ignored ? "tac-muted" : undefined, `${g.ignored ? "Ignored" : "Next turn"}: ${g.body} ${g.weak ? "(weak) " : ""}pulls ${DIRECTION_NAMES[g.dir]} at ${g.hex}`));
        if (n.ignorable_weak.length && !c.weak.length) facts.append(el("li", "tac-muted", "V: ignore the weak gravity on this course"));
        if (hasLandVariant(legal, sel, c.burn) && !c.land) facts.append(el("li", "tac-muted", "G: land with this burn"));
        E.detail.append(facts);
      }
      if (this.plan && this.planFor === sel) {
        const last = this.plan[this.plan.length - 1]!;
        E.detail.append(el("p", "tac-plan", `Assistant: ${this.plan.length} turn(s) to ${last.outcome === "landing" ? `land${last.body ? " on " + last.body : ""}` : last.destination}, fuel left ${last.fuel_after ?? "∞"}. B applies turn 1.`));
      }
    } else if (ph === "combat" && this.snap?.to_act) {
      const p = this.attackPreview();
      if (this.target && p) {
        E.detail.append(el("h2", undefined, `Attack on ${this.target}`));
        E.detail.append(el("p", "tac-equation", `${p.attack} vs ${p.defence} → ${p.odds}`));
        const facts = el("ul", "tac-facts");
        facts.append(el("li", undefined, `Attackers: ${p.ships.join(", ") || "the group"} (${this.attackerMode === "all" ? "all" : "one"}; { } to change)`));
        facts.append(el("li", undefined, `Range −${p.range_mod}, velocity −${p.velocity_mod}${p.heroism ? `, heroism +${p.heroism}` : ""}`));
        const odds = Object.entries(p.chances).map(([r, k]) => `${r === "-" ? "miss" : r} ${pct(k)}`).join(" · ");
        facts.append(el("li", undefined, odds));
        if ((p.kind === "gun" ? p.hit_chance : p.destroy_chance) === 0) facts.append(el("li", "tac-warn", "No roll can do damage at this range and speed: close in first, or end combat"));
        if (p.counter) facts.append(el("li", "tac-warn", `Counterattack first: ${p.counter.ships.join(", ")} at ${p.counter.odds} on ${p.counter.target} (${Object.entries(p.counter.chances).filter(([r]) => r !== "-").map(([r, k]) => `${r} ${pct(k)}`).join(", ") || "no damage possible"})`));
        else if (p.kind === "gun") facts.append(el("li", "tac-good", "It cannot counterattack"));
        E.detail.append(facts);
      } else {
        const n = this.targets().length;
        E.detail.append(el("p", undefined, n ? `${n} target(s) in sight: [ ] or click an enemy ship.` : "No target in sight: Enter ends combat."));
      }
    } else if (ph === "ordnance" && this.snap?.to_act) {
      const l = this.launch;
      E.detail.append(el("p", undefined, l ? `${l.kind} from ${l.ship}${l.boost ? `, boost ${l.boost} ${DIRECTION_NAMES[l.dir ?? 0]}` : ""}: Enter to launch, Esc to cancel.` : "N mine, T torpedo, K nuke, or Enter to skip."));
      const n = this.launchEntry()?.note as unknown as LaunchNote | undefined;
      if (n) {
        const facts = el("ul", "tac-facts");
        facts.append(el("li", undefined, `v (${n.velocity.join(", ")}): this turn ${n.start} → ${n.destination}, then ${n.next_destination}; it lasts ${n.turns} moves`));
        const words = launchHitWords(n);
        const own = Boolean(n.first_hit?.own?.length);
        if (words) facts.append(el("li", n.first_hit?.what === "ships" && !own ? "tac-good" : "tac-warn", `It ${words}${n.first_hit ? ` at ${n.first_hit.hex}` : ""} this turn`));
        else facts.append(el("li", "tac-good", "Nothing in its way this turn"));
        E.detail.append(facts);
      }
    } else if (this.snap?.status === "over") {
      const r = this.snap.result;
      const seat = this.snap.seat;
      const head = !r ? "Game over" : !r.winners.length ? "Draw" : seat === null ? `${r.winners.map((w) => this.host.seatName(w)).join(", ")} won` : r.winners.includes(seat) ? "Victory" : "Defeat";
      const reason = r?.reason && !/^draw\.?$/i.test(r.reason) ? `: ${r.reason.replace(/: draw\.?$/i, "")}` : "";
      E.detail.append(el("p", "tac-result", head + reason));
    }
  }

  private button(label: string, onClick: () => void, cls = "", title = ""): HTMLButtonElement {
    const b = el("button", `tac-btn ${cls}`, label);
    b.type = "button";
    if (title) b.title = title;
    b.onclick = onClick;
    return b;
  }

  private renderControls(): void {
    const E = this.els;
    E.controls.replaceChildren();
    E.extra.replaceChildren();
    const s = this.snap!;
    const ph = this.phaseName();
    const legal = this.legal();
    if (s.seat === null || s.status === "over") return;
    if (!s.to_act) {
      const chose = s.deciding.some((d) => d.seat === s.seat && d.submitted);
      E.controls.append(el("p", "tac-muted", chose ? "Your choice is in: it is revealed when the opponent has chosen too." : "The opponent is moving. Your controls return on your turn."));
      return;
    }
    const row = el("div", "tac-row");
    if (ph === "astrogation") {
      const pad = el("div", "tac-burnpad");
      pad.setAttribute("aria-label", "Burn direction");
      const sel = this.selected;
      // laid out as the arrows point on the map: up-left 3, up 2, up-right 1 / down-left 4, down 5, down-right 0
      for (const d of [3, 2, 1, -1, -2, -1, 4, 5, 0]) {
        if (d < 0) {
          pad.append(el("span", d === -2 ? "tac-padship" : "", d === -2 ? "⬢" : ""));
          continue;
        }
        const ok = sel ? Boolean(matchOrder(legal, sel, { burn: d, overload: null, land: false, weak: [] })) : false;
        const b = this.button(`${d + 1} ${DIRECTION_NAMES[d]}`, () => this.act({ kind: "burn", dir: d, overload: false }), `tac-dir${(this.choices.get(sel ?? "")?.burn ?? -1) === d ? " on" : ""}`, `Burn ${DIRECTION_NAMES[d]} (key ${d + 1})`);
        b.disabled = !ok;
        pad.append(b);
      }
      E.controls.append(pad);
      row.append(this.button("0 Coast", () => this.act({ kind: "clear" }), "", "Clear the burn (0)"),
        this.button("Next ship ⇥", () => this.act({ kind: "next-ship", back: false }), "", "Tab"),
        this.button("Confirm turn ⏎", () => this.act({ kind: "confirm" }), "primary", "Enter: send every order and end astrogation"));
      E.controls.append(row);
      const row2 = el("div", "tac-row");
      row2.append(this.button("Plan to objective", () => this.planObjective(), "", "The assistant plans a course to your objective (P plans to the hovered hex)"),
        this.button("Apply plan (B)", () => this.act({ kind: "apply-plan" }), "", "Set the plan's first burn"));
      if (this.host.request && s.seats.some((x) => String(x).startsWith("bot:"))) row2.append(this.button("Hint (I)", () => this.act({ kind: "hint" }), "", "What the hard bot would do (games against a bot)"));
      E.controls.append(row2);
    } else if (ph === "ordnance") {
      for (const [k, kind] of [["N", "mine"], ["T", "torpedo"], ["K", "nuke"]] as const) {
        const b = this.button(`${k} ${kind}`, () => this.act({ kind: "launch", ordnance: kind }), this.launch?.kind === kind ? "on" : "");
        b.disabled = !legal.some((e) => e.action.type === "launch" && e.action["kind"] === kind);
        row.append(b);
      }
      for (const e of legal.filter((x) => x.action.type === "emplace_base")) row.append(this.button(`Emplace base (${e.action["ship"]})`, () => this.send([e.action])));
      row.append(this.button(this.launch ? "Launch ⏎" : "Skip ⏎", () => this.act({ kind: "confirm" }), "primary"));
      E.controls.append(row);
    } else if (ph === "combat") {
      row.append(this.button("[ Prev target", () => this.act({ kind: "target", step: -1 })), this.button("Next target ]", () => this.act({ kind: "target", step: 1 })),
        this.button("{ } Attackers", () => this.act({ kind: "attacker", step: 1 })),
        this.button(this.target ? "Attack ⏎" : "End combat ⏎", () => this.act({ kind: "confirm" }), "primary"));
      E.controls.append(row);
    } else if (ph === "logistics") {
      // one row per (from, to, what) with its amounts as buttons
      const list = el("div", "tac-list");
      const groups = new Map<string, LegalEntry[]>();
      for (const e of legal.filter((x) => x.action.type === "transfer")) {
        const a = e.action;
        const k = `${a["source"]}|${a["target"]}|${a["kind"]}`;
        groups.set(k, [...(groups.get(k) ?? []), e]);
      }
      const shipName = (id: unknown): string => {
        const sh = this.ships().find((x) => x.id === id);
        return sh ? `${sh.id} ${sh.type}` : String(id);
      };
      for (const entries of groups.values()) {
        const a0 = entries[0]!.action;
        const row2 = el("div", "tac-transfer");
        const title = el("span", "tac-transfer-what", `${a0["kind"]}: ${shipName(a0["source"])} → ${shipName(a0["target"])}`);
        const amounts = el("span", "tac-transfer-amounts");
        amounts.setAttribute("role", "group");
        amounts.setAttribute("aria-label", `${a0["kind"]} from ${a0["source"]} to ${a0["target"]}: how many`);
        for (const e of entries) {
          const b = this.button(String(e.action["amount"]), () => this.send([e.action]), "tac-amount", `Transfer ${e.action["amount"]} ${a0["kind"]} from ${a0["source"]} to ${a0["target"]}`);
          b.setAttribute("aria-label", `${e.action["amount"]} ${a0["kind"]} from ${a0["source"]} to ${a0["target"]}`);
          amounts.append(b);
        }
        row2.append(title, amounts);
        list.append(row2);
      }
      if (!groups.size) list.append(el("p", "tac-muted", "No transfer is possible now (ships must share a hex, at matching speed)."));
      E.extra.append(list);
      const end = legal.find((x) => x.action.type === "end_logistics");
      if (end) row.append(this.button("Done ⏎", () => this.send([end.action]), "primary"));
      E.controls.append(row);
    } else if (ph === "fleet_building") {
      const me = ((this.v()["players"] as Record<string, unknown>[]) ?? [])[s.seat];
      const credits = Number(me?.["credits"] ?? 0) - Number(me?.["spent"] ?? 0);
      E.controls.append(el("p", "tac-budget", `Budget: ${credits} MC left`));
      const bought = new Map<string, number>();
      // the view's purchases: [id, type, carrier] per item bought, one list per seat (the others' are hidden)
      const mine = ((this.v()["purchases"] as (unknown[][] | null)[] | undefined) ?? [])[s.seat] ?? [];
      for (const item of mine) bought.set(String(item[1]), (bought.get(String(item[1])) ?? 0) + 1);
      E.controls.append(el("p", "tac-fleet", bought.size ? `Your fleet: ${[...bought].map(([t, n]) => `${n} ${t}`).join(", ")}` : "Your fleet: no ship yet"));
      const list = el("div", "tac-list");
      for (const e of legal.filter((x) => x.action.type === "buy")) {
        const n = e.note as { cost: number; credits_left: number } | undefined;
        list.append(this.button(`${e.action["item"]}${e.action["carrier"] ? ` into ${e.action["carrier"]}` : ""} · ${n?.cost ?? "?"} MC`, () => this.send([e.action]), "", n ? `${n.credits_left} MC left after` : ""));
      }
      E.extra.append(list);
      const ready = legal.find((x) => x.action.type === "fleet_ready");
      if (ready) row.append(this.button("Fleet ready ⏎", () => this.send([ready.action]), "primary"));
      else row.append(el("p", "tac-muted", "Buy at least one ship."));
      E.controls.append(row);
    }
    const sur = legal.find((x) => x.action.type === "surrender");
    if (sur) {
      const b = this.button(this.surrenderArmed ? "Really surrender? Click again" : "Surrender", () => {
        if (!this.surrenderArmed) {
          this.surrenderArmed = true;
          this.host.say("Click Surrender again to give up the game.", "warn");
          this.renderControls();
          return;
        }
        this.send([sur.action]);
      }, "danger");
      E.extra.append(b);
    }
  }

  // --- camera helpers ------------------------------------------------------------------------------------------
  private centreOnFleet(): void {
    const own = this.ships().find((s) => s.id === this.selected && !s.destroyed) ?? this.ownShips()[0];
    if (own && this.view) this.view.centreOn(own.position, Math.max(this.view.camera.zoom, FOCUS_ZOOM));
  }

  // --- gamepad ---------------------------------------------------------------------------------------------------
  private startGamepad(): void {
    if (typeof navigator === "undefined" || !("getGamepads" in navigator)) return;
    const map: Record<number, () => void> = {
      0: () => this.act({ kind: "confirm" }),
      1: () => this.act({ kind: "cancel" }),
      4: () => this.act({ kind: "next-ship", back: true }),
      5: () => this.act({ kind: "next-ship", back: false }),
      12: () => this.act({ kind: "attacker", step: -1 }),
      13: () => this.act({ kind: "attacker", step: 1 }),
      14: () => this.act({ kind: "target", step: -1 }),
      15: () => this.act({ kind: "target", step: 1 }),
      3: () => this.act({ kind: "focus-enemy" }),
      2: () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "l" })),
      9: () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "?" })),
      8: () => window.dispatchEvent(new KeyboardEvent("keydown", { key: "m" })),
    };
    const poll = (): void => {
      const pads = navigator.getGamepads?.() ?? [];
      const pad = [...pads].find((p) => p);
      if (pad) {
        pad.buttons.forEach((b, i) => {
          const was = this.pads[i] ?? 0;
          if (b.pressed && !was) map[i]?.();
          this.pads[i] = b.pressed ? 1 : 0;
        });
        const [ax, ay] = [pad.axes[0] ?? 0, pad.axes[1] ?? 0];
        if (this.view && (Math.abs(ax) > 0.25 || Math.abs(ay) > 0.25)) {
          this.view.camera.panBy(ax * 12, ay * 12, false);
          this.view.invalidate();
        }
      }
      this.padFrame = requestAnimationFrame(poll);
    };
    window.addEventListener("gamepadconnected", () => {
      this.host.say("Gamepad connected: A confirm, B cancel, LB/RB ships, D-pad targets.", "info");
    });
    this.padFrame = requestAnimationFrame(poll);
    window.addEventListener("keydown", (e) => (this.shiftDown = e.shiftKey));
    window.addEventListener("keyup", (e) => (this.shiftDown = e.shiftKey));
  }
}

declare global {
  interface Window {
    deltavTactical?: { screen: TacticalScreen; view: BoardView };
  }
}

/** How long a ship takes to glide along the path of its move on screen. */
const GLIDE_MS = 400;

function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
