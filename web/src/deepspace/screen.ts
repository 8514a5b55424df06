/**
 * The Deep Space Combat game screen (`GameScreen`): the hex plane (plane.ts) with the orders panel for the
 * step at hand, the fleets list (who is still plotting, never what; campaign scores with three or more fleets),
 * the ship card, the designer (designer.ts), the damage and self-destruct dialogs (dialogs.ts), the reveal
 * animation and the narration of what happened.
 *
 * The engine decomposes a round into small steps (docs/deepspace.md): per ship its velocity, then each weapon's
 * target, then done. The screen shows the step the engine is at and turns it into direct manipulation; every
 * submission is one of the legal entries, found by matching. Costs, odds and previews come from the entries'
 * notes (annotate.py), never from rules re-implemented here.
 */
import type { Hex } from "../shell/hex";
import { typingInField } from "../shell/input";
import type { GameScreen, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { allocationDialog, destructDialog } from "./dialogs";
import { button, clear, el, kbd } from "./dom";
import { Designer } from "./designer";
import { helpSection } from "./help";
import {
  type DsBoard,
  type DsShip,
  type DsView,
  indexStep,
  nearestVelocity,
  nudge,
  parseVkey,
  pct,
  sideColours,
  type StepIndex,
  StepQueue,
  shipName,
  velocityLabel,
  vkey,
} from "./model";
import { originOf, Plane, type Scene, type ShotLine } from "./plane";
import { injectStyle } from "./style";

const PHASE_TEXT: Record<string, string> = {
  design: "Design your fleet",
  deploy: "Deployment",
  plot: "Plotting",
  allocate: "Damage allocation",
  destruct: "Destruction phase",
  over: "Game over",
};

export class DeepSpaceScreen implements GameScreen {
  private host!: ScreenHost;
  private root!: HTMLElement;
  private plane!: Plane;
  private orders!: HTMLElement;
  private fleets!: HTMLElement;
  private card!: HTMLElement;
  private modal!: HTMLElement;
  private live!: HTMLElement;
  private designer: Designer | null = null;
  private board: DsBoard | null = null;
  private snap: Snapshot | null = null;
  private view: DsView | null = null;
  private idx: StepIndex | null = null;
  private colours: string[] = [];
  private plan: Hex | null = null;
  private focus: string | null = null;
  private hoverShip: string | null = null;
  private cursorHex: Hex | null = null;
  private stepKey = "";
  private inFlight = false;
  private queue = new StepQueue();
  private fitted = false;
  private handled = new WeakSet<Event>();
  private lastCurrent: string | null = null;
  private seq = 0;
  /** the person moved the view since the last automatic fit: leave it where they put it */
  private userMoved = false;

  async mount(root: HTMLElement, host: ScreenHost): Promise<void> {
    injectStyle();
    this.host = host;
    this.root = el("div", { class: "ds-root", "data-testid": "ds-root" });
    root.append(this.root);
    const canvas = el("canvas", { class: "ds-plane", "aria-label": "The hex plane: ships, velocities and targets", role: "img", tabindex: 0, "data-testid": "ds-plane" });
    this.root.append(canvas);
    this.orders = el("section", { class: "ds-panel ds-orders", "aria-label": "Orders", "data-testid": "ds-orders" });
    this.fleets = el("section", { class: "ds-panel ds-fleets", "aria-label": "Fleets", "data-testid": "ds-fleets" });
    this.card = el("section", { class: "ds-panel ds-card", "aria-label": "Ship", "data-testid": "ds-card" });
    this.card.hidden = true;
    this.modal = el("div");
    this.live = el("div", { class: "ds-sr", "aria-live": "polite", "data-testid": "ds-live" });
    const tools = el("div", { class: "ds-panel ds-tools" },
      button("All ships", () => this.fitAll(), { kbd: "H", title: "Show every ship" }),
      button("My ship", () => this.centreCurrent(), { kbd: "C", title: "Centre on the ship you are plotting" }),
      button("+", () => { this.plane.camera.zoomAt(1.25); this.plane.touch(); }, { title: "Zoom in" }),
      button("−", () => { this.plane.camera.zoomAt(0.8); this.plane.touch(); }, { title: "Zoom out" }));
    this.root.append(this.orders, this.fleets, this.card, tools, this.modal, this.live);
    new ResizeObserver(() => this.fitOrders()).observe(this.card);
    this.plane = new Plane(canvas);
    this.plane.onClick = (sx, sy) => this.click(sx, sy);
    this.plane.onDrag = (h, final) => this.dragTo(h, final);
    this.plane.onHover = (sx, sy) => this.hover(sx, sy);
    this.plane.onKey = (e) => this.key(e);
    this.plane.onUserMove = () => (this.userMoved = true);
    this.plane.onResize = () => {
      if (this.view && !this.userMoved) requestAnimationFrame(() => this.fitAll(true));
    };
    // where things are drawn, in page coordinates: what a person sees, for the browser tests to click
    const page = (p: [number, number] | null): [number, number] | null => {
      if (!p) return null;
      const r = canvas.getBoundingClientRect();
      return [r.left + p[0], r.top + p[1]];
    };
    (window as unknown as Record<string, unknown>).deltavDeepspace = {
      hex: (q: number, r: number) => page(this.plane.screenOf([q, r])),
      ship: (id: string) => page(this.plane.shipScreen(id)),
      handle: () => page(this.plane.handlePos()),
      animating: () => this.plane.animating,
      plan: () => this.plan,
    };
    try {
      const b = (await host.board()) as DsBoard | null;
      if (b && typeof b === "object" && b.format === "deltav-deepspace-board/1") this.board = b;
    } catch {
      this.board = null;
    }
    if (this.snap) this.render();
  }

  unmount(): void {
    this.plane?.destroy();
    this.root?.remove();
  }

  scoreLabel(): { title: string; help?: string } {
    return { title: "Campaign score", help: "Campaign score: hit points inflicted on enemies minus hit points received." };
  }

  phase(s: Snapshot): string {
    const v = s.view as unknown as DsView;
    if (s.status === "over" || v.phase === "over") return "Game over";
    const base = PHASE_TEXT[v.phase] ?? v.phase;
    if (v.phase === "plot") {
      if (s.seat === null) return `Round ${v.round} of ${v.round_limit}: the fleets plot in secret`;
      const mineDone = !s.to_act || s.submitted !== null;
      return `Round ${v.round} of ${v.round_limit}: ${mineDone ? "waiting for the other fleets" : "plot your ships in secret"}`;
    }
    if (v.phase === "allocate") return `Round ${v.round}: ${v.step === "blast" ? "explosion damage" : "damage"} allocation`;
    if (v.phase === "destruct") return `Round ${v.round}: self-destruct declarations`;
    return base;
  }

  help(): HTMLElement {
    return helpSection(this.board);
  }

  // --- snapshots ------------------------------------------------------------------------------------

  update(snapshot: Snapshot, newEvents: LogEntry[]): void {
    const prev = this.view;
    this.snap = snapshot;
    this.view = snapshot.view as unknown as DsView;
    if (!this.colours.length || this.colours.length !== this.view.players.length) {
      this.colours = sideColours(this.view.players.map((p) => p.name));
    }
    const acting = snapshot.to_act && snapshot.submitted === null;
    this.idx = acting ? indexStep(snapshot.legal) : null;
    const key = `${snapshot.step}|${acting}`;
    if (key !== this.stepKey) {
      this.stepKey = key;
      this.inFlight = false;
      this.resetStep();
    }
    if (newEvents.length && prev) this.animate(prev, newEvents);
    else if (!prev) this.plane?.setShots(shotsOf(this.view.report));
    if (this.plane) this.render();
    const shown = this.card && !this.card.hidden ? this.card.dataset.ship : undefined;
    const fresh = shown ? this.view.ships.find((x) => x.id === shown) : undefined;
    if (fresh && !this.modal.firstChild) this.showCard(fresh);
    if (acting && this.queue.length && !this.inFlight) this.pump();
    if (this.root) this.root.dataset.seq = String(++this.seq);
  }

  private resetStep(): void {
    const v = this.view;
    const idx = this.idx;
    this.focus = null;
    this.plan = null;
    this.cursorHex = null;
    if (!v || !idx) return;
    if (idx.kind === "velocity") {
      const s = v.ships.find((x) => x.id === idx.ship);
      const keep: Hex = v.phase === "plot" && s?.vel ? (s.vel as Hex) : [0, 0];
      this.plan = idx.byKey.has(vkey(keep)) ? keep : idx.byKey.size ? parseVkey(idx.byKey.keys().next().value as string) : null;
    } else if (idx.kind === "fire") {
      this.focus = bestTarget(idx);
    } else if (idx.kind === "place") {
      const me = v.you !== null ? v.players[v.you] : undefined;
      const centre: Hex | null = me ? [me.zone[0], me.zone[1]] : null;
      this.cursorHex = centre && idx.byKey.has(vkey(centre)) ? centre : null;
    }
    const cur = idx.ship;
    if (cur && idx.kind === "velocity" && v.phase === "deploy" && this.plane && this.fitted) {
      // the starting velocity: the placed ship in the middle, so every reachable hex shows
      const at = v.mine?.plans?.[cur]?.pos as Hex | undefined;
      if (at) {
        this.measureInsets();
        this.plane.centreOn(at);
      }
    }
    if (cur && cur !== this.lastCurrent) {
      this.lastCurrent = cur;
      const s = v.ships.find((x) => x.id === cur);
      const at = s?.pos ?? (v.mine?.plans?.[cur]?.pos as Hex | undefined) ?? null;
      if (at && this.plane && this.fitted && !this.onScreen(at as Hex)) {
        this.measureInsets();
        this.plane.centreOn(at as Hex);
      }
    }
  }

  private onScreen(h: Hex): boolean {
    const [sx, sy] = this.plane.screenOf(h);
    const c = this.plane.camera;
    return sx > 60 && sy > 60 && sx < c.width - 60 && sy < c.height - 60;
  }

  /** The reveal: ships glide from where they were, then the round's shots flash; and the narration. */
  private animate(prev: DsView, events: LogEntry[]): void {
    const v = this.view!;
    const types = new Set(events.map((e) => e.event.type));
    const from = new Map<string, Hex>();
    for (const s of prev.ships) if (s.pos) from.set(s.id, s.pos as Hex);
    const shots: ShotLine[] = [];
    for (const e of events) {
      const ev = e.event;
      if (ev.type === "shot") shots.push({ from: String(ev.ship), to: String(ev.target), hit: Boolean(ev.hit), hp: Number(ev.hp) });
    }
    const blasts = events.filter((e) => e.event.type === "detonated").map((e) => String(e.event.ship));
    if (types.has("moved") || types.has("shot")) {
      this.plane.reveal(from, shots, blasts);
      if (shots.length) this.host.sound(shots.some((s) => s.hit) ? "hit" : "fire");
    }
    if (types.has("placed") && !this.fitted) this.fitAll(true);
    if (types.has("placed")) this.fitAll();
    this.narrate(v, events);
  }

  private narrate(v: DsView, events: LogEntry[]): void {
    const me = v.you;
    const lines: string[] = [];
    const name = (id: unknown): string => {
      const s = v.ships.find((x) => x.id === id);
      return s ? `${s.owner === me ? "your " : `${v.players[s.owner]?.name ?? "?"}'s `}${s.name ?? `size-${s.size} ship`} ${s.id}` : String(id);
    };
    let hits = 0, misses = 0;
    for (const e of events) {
      const ev = e.event;
      switch (ev.type) {
        case "round":
          lines.push(`Round ${String(ev.round)} begins: plot in secret.`);
          break;
        case "placed":
          break;
        case "shot":
          if (ev.hit) {
            hits++;
            const t = v.ships.find((x) => x.id === ev.target);
            const s = v.ships.find((x) => x.id === ev.ship);
            if (me !== null && (t?.owner === me || s?.owner === me)) lines.push(`${name(ev.ship)} hit ${name(ev.target)} at range ${String(ev.range)} for ${String(ev.hp)} hit points.`);
          } else misses++;
          break;
        case "withdrew":
          lines.push(`${name(ev.ship)} withdrew from the battle.`);
          break;
        case "destroyed":
          lines.push(`${name(ev.ship)} was destroyed${ev.cause === "self-destruct" ? " (self-destruct)" : ""}.`);
          break;
        case "detonated":
          lines.push(`${name(ev.ship)} self-destructed!`);
          break;
        case "blast":
          lines.push(`The explosion of ${name(ev.ship)} did ${String(ev.hp)} hit points to ${name(ev.victim)}.`);
          break;
        case "stat_lost":
          break;
        case "game_over": {
          const w = (ev.winners as number[]) ?? [];
          const who = w.length ? w.map((p) => v.players[p]?.name ?? p).join(" and ") : "nobody";
          lines.push(`Game over: ${who} won (${String(ev.reason ?? "")}).`);
          if (me !== null) this.host.sound(w.includes(me) ? "win" : "lose");
          break;
        }
        default:
          break;
      }
    }
    if (hits + misses) lines.unshift(`Fire: ${hits} hit${hits === 1 ? "" : "s"}, ${misses} miss${misses === 1 ? "" : "es"}.`);
    if (lines.length) {
      // the shell's status line is the aria-live region: one narration, not two
      this.host.say(lines.slice(0, 6).join(" "));
    }
  }

  // --- submitting ------------------------------------------------------------------------------------

  private submit(e: LegalEntry, what?: string): void {
    if (this.inFlight) {
      this.host.say("One moment: the last order is still on its way.", "warn");
      return;
    }
    this.inFlight = true;
    this.host.sound("confirm");
    this.render();
    this.host.submit(e.action).then(
      () => {
        if (what) this.live.textContent = what;
      },
      (err: unknown) => {
        this.inFlight = false;
        this.queue.clear();
        const msg = err && typeof err === "object" && "message" in err ? String((err as { message: unknown }).message) : String(err);
        this.host.say(`Refused: ${msg}`, "error");
        this.host.sound("error");
        this.render();
      },
    );
  }

  private pump(): void {
    const snap = this.snap;
    if (!snap) return;
    const got = this.queue.next(snap.legal);
    if (!got) return;
    if ("problem" in got) {
      this.host.say(`Stopped: ${got.problem}.`, "warn");
      this.render();
      return;
    }
    this.submit(got.entry);
  }

  private run(steps: Partial<LegalEntry["action"]>[], label: string): void {
    this.queue.set(steps, label);
    this.host.say(`${label[0]?.toUpperCase() ?? ""}${label.slice(1)}…`);
    if (this.snap?.to_act && this.snap.submitted === null && !this.inFlight) this.pump();
  }

  private busy(): boolean {
    return this.inFlight || this.queue.length > 0;
  }

  // --- input -----------------------------------------------------------------------------------------

  private currentShip(): DsShip | undefined {
    const id = this.idx?.ship;
    return id ? this.view?.ships.find((s) => s.id === id) : undefined;
  }

  private click(sx: number, sy: number): void {
    const v = this.view;
    if (!v) return;
    const idx = this.idx;
    const ship = this.plane.shipAt(sx, sy);
    const h = this.plane.hexAt(sx, sy);
    if (!idx) {
      if (ship) this.showCard(ship);
      else if (this.snap?.status === "over") this.host.say("The game is over.");
      else if (v.you === null) this.host.say("You are watching: spectators cannot give orders.");
      else this.host.say(this.waitingText());
      return;
    }
    switch (idx.kind) {
      case "fire": {
        if (ship && idx.targets.has(ship.id)) {
          this.focus = ship.id;
          this.submit(idx.targets.get(ship.id)!, `Weapon ${idx.weapon + 1} aimed at ${ship.id}.`);
        } else if (ship) {
          this.showCard(ship);
          this.host.say(ship.owner === v.you ? `${ship.id} is yours: weapons target enemy ships.` : `${ship.id} cannot be targeted now.`, "warn");
        } else this.host.say(`Click an enemy ship to aim weapon ${idx.weapon + 1}, or press Hold fire.`);
        return;
      }
      case "velocity": {
        const s = this.currentShip();
        const origin = this.view && s ? originOf(this.scene(), s) : null;
        if (!origin) return;
        const v2: Hex = [h[0] - origin[0], h[1] - origin[1]];
        if (idx.byKey.has(vkey(v2))) {
          this.plan = v2;
          this.render();
        } else if (ship) this.showCard(ship);
        else this.host.say(`That hex is out of reach: ${s?.id ?? "the ship"} has thrust ${s?.thrust ?? "?"}. The lit hexes are where it can end this round.`, "warn");
        return;
      }
      case "column": {
        const s = this.currentShip();
        if (!s?.pos && v.phase === "plot") return;
        const origin = originOf(this.scene(), s) ?? [0, 0];
        const col = `${h[0] - origin[0]}`;
        const e = idx.byKey.get(col);
        if (e) this.submit(e);
        else this.host.say("Pick a column of hexes the ship can reach (its thrust is very large, so velocity is chosen column first).", "warn");
        return;
      }
      case "place": {
        const e = idx.byKey.get(vkey(h));
        if (e) {
          this.cursorHex = h;
          this.submit(e, `${idx.ship} placed at ${h[0]}, ${h[1]}.`);
        } else this.host.say("Deploy inside your zone: the lit hexes.", "warn");
        return;
      }
      default:
        if (ship) this.showCard(ship);
    }
  }

  private dragTo(h: Hex, final: boolean): void {
    const idx = this.idx;
    const s = this.currentShip();
    if (!idx || idx.kind !== "velocity" || !s) return;
    const origin = originOf(this.scene(), s);
    if (!origin) return;
    const v = nearestVelocity(idx, origin, h);
    if (v) this.plan = v;
    if (final) {
      const exact = idx.byKey.has(vkey([h[0] - origin[0], h[1] - origin[1]]));
      if (!exact) this.host.say("Out of reach: snapped to the nearest hex the ship's thrust allows.", "warn");
      this.render();
    } else {
      this.renderPlane();
      this.renderOrders();
    }
  }

  private hover(sx: number, sy: number): void {
    const s = this.plane.shipAt(sx, sy);
    const id = s?.id ?? null;
    if (id !== this.hoverShip) {
      this.hoverShip = id;
      if (s) this.showCard(s);
      this.renderPlane();
    }
  }

  key(e: KeyboardEvent): boolean {
    if (this.handled.has(e)) return true;
    if (typingInField(e) || e.ctrlKey || e.metaKey || e.altKey) return false;
    const used = this.handleKey(e);
    if (used) {
      this.handled.add(e);
      e.preventDefault();
    }
    return used;
  }

  private handleKey(e: KeyboardEvent): boolean {
    const k = e.key;
    if (k === "h" || k === "H" || k === "Home") {
      this.fitAll();
      return true;
    }
    if (k === "c" || k === "C") {
      this.centreCurrent();
      return true;
    }
    const idx = this.idx;
    if (!idx || this.busy()) return false;
    if (idx.kind === "velocity") {
      if (k >= "1" && k <= "6") {
        const n = this.plan ? nudge(idx, this.plan, Number(k) - 1) : null;
        if (n) this.plan = n;
        else this.host.say("The ship's thrust does not reach one hex farther that way.", "warn");
        this.render();
        return true;
      }
      if (k === "0" || k === "Backspace") {
        const s = this.currentShip();
        const keep: Hex = this.view?.phase === "plot" && s?.vel ? (s.vel as Hex) : [0, 0];
        if (idx.byKey.has(vkey(keep))) this.plan = keep;
        this.render();
        return true;
      }
      if (k === "Enter") {
        this.confirmVelocity();
        return true;
      }
      if ((k === "x" || k === "X") && idx.withdraw) {
        this.submit(idx.withdraw, `${idx.ship} withdraws.`);
        return true;
      }
    }
    if (idx.kind === "fire") {
      const ids = sortedTargets(idx);
      if (k === "[" || k === "]") {
        if (!ids.length) return true;
        const i = this.focus ? ids.indexOf(this.focus) : -1;
        this.focus = ids[(i + (k === "]" ? 1 : ids.length - 1) + (i < 0 && k === "[" ? 1 : 0)) % ids.length] ?? null;
        this.render();
        return true;
      }
      if (k === "Enter" && this.focus && idx.targets.has(this.focus)) {
        this.submit(idx.targets.get(this.focus)!, `Weapon ${idx.weapon + 1} aimed at ${this.focus}.`);
        return true;
      }
      if ((k === "0" || k === "Enter") && idx.hold) {
        this.submit(idx.hold, `Weapon ${idx.weapon + 1} holds fire.`);
        return true;
      }
    }
    if (idx.kind === "place") {
      const hexes = [...idx.byKey.keys()];
      if (k === "[" || k === "]") {
        const i = this.cursorHex ? hexes.indexOf(vkey(this.cursorHex)) : -1;
        const next = hexes[(i + (k === "]" ? 1 : hexes.length - 1) + hexes.length) % hexes.length];
        if (next) this.cursorHex = parseVkey(next);
        this.render();
        return true;
      }
      if (k === "Enter") {
        const h = this.cursorHex ?? (hexes[0] ? parseVkey(hexes[0]) : null);
        const e2 = h ? idx.byKey.get(vkey(h)) : undefined;
        if (e2) this.submit(e2, `${idx.ship} placed.`);
        return true;
      }
    }
    if (idx.kind === "done" && k === "Enter" && idx.done) {
      this.submit(idx.done, this.view?.phase === "plot" ? "Plot sealed." : "Deployment sealed.");
      return true;
    }
    if (idx.kind === "allocate" && (k === "a" || k === "A")) {
      const auto = idx.entries.find((x) => x.action.type === "auto_allocate");
      if (auto) this.submit(auto);
      return !!auto;
    }
    if (idx.kind === "destruct" && k === "N" && e.shiftKey) {
      const v = this.view!;
      const order = v.mine?.order ?? [];
      const cursor = typeof v.mine?.cursor === "number" ? v.mine.cursor : 0;
      this.run(order.slice(cursor).map((ship) => ({ type: "self_destruct", ship, detonate: false })), "standing down every ship");
      return true;
    }
    if (idx.kind === "destruct" && (k === "y" || k === "Y" || k === "n" || k === "N")) {
      const want = k === "y" || k === "Y";
      const e2 = idx.entries.find((x) => x.action.detonate === want);
      if (e2) this.submit(e2);
      return true;
    }
    return false;
  }

  private confirmVelocity(): void {
    const idx = this.idx;
    if (!idx || idx.kind !== "velocity" || !this.plan) return;
    const e = idx.byKey.get(vkey(this.plan));
    if (!e) {
      this.host.say("That velocity is not available: pick one of the lit hexes.", "warn");
      return;
    }
    const cost = typeof e.note?.cost === "number" ? ` for ${e.note.cost} thrust` : "";
    this.submit(e, `${idx.ship}: course ${String(e.note?.label ?? velocityLabel(this.plan))}${cost}.`);
  }

  private fitAll(instant = false): void {
    const v = this.view;
    if (!v || !this.plane) return;
    const hexes: Hex[] = [];
    for (const s of v.ships) {
      if (s.status !== "active" || !s.pos) continue;
      hexes.push(s.pos as Hex);
      if (s.vel) hexes.push([s.pos[0] + s.vel[0], s.pos[1] + s.vel[1]]);
    }
    if (!hexes.length) {
      for (const p of v.players) {
        hexes.push([p.zone[0] - p.zone[2], p.zone[1]], [p.zone[0] + p.zone[2], p.zone[1]], [p.zone[0], p.zone[1] - p.zone[2]], [p.zone[0], p.zone[1] + p.zone[2]]);
      }
    }
    const reach = this.idx?.kind === "velocity" ? this.currentShip() : undefined;
    if (reach?.pos && reach.vel) {
      const t = reach.thrust ?? 0;
      const c: Hex = [reach.pos[0] + reach.vel[0], reach.pos[1] + reach.vel[1]];
      hexes.push([c[0] - t, c[1]], [c[0] + t, c[1]], [c[0], c[1] - t], [c[0], c[1] + t]);
    }
    this.measureInsets();
    this.userMoved = false;
    this.plane.fitHexes(hexes, instant);
    if (this.idx?.kind === "place" && v.you !== null && this.plane.camera.target.zoom < 26) {
      // deploying: the player's own zone big enough to tap
      const z = v.players[v.you]!.zone;
      this.plane.fitHexes([[z[0] - z[2], z[1]], [z[0] + z[2], z[1]], [z[0], z[1] - z[2] - 2], [z[0], z[1] + z[2] + 2]], instant);
    }
    this.fitted = true;
  }

  /** The panels' footprint, so the plane fits ships into the part of the canvas they leave free. */
  private measureInsets(): void {
    const r = this.root.getBoundingClientRect();
    const o = this.orders.getBoundingClientRect();
    const f = this.fleets.getBoundingClientRect();
    if (r.width > 700) {
      // the orders panel takes the left; the fleets list only the top of the right side
      this.plane.insets = { left: o.width ? o.right - r.left : 0, top: f.height ? (f.bottom - r.top) * 0.6 : 0, right: 0, bottom: 0 };
    } else {
      this.plane.insets = { left: 0, top: f.height ? f.bottom - r.top : 0, right: 0, bottom: o.height ? r.bottom - o.top : 0 };
    }
  }

  private centreCurrent(): void {
    const s = this.currentShip();
    const at = s?.pos ?? (s ? (this.view?.mine?.plans?.[s.id]?.pos as Hex | undefined) : undefined);
    if (at) this.plane.centreOn(at as Hex);
    else this.host.say("No ship of yours is waiting for orders.");
  }

  // --- rendering ---------------------------------------------------------------------------------------

  private scene(): Scene {
    return {
      view: this.view!,
      colours: this.colours,
      current: this.idx?.ship ?? null,
      idx: this.idx,
      plan: this.plan,
      focus: this.focus,
      hoverShip: this.hoverShip,
      cursorHex: this.cursorHex,
    };
  }

  private render(): void {
    if (!this.view || !this.plane) return;
    this.renderOrders();
    this.renderFleets();
    if (!this.fitted) this.fitAll(true);
    this.renderPlane();
    this.renderModal();
  }

  private renderPlane(): void {
    if (!this.view) return;
    this.plane.setScene(this.scene());
  }

  private waitingText(): string {
    const v = this.view;
    if (!v) return "";
    const who = v.players.map((p, i) => ({ p, i })).filter(({ p, i }) => p.waiting && i !== v.you).map(({ p }) => p.name);
    const what = v.phase === "plot" ? "plotting" : v.phase === "design" ? "designing" : v.phase === "deploy" ? "deploying" : v.phase === "allocate" ? "allocating damage" : "declaring";
    if (!who.length) return "Resolving…";
    return `Waiting for ${who.join(", ")} (still ${what}). Your orders are sealed: nobody sees them until every fleet is done.`;
  }

  private renderOrders(): void {
    const v = this.view!;
    const o = this.orders;
    clear(o);
    const snap = this.snap!;
    o.dataset.kind = snap.status === "over" || v.phase === "over" ? "over" : this.idx && !this.inFlight ? this.idx.kind : "wait";
    if (snap.status === "over" || v.phase === "over") {
      const r = v.result;
      const w = r?.winners ?? [];
      o.append(el("h2", { text: w.length ? `${w.map((p) => v.players[p]?.name ?? p).join(" and ")} won` : "A draw" }));
      if (r?.reason) o.append(el("p", { text: `Reason: ${r.reason}.` }));
      if (v.you !== null) o.append(el("p", { class: "ds-dim", text: w.includes(v.you) ? "Your fleet carried the day." : w.length ? "Your fleet lost this battle." : "" }));
      const t = el("table", { class: "ds-sheet", "data-testid": "ds-final" });
      t.append(el("tr", {}, el("th", { text: "fleet" }), el("th", { class: "ds-r", text: "ships left" }), el("th", { class: "ds-r", text: "dealt" }),
        el("th", { class: "ds-r", text: "taken" }), el("th", { class: "ds-r", text: "score" })));
      v.players.forEach((p, i) => {
        const ships = v.ships.filter((x) => x.owner === i);
        t.append(el("tr", {}, el("td", { text: `${p.name}${i === v.you ? " (you)" : ""}${w.includes(i) ? " ★" : ""}` }),
          el("td", { class: "ds-r", text: `${ships.filter((x) => x.status === "active").length}/${ships.length}` }),
          el("td", { class: "ds-r", text: String(p.inflicted) }), el("td", { class: "ds-r", text: String(p.received) }),
          el("td", { class: "ds-r", text: `${p.score >= 0 ? "+" : ""}${p.score}` })));
      });
      o.append(t);
      return;
    }
    const idx = this.idx;
    // the shell's banner shows the phase (this.phase); the panel starts with what to do
    if (v.you === null) {
      o.append(el("p", { class: "ds-dim", text: "You are watching. Plots are secret until every fleet has plotted; ships' stats are known only to their owners." }));
      return;
    }
    if (!idx) {
      o.append(el("p", { "data-testid": "ds-waiting", text: this.waitingText() }));
      if (v.phase === "plot") o.append(this.planSummary());
      return;
    }
    if (this.queue.length || (this.inFlight && v.phase === "design")) {
      o.append(el("p", { class: "ds-state ds-busy", text: `Working: ${this.queue.label} (${this.queue.length} step${this.queue.length === 1 ? "" : "s"} to go)…` }));
    }
    const s = this.currentShip();
    switch (idx.kind) {
      case "design":
        o.append(el("p", { class: "ds-dim", text: "Use the designer to build your fleet within its size levels." }));
        break;
      case "place":
        o.append(this.shipLine(s, "Deploy"));
        o.append(el("p", { text: "Click a lit hex of your zone to place this ship." }));
        o.append(el("p", { class: "ds-dim" }, kbd("["), " ", kbd("]"), " move the marker, ", kbd("Enter"), " place."));
        break;
      case "velocity":
        this.velocityOrders(o, idx, s);
        break;
      case "column":
        o.append(this.shipLine(s, "Velocity (step 1 of 2)"));
        o.append(el("p", { text: "This ship's thrust is very large: pick the column of its new velocity first (click a hex in that column), then the hex." }));
        {
          const row = el("div", { class: "ds-row" });
          for (const [k, e] of idx.byKey) {
            row.append(button(`dq ${k}`, () => this.submit(e), { title: `min thrust ${String(e.note?.min_cost ?? "?")}` }));
          }
          o.append(row);
        }
        if (idx.withdraw) o.append(el("div", { class: "ds-row" }, button("Withdraw", () => this.submit(idx.withdraw!), { kbd: "X" })));
        break;
      case "fire":
        this.fireOrders(o, idx, s);
        break;
      case "done":
        if (v.phase === "plot") {
          o.append(el("p", { text: "Every ship is plotted. End plotting to seal your orders; they stay secret until every fleet has plotted." }));
          o.append(this.planSummary());
        } else o.append(el("p", { text: "Every ship is placed. Confirm your deployment; it is revealed when every fleet has deployed." }));
        o.append(el("div", { class: "ds-row" }, button(v.phase === "plot" ? "End plotting" : "Confirm deployment", () => idx.done && this.submit(idx.done, "Sealed."), {
          cls: "ds-primary", kbd: "Enter", disabled: this.inFlight, testid: "ds-done",
        })));
        break;
      case "allocate":
        o.append(el("p", { text: "Allocate the hit points your ship took (the dialog)." }));
        break;
      case "destruct":
        o.append(el("p", { text: "Declare self-destruction or stand down (the dialog)." }));
        break;
      default:
        break;
    }
  }

  private shipLine(s: DsShip | undefined, what: string): HTMLElement {
    const v = this.view!;
    const order = v.mine?.order ?? [];
    const i = s ? order.indexOf(s.id) : -1;
    const box = el("div");
    box.append(el("h3", { text: `${what}: ${s ? shipName(s, v.players) : "?"}${i >= 0 ? ` (ship ${i + 1} of ${order.length})` : ""}` }));
    if (s && s.thrust !== undefined) {
      box.append(el("p", { class: "ds-dim ds-num ds-shipstats", text: `size ${s.size} · thrust ${s.thrust} · evasion ${s.evasion} · endurance ${s.endurance} · weapons ${(s.weapons ?? []).map(([t, d]) => `${t}/${d}`).join(", ") || "none"}` }));
    }
    return box;
  }

  private velocityOrders(o: HTMLElement, idx: StepIndex, s: DsShip | undefined): void {
    const v = this.view!;
    o.append(this.shipLine(s, v.phase === "deploy" ? "Starting velocity" : "Course"));
    const plan = this.plan;
    const e = plan ? idx.byKey.get(vkey(plan)) : undefined;
    const n = e?.note ?? {};
    const dl = el("dl", { class: "ds-cost", "data-testid": "ds-course" });
    const row = (a: string, b: string): void => void dl.append(el("dt", { text: a }), el("dd", { text: b }));
    if (v.phase === "plot" && s?.vel) row("now", `${velocityLabel(s.vel as Hex)} (speed ${Math.max(Math.abs(s.vel[0]), Math.abs(s.vel[1]), Math.abs(s.vel[0] + s.vel[1]))})`);
    if (plan) row("plotted", `${String(n.label ?? velocityLabel(plan))} (speed ${String(n.speed ?? "?")})`);
    if (typeof n.cost === "number") {
      const parts: string[] = [];
      if (Number(n.speed_up)) parts.push(`speed +${String(n.speed_up)}`);
      if (Number(n.slow_down)) parts.push(`speed −${String(n.slow_down)}`);
      if (Number(n.turn)) parts.push(`turn ${String(n.turn)}`);
      row("thrust", `${n.cost} of ${s?.thrust ?? "?"}${parts.length ? ` (${parts.join(", ")})` : n.cost === 0 ? " (drift)" : ""}`);
      const d = n.dest as [number, number] | undefined;
      if (d) row("ends at", `hex ${d[0]}, ${d[1]}`);
    }
    o.append(dl);
    o.append(el("p", { class: "ds-dim ds-explain" }, "Drag the white handle or click a lit hex. ", kbd("1"), "–", kbd("6"), " nudge toward A–F, ", kbd("0"), " keep velocity."));
    const r = el("div", { class: "ds-row" });
    r.append(button("Confirm course", () => this.confirmVelocity(), { cls: "ds-primary", kbd: "Enter", disabled: !e || this.inFlight, testid: "ds-confirm-course" }));
    if (v.phase === "plot" && s?.vel && idx.byKey.has(vkey(s.vel as Hex))) {
      r.append(button("Keep velocity", () => { this.plan = s.vel as Hex; this.render(); }, { kbd: "0" }));
    }
    if (idx.withdraw) r.append(button("Withdraw", () => this.submit(idx.withdraw!, `${idx.ship} withdraws.`), { kbd: "X", title: `Every enemy is farther than ${String(idx.withdraw.note?.radius ?? "?")} hexes: this ship may leave the battle`, testid: "ds-withdraw" }));
    o.append(r);
  }

  private fireOrders(o: HTMLElement, idx: StepIndex, s: DsShip | undefined): void {
    const v = this.view!;
    o.append(this.shipLine(s, "Weapons"));
    const w = s?.weapons?.[idx.weapon];
    o.append(el("p", {}, el("strong", { text: `Weapon ${idx.weapon + 1}` }), w ? ` (targeting ${w[0]}, damage ${w[1]})` : "", ": click an enemy ship, or hold fire."));
    o.append(el("p", { class: "ds-dim ds-explain", text: "Chance to hit at the range after movement if the target keeps its velocity; the spread if it burns its thrust; the mean hit points of a hit." }));
    const list = el("ul", { class: "ds-targets", "data-testid": "ds-targets" });
    for (const tid of sortedTargets(idx)) {
      const e = idx.targets.get(tid)!;
      const t = v.ships.find((x) => x.id === tid);
      if (!t) continue;
      const n = e.note ?? {};
      const b = el("button", { class: `ds-target${tid === this.focus ? " ds-focus" : ""}`, type: "button", "data-testid": `ds-target-${tid}` });
      const sw = el("span", { class: "ds-sw" });
      sw.style.background = this.colours[t.owner] ?? "#888";
      const basis = n.basis === "design" ? "odds against its scenario design (public)" : n.basis === "damaged" ? `odds against its design before the ${String(n.hp_taken)} hp it took` : n.basis === "own" ? "your own ship" : "odds from an estimate: its design is secret";
      b.title = `${basis}. Range ${String(n.range)} if it keeps its velocity, ${String(n.range_min)} to ${String(n.range_max)} if it burns.`;
      const est = n.basis === "estimate" ? " (est.)" : n.basis === "damaged" ? " (≤)" : "";
      b.append(sw, el("span", { text: `${v.players[t.owner]?.name ?? "?"} size-${t.size} ${t.id}` }), el("span", { class: "ds-odds", text: `${pct(n.p_hit)}${est}` }),
        el("span", { class: "ds-sub", text: `range ${String(n.range)} (${String(n.range_min)}–${String(n.range_max)}) · hit ${pct(n.p_hit_best)}–${pct(n.p_hit_worst)} · ~${Math.round(Number(n.expected_hp ?? 0))} hp a hit` }));
      b.addEventListener("click", () => this.submit(e, `Weapon ${idx.weapon + 1} aimed at ${tid}.`));
      b.addEventListener("mouseenter", () => { this.focus = tid; this.renderPlane(); });
      list.append(el("li", {}, b));
    }
    o.append(list);
    o.append(el("div", { class: "ds-row ds-sticky" },
      idx.hold ? button("Hold fire", () => this.submit(idx.hold!, `Weapon ${idx.weapon + 1} holds fire.`), { kbd: "0", testid: "ds-hold" }) : null,
      el("span", { class: "ds-dim" }, kbd("["), " ", kbd("]"), " cycle, ", kbd("Enter"), " fire")));
  }

  private planSummary(): HTMLElement {
    const v = this.view!;
    const plans = v.mine?.plans ?? {};
    const box = el("div");
    const entries = Object.entries(plans);
    if (!entries.length) return box;
    box.append(el("h3", { text: "Your orders this round" }));
    const ul = el("ul", { class: "ds-targets" });
    for (const [sid, p] of entries) {
      const shots = (p.shots ?? []).map(([w, t]) => `w${w + 1}→${t ?? "hold"}`).join(", ");
      ul.append(el("li", { class: "ds-num", text: `${sid}: ${p.withdraw ? "withdraws" : p.vel ? velocityLabel(p.vel as Hex) : "?"}${shots ? ` · ${shots}` : ""}` }));
    }
    box.append(ul);
    return box;
  }

  private renderFleets(): void {
    const v = this.view!;
    const f = this.fleets;
    clear(f);
    f.append(el("h2", { text: "Fleets" }));
    const scored = v.players.length >= 3 || v.options.two_fleet_victory === "score";
    const ul = el("ul");
    v.players.forEach((p, i) => {
      const ships = v.ships.filter((s) => s.owner === i);
      const alive = ships.filter((s) => s.status === "active").length;
      const sw = el("span", { class: "ds-sw" });
      sw.style.background = this.colours[i] ?? "#888";
      const doing: Record<string, string> = { plot: "plotting…", design: "designing…", deploy: "deploying…", allocate: "allocating…", destruct: "declaring…" };
      const state = v.phase === "over" ? "" : p.waiting ? doing[v.phase] ?? "deciding…" : "ready";
      const name = el("span", {}, `${p.name}${i === v.you ? " (you)" : ""}`, el("span", { class: "ds-dim ds-num", text: ships.length ? ` · ${alive}/${ships.length} ships` : "" }));
      const right = el("span", { class: `ds-state${p.waiting ? " ds-busy" : ""}`, text: state });
      ul.append(el("li", { "data-testid": `ds-fleet-${i}` }, sw, name, right));
      if (scored) ul.append(el("li", { class: "ds-dim ds-num" }, el("span"), el("span", { text: `score ${p.score >= 0 ? "+" : ""}${p.score} (dealt ${p.inflicted}, taken ${p.received})` }), el("span")));
    });
    f.append(ul);
    if (v.round) f.append(el("p", { class: "ds-dim ds-num", text: `Round ${v.round} of ${v.round_limit}${scored ? " · campaign points decide" : ""}` }));
  }

  private showCard(s: DsShip): void {
    const v = this.view!;
    const c = this.card;
    clear(c);
    c.hidden = false;
    c.dataset.ship = s.id;
    c.append(el("h2", { text: shipName(s, v.players) }));
    const planned = v.mine?.plans?.[s.id];
    const shownVel = (s.vel ?? (v.phase === "deploy" ? planned?.vel : null)) as Hex | null | undefined;
    const vel = shownVel ? `${velocityLabel(shownVel)} (speed ${Math.max(Math.abs(shownVel[0]), Math.abs(shownVel[1]), Math.abs(shownVel[0] + shownVel[1]))})${s.vel ? "" : ", planned"}` : "not deployed yet";
    const lines: string[] = [`${v.players[s.owner]?.name ?? "?"} · size ${s.size} · ${s.status}`, `velocity ${vel}${s.pos ? ` · at ${s.pos[0]}, ${s.pos[1]}` : ""}`];
    if (s.thrust !== undefined) {
      lines.push(`thrust ${s.thrust} · evasion ${s.evasion} · endurance ${s.endurance}`);
      lines.push(`weapons ${(s.weapons ?? []).map(([t, d], i) => `${i + 1}: ${t}/${d}`).join(", ") || "none"}`);
    } else {
      lines.push(`stats secret · seen: thrust ≥ ${s.seen.thrust}, ${s.seen.weapons} weapon${s.seen.weapons === 1 ? "" : "s"}`);
    }
    if (s.hp_taken) lines.push(`${s.hp_taken} hit points taken so far`);
    for (const l of lines) c.append(el("p", { class: "ds-num", text: l }));
    this.fitOrders();
  }

  /** Keep the orders panel above the ship card (both sit in the left column): the room the card takes. */
  private fitOrders(): void {
    const space = this.card.hidden ? 0 : this.card.offsetHeight + 10;
    this.root.style.setProperty("--ds-card-space", `${space}px`);
  }

  private renderModal(): void {
    const v = this.view!;
    const idx = this.idx;
    clear(this.modal);
    const order = v.mine?.order ?? [];
    const cursor = typeof v.mine?.cursor === "number" ? v.mine.cursor : 0;
    const later = order.slice(cursor);
    const dh = {
      submit: (e: LegalEntry) => this.submit(e),
      busy: () => this.busy(),
      left: later.length,
      forAll: (kind: "auto" | "stand_down") => this.run(
        later.map((ship) => (kind === "auto" ? { type: "auto_allocate", ship } : { type: "self_destruct", ship, detonate: false })),
        kind === "auto" ? "the default allocation for every damaged ship" : "standing down every ship"),
    };
    if (v.phase === "design" && v.you !== null && (idx || this.busy())) {
      if (!this.designer) {
        this.designer = new Designer({
          pointsPerSize: this.board?.points_per_size ?? 60,
          run: (steps, label) => this.run(steps, label),
          say: (t, k) => this.host.say(t, k),
          busy: () => this.busy(),
        });
      }
      this.designer.update(v, this.snap!.legal, !!idx);
      this.modal.append(this.designer.root);
      return;
    }
    this.orders.hidden = false;
    if (!idx) return;
    const s = this.currentShip();
    // the damage and self-destruct dialogs take the orders panel's place, leaving the plane in view
    if (idx.kind === "allocate" && s) this.modal.append(allocationDialog(v, s, idx.entries, dh));
    if (idx.kind === "destruct" && s) this.modal.append(destructDialog(v, s, idx.entries, dh));
    if (this.modal.firstChild) {
      this.orders.hidden = true;
      this.card.hidden = true;
      this.fitOrders();
    }
  }
}

function sortedTargets(idx: StepIndex): string[] {
  return [...idx.targets.entries()].sort((a, b) => Number(b[1].note?.p_hit ?? 0) - Number(a[1].note?.p_hit ?? 0) || a[0].localeCompare(b[0])).map(([k]) => k);
}

function bestTarget(idx: StepIndex): string | null {
  return sortedTargets(idx)[0] ?? null;
}

function shotsOf(report: DsView["report"]): ShotLine[] {
  return report.filter((e) => e.type === "shot").map((e) => ({ from: String(e.ship), to: String(e.target), hit: Boolean(e.hit), hp: Number(e.hp) }));
}

