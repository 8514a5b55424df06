/**
 * The Deep Space Combat game screen (`GameScreen`): the hex plane (board.ts) with the orders panel for the
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
import { SEAT_COLOURS } from "../shell/palette";
import type { GameScreen, GuideStep, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { allocationDialog, destructDialog } from "./dialogs";
import { clear, el } from "../shell/dom";
import { button, kbd } from "./widgets";
import { Designer } from "./designer";
import { helpSection } from "./help";
import {
  type DsBoard,
  type DsShip,
  type DsView,
  indexStep,
  Namer,
  nearestVelocity,
  nudge,
  parseVkey,
  pct,
  type QueuedStep,
  type StepIndex,
  StepQueue,
  velocityLabel,
  vkey,
  noteOf,
  type Notes,
} from "./model";
import { originOf, type Plan, Plane, type Scene, type ShotLine } from "./board";
import { injectStyle } from "./styles";

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
  private tools!: HTMLElement;
  private myShip!: HTMLButtonElement;
  private modal!: HTMLElement;
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
  /** The last commissioned ship's line, said with the next design prompt (then forgotten). */
  private commissioned: string | null = null;
  private queue = new StepQueue();
  private fitted = false;
  private handled = new WeakSet<Event>();
  private lastCurrent: string | null = null;
  private seq = 0;
  /** the person moved the view since the last automatic fit: leave it where they put it */
  private userMoved = false;
  /** how this page names players and ships (the match's texts' way) */
  private names!: Namer;
  /** what the last resolutions did, in words, for the "what happened" card before the player's next decision */
  private happened: string[] = [];
  private happenedRound = 0;
  /** the step at which the "what happened" card was last shown */
  private toldAt = -1;
  /** the dialog (step and ship) the view was last fitted beside */
  private dialogFit = "";

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
    const tools = this.tools = el("div", { class: "ds-panel ds-tools" },
      button("All ships", () => this.fitAll(), { kbd: "H", title: "Show every ship" }),
      this.myShip = button("My ship", () => this.centreCurrent(), { kbd: "C", title: "Centre on the ship you are plotting" }),
      button("+", () => { this.plane.camera.zoomAt(1.25); this.plane.touch(); }, { title: "Zoom in" }),
      button("−", () => { this.plane.camera.zoomAt(0.8); this.plane.touch(); }, { title: "Zoom out" }));
    this.root.append(this.orders, this.fleets, this.card, tools, this.modal);
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
      /** every ship drawn, as the page names it, with where it is drawn and whether it is a wreck */
      drawn: () => this.plane.drawn().map((d) => ({ ...d, at: page(d.at), label: this.names.label(d.s), s: undefined })),
      handle: () => page(this.plane.handlePos()),
      animating: () => this.plane.animating,
      /** the view at rest: no reveal playing, the camera where it was sent */
      still: () => !this.plane.animating && this.plane.camera.settled,
      plan: () => this.plan,
      /** the view the screen draws (the snapshot's) */
      view: () => this.view,
      /** the hex the plotted ship's new velocity is measured from */
      origin: () => (this.view ? originOf(this.scene(), this.currentShip()) : null),
    };
    try {
      const b = (await host.board()) as DsBoard | null;
      if (b && typeof b === "object" && b.format === "deltav-deepspace-board/1") this.board = b;
    } catch {
      this.board = null;
    }
    host.helpChanged?.(); // a help opened before the board came has no tables yet
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
    const done = !s.to_act || s.submitted !== null;
    if (v.phase === "design") {
      if (s.seat === null) return "The fleets are designed in secret";
      const levels = v.players[s.seat]?.size_levels ?? 0;
      return done ? "Your fleet is ready: waiting for the other fleets" : `Design your fleet: ${levels} size levels`;
    }
    if (v.phase === "deploy" && s.seat !== null && done) return "Deployment: waiting for the other fleets";
    if (v.phase === "plot") {
      if (s.seat === null) return `Round ${v.round} of ${v.round_limit}: the fleets plot${fullView(v) ? "" : " in secret"}`;
      const mineDone = !s.to_act || s.submitted !== null;
      return `Round ${v.round} of ${v.round_limit}: ${mineDone ? "waiting for the other fleets" : "plot your ships in secret"}`;
    }
    if (v.phase === "allocate") return `Round ${v.round}: ${v.step === "blast" ? "explosion damage" : "damage"} allocation`;
    if (v.phase === "destruct") return `Round ${v.round}: self-destruct declarations`;
    return base;
  }

  help(): HTMLElement {
    return helpSection(this.board, (p) => this.seatName(p));
  }

  /** The first-game guide (the shell's guide frame): what a round is, then the design, deployment, plotting
   *  (course, fire, sealing: interactive steps that wait for the player), the reveal, damage, self-destruct and
   *  what wins. */
  guide(): GuideStep[] {
    const v = this.view;
    const you = v?.you ?? null;
    const dv = (s: Snapshot): DsView => s.view as unknown as DsView;
    const past = (s: Snapshot, phases: string[]): boolean => s.status === "over" || !phases.includes(dv(s).phase);
    const plans = (s: Snapshot): Plan[] => Object.values(dv(s).mine?.plans ?? {});
    const waiting = (s: Snapshot): boolean => you !== null && dv(s).players[you]?.waiting === true;
    const steps: GuideStep[] = [{
      title: "Deep Space Combat",
      text: "Fleets fight on an open hex plane with no edges. A round: every fleet plots in secret and at once (each ship's new "
        + "velocity and each weapon's target); then the ships move, every weapon fires at once, each side places the damage "
        + "its ships took, and ships may self-destruct. Sizes and velocities are public; every other stat is secret.",
    }];
    if (you !== null && v?.phase === "design") {
      steps.push({
        title: "Design your fleet",
        text: "Divide your size levels among ships: a ship of size S has 60 × S design points; thrust, evasion and endurance cost S "
          + "points a level, a weapon's targeting and damage 1 point a level. Name a ship, Commission it, and Finish the fleet "
          + "once every level is used (or adopt a ready-made fleet).",
        anchor: "[data-testid=ds-designer]",
        until: (s) => past(s, ["design"]) || !waiting(s),
      });
    }
    steps.push(
      {
        title: "Deploy",
        text: "Click a lit hex of your zone for each ship, then drag its white arrow to give it a starting velocity (no more "
          + "than its thrust), and confirm. Deployments are revealed when every fleet has deployed.",
        anchor: "[data-testid=ds-plane]",
        until: (s) => past(s, ["design", "deploy"]),
      },
      {
        title: "Plot a course",
        text: "The ringed ship is the one to plot. Its white arrow is its new velocity: drag the handle or click a lit hex (the "
          + "hexes its thrust reaches; keys 1-6 nudge it toward A-F). The panel shows the thrust it costs and where it ends. "
          + "Confirm course (Enter).",
        anchor: "[data-testid=ds-orders]",
        until: (s) => past(s, ["design", "deploy", "plot"]) || plans(s).some((p) => p.vel || p.withdraw),
      },
      {
        title: "Fire",
        text: "Each weapon aims now, before anyone moves: click an enemy ship (its ring shows the chance to hit at the range "
          + "after movement, if it keeps its velocity) or a line of the list, or Hold fire (0).",
        anchor: "[data-testid=ds-orders]",
        until: (s) => past(s, ["design", "deploy", "plot"]) || plans(s).some((p) => (p.shots ?? []).length > 0),
      },
      {
        title: "Seal the plot",
        text: "When every ship is plotted, End plotting (Enter). Nobody sees your orders until every fleet has plotted.",
        anchor: "[data-testid=ds-orders]",
        until: (s) => past(s, ["design", "deploy", "plot"]) || (dv(s).phase === "plot" && !waiting(s)),
      },
      {
        title: "The reveal",
        text: "Then the ships glide to their new hexes and every shot flashes: hits in red with the hit points, misses dashed. "
          + "A card says what happened to your ships; Continue (Enter) goes on.",
      },
      {
        title: "Damage",
        text: "Your ships' hit points are yours to place: a ship stat (thrust, evasion, endurance) loses a level per size's worth "
          + "of hit points, a weapon stat one per hit point. Default allocation (A) does it for you. A ship with every stat at "
          + "zero is destroyed and stays on the plane as a wreck.",
      },
      {
        title: "Self-destruct",
        text: "At the end of a round any ship may explode against every ship in its hex, friend or foe. Stand down (N) keeps it.",
      },
      {
        title: "What wins",
        text: "With two fleets, the side left on the field wins. With three or more, or at the round limit, the campaign points "
          + "decide: hit points inflicted on enemies minus hit points received. A ship far from every enemy may withdraw.",
      },
      {
        title: "Help",
        text: "? opens the help: the rules in short, the chance-to-hit table, the keys, the briefing and this guide again.",
      },
    );
    return steps;
  }

  // --- snapshots ------------------------------------------------------------------------------------

  update(snapshot: Snapshot, newEvents: LogEntry[]): void {
    const prev = this.view;
    this.snap = snapshot;
    this.view = snapshot.view as unknown as DsView;
    // one colour per seat, the shell's (the chips, the log, the result): the scenario's side names are not colours
    this.colours = this.view.players.map((_, i) => SEAT_COLOURS[i % SEAT_COLOURS.length]!);
    this.names = new Namer(this.view, this.board, (p) => this.seatName(p));
    const acting = snapshot.to_act && snapshot.submitted === null;
    this.idx = acting ? indexStep(snapshot.legal, this.view.phase) : null;
    const key = `${snapshot.step}|${acting}`;
    const fresh = key !== this.stepKey;
    if (fresh) {
      this.stepKey = key;
      this.inFlight = false;
      this.resetStep();
    }
    let said = false;
    if (newEvents.length && prev) said = this.animate(prev, newEvents);
    else if (!prev) this.plane?.setShots(shotsOf(this.view.report));
    // a new decision: the status line says what it asks (unless the narration of what just happened is there)
    if (fresh && acting && !said && !this.queue.length && this.idx) this.host.say(this.prompt(this.idx));
    if (this.plane) this.render();
    const shown = this.card && !this.card.hidden ? this.card.dataset.ship : undefined;
    const again = shown ? this.view.ships.find((x) => x.id === shown) : undefined;
    if (again && !this.modal.firstChild) this.showCard(again);
    if (acting && this.queue.length && !this.inFlight) this.pump();
    this.tell(snapshot, acting);
    if (this.root) this.root.dataset.seq = String(++this.seq);
  }

  /** A seat's display name (the snapshot's names, as the chips and the log say it). */
  private seatName(p: number): string {
    return this.snap?.names?.[p] ?? this.host?.seatName(p) ?? `Player ${p + 1}`;
  }

  /** What the resolution did, on the shell's "what happened" card before the player's next decision, so that no
   *  key meant for the last decision acts on the next (the round resolved by itself when the last plot came). */
  private tell(snapshot: Snapshot, acting: boolean): void {
    if (!acting || snapshot.seat === null || !this.happened.length || this.toldAt === snapshot.step) return;
    if (!this.host.acknowledge) {
      this.happened = [];
      return;
    }
    this.toldAt = snapshot.step;
    const lines = this.happened.splice(0);
    const round = this.happenedRound;
    void this.host.acknowledge(round ? `Round ${round}: what happened` : "What happened",
      lines.length > 10 ? [...lines.slice(0, 9), `…and ${lines.length - 9} more (the log has every one).`] : lines);
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

  /** The reveal: ships glide from where they were, then the round's shots flash; and the narration (true when it
   *  said something). */
  private animate(prev: DsView, events: LogEntry[]): boolean {
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
    return this.narrate(v, events);
  }

  /** What a decision asks, for the status line when it comes up. */
  private prompt(idx: StepIndex): string {
    const v = this.view!;
    const s = this.currentShip();
    const who = s ? this.names.Ship(s) : "";
    switch (idx.kind) {
      case "design": {
        const done = this.commissioned;
        this.commissioned = null;
        return `${done ? `${done} ` : ""}Design your fleet: commission ships within your size levels (or adopt a ready-made fleet), then Finish fleet.`;
      }
      case "place":
        return `Deploy ${who.charAt(0).toLowerCase()}${who.slice(1)}: click a lit hex of your zone.`;
      case "velocity":
        return v.phase === "deploy" ? `${who}: its starting velocity (drag the white arrow or click a lit hex), then Confirm course.`
          : `${who}: plot its course (drag the white arrow or click a lit hex), then Confirm course.`;
      case "column":
        return `${who}: pick the column of its new velocity first.`;
      case "fire":
        return `${who}: aim weapon ${idx.weapon + 1} at an enemy ship, or hold fire.`;
      case "done":
        return v.phase === "plot" ? "Every ship is plotted: End plotting to seal your orders." : "Every ship is placed: Confirm deployment.";
      case "allocate":
        return `${who} took ${s?.pending ?? "?"} hit points: place them on its stats.`;
      case "destruct":
        return `${who}: self-destruct or stand down.`;
      default:
        return "";
    }
  }

  private narrate(v: DsView, events: LogEntry[]): boolean {
    const me = v.you;
    const n = this.names;
    const lines: string[] = [];
    /** what the card tells: the round's resolution as the viewer would want it read */
    const told: string[] = [];
    const ship = (id: unknown): string => {
      const s = n.byId(id);
      return s ? n.ship(s) : "a ship";
    };
    const Ship = (id: unknown): string => {
      const t = ship(id);
      return t.charAt(0).toUpperCase() + t.slice(1);
    };
    let hits = 0, misses = 0, damage = 0;
    for (const e of events) {
      const ev = e.event;
      switch (ev.type) {
        case "round":
          lines.push(`Round ${String(ev.round)} begins: plot in secret.`);
          break;
        case "shot": {
          const t = n.byId(ev.target);
          const s = n.byId(ev.ship);
          const mine = me !== null && (t?.owner === me || s?.owner === me);
          const what = ev.hit ? (Number(ev.hp) ? `hit, ${String(ev.hp)} hit points` : "hit, no damage got through") : "missed";
          if (ev.hit) {
            hits++;
            damage += Number(ev.hp);
          } else misses++;
          const line = `${Ship(ev.ship)} fired at ${ship(ev.target)} (range ${String(ev.range)}): ${what}.`;
          if (mine || me === null) told.push(line);
          if (ev.hit && mine) lines.push(line);
          break;
        }
        case "shot_void":
          told.push(`${Ship(ev.ship)} did not fire: ${ship(ev.target)} withdrew.`);
          break;
        case "withdrew":
          lines.push(`${Ship(ev.ship)} withdrew from the battle.`);
          told.push(lines[lines.length - 1]!);
          break;
        case "destroyed":
          lines.push(`${Ship(ev.ship)} was destroyed${ev.cause === "self-destruct" ? " (self-destruct)" : ""}.`);
          told.push(lines[lines.length - 1]!);
          break;
        case "detonated":
          lines.push(`${Ship(ev.ship)} self-destructed!`);
          told.push(lines[lines.length - 1]!);
          break;
        case "blast":
          lines.push(`The explosion of ${ship(ev.ship)} did ${String(ev.hp)} hit points to ${ship(ev.victim)}.`);
          told.push(lines[lines.length - 1]!);
          break;
        case "game_over": {
          const w = (ev.winners as number[]) ?? [];
          const who = w.length ? w.map((p) => n.seat(p)).join(" and ") : "nobody";
          lines.push(`Game over: ${who} won.`);
          if (me !== null) this.host.sound(w.includes(me) ? "win" : "lose");
          break;
        }
        default:
          break;
      }
    }
    if (hits + misses) {
      const head = `Fire: ${hits} hit${hits === 1 ? "" : "s"} (${damage} hit points), ${misses} miss${misses === 1 ? "" : "es"}.`;
      lines.unshift(head);
      told.unshift(head);
    }
    if (told.length && v.phase !== "over") {
      if (!this.happened.length) this.happenedRound = v.phase === "plot" && events.some((e) => e.event.type === "round") ? v.round - 1 : v.round;
      this.happened.push(...told);
    }
    if (lines.length) {
      // the shell's status line is the aria-live region: one narration, not two
      this.host.say(lines.slice(0, 6).join(" "));
    }
    return lines.length > 0;
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
    const at = this.snap?.step;
    // the next design decision often comes before this order's answer: its prompt says the ship is commissioned
    if (e.action.type === "end_ship") this.commissioned = this.sentText(e);
    this.host.submit(e.action).then(
      () => {
        // the shell says that a buffered choice "is in"; here the line follows the decision at hand (a design
        // or a plot is many small steps, and only the last one seals it), unless the game moved on already
        if (this.snap?.step === at) this.host.say(what ?? this.sentText(e));
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

  /** What the status line says once an order is accepted. */
  private sentText(e: LegalEntry): string {
    const a = e.action;
    const phase = this.view?.phase;
    if (this.queue.length) return `${this.queue.label[0]?.toUpperCase() ?? ""}${this.queue.label.slice(1)}: ${this.queue.length} step${this.queue.length === 1 ? "" : "s"} to go…`;
    const s = this.names.byId(a.ship);
    const name = s ? this.names.Ship(s) : "";
    switch (a.type) {
      case "end_ship":
        return `Ship commissioned${a.name ? `: ${String(a.name)}` : ""}. Its design stays secret until it shows in battle.`;
      case "use_fleet":
        return "Ready-made fleet adopted (in secret).";
      case "done":
        return phase === "design" ? "Your fleet is ready. The battle begins when every fleet is designed."
          : phase === "deploy" ? "Deployment sealed: revealed when every fleet has deployed."
            : "Plot sealed: revealed when every fleet has plotted.";
      case "place":
        return `${name} placed.`;
      case "velocity":
        return phase === "deploy" ? `${name}: starting velocity set.` : `${name}: course set.`;
      case "withdraw":
        return `${name} withdraws.`;
      case "fire":
        return a.target === null ? `${name}: weapon ${Number(a.weapon) + 1} holds fire.` : `${name}: weapon ${Number(a.weapon) + 1} aimed.`;
      case "allocate": {
        const stat = a.weapon === null ? String(a.stat) : `weapon ${Number(a.weapon) + 1} ${String(a.stat)}`;
        return `${name}: ${String(a.hp)} hit point${a.hp === 1 ? "" : "s"} placed on ${stat}.`;
      }
      case "auto_allocate":
        return `${name}: the default allocation placed its damage.`;
      case "self_destruct":
        return a.detonate ? `${name} will self-destruct.` : `${name} stands down.`;
      default:
        return "Sent.";
    }
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

  private run(steps: QueuedStep[], label: string): void {
    this.queue.set(steps, label);
    this.host.say(`${label[0]?.toUpperCase() ?? ""}${label.slice(1)}…`);
    if (this.snap?.to_act && this.snap.submitted === null && !this.inFlight) this.pump();
  }

  private busy(): boolean {
    return this.inFlight || this.queue.length > 0;
  }

  // --- input -----------------------------------------------------------------------------------------

  /** A ship by id in words, starting a sentence ("Your Raider 1"). */
  private shipWords(id: string | null): string {
    const s = id ? this.names.byId(id) : undefined;
    return s ? this.names.Ship(s) : "The ship";
  }

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
          this.submit(idx.targets.get(ship.id)!, `Weapon ${idx.weapon + 1} aimed at ${this.names.ship(ship)}.`);
        } else if (ship) {
          this.showCard(ship);
          this.host.say(ship.owner === v.you ? `${this.names.Ship(ship)} is yours: weapons target enemy ships.` : `${this.names.Ship(ship)} cannot be targeted now.`, "warn");
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
        else this.host.say(`That hex is out of reach: ${s ? this.names.ship(s) : "the ship"} has thrust ${s?.thrust ?? "?"}. The lit hexes are where it can end this round.`, "warn");
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
          this.submit(e, `${this.shipWords(idx.ship)} placed.`);
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
    // Enter and Space on a focused control (a button of this screen, the guide's Next) are that control's
    const t = e.target;
    if ((e.key === "Enter" || e.key === " ") && t instanceof HTMLElement && t.closest("button, a[href], select, summary")) return false;
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
        this.submit(idx.withdraw, `${this.shipWords(idx.ship)} withdraws.`);
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
        this.submit(idx.targets.get(this.focus)!, `Weapon ${idx.weapon + 1} aimed at ${this.shipWords(this.focus).replace(/^Your /, "your ")}.`);
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
        if (e2) this.submit(e2, `${this.shipWords(idx.ship)} placed.`);
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
    this.submit(e, `${this.shipWords(idx.ship)}: course ${String(e.note?.label ?? velocityLabel(this.plan))}${cost}.`);
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
    // the panel on the left (a phone: at the foot): the orders, or a dialog in their place
    const dialog = this.modal.firstElementChild as HTMLElement | null;
    const o = this.orders.hidden && dialog ? dialog.getBoundingClientRect() : this.orders.getBoundingClientRect();
    const f = this.fleets.getBoundingClientRect();
    if (r.width > 700) {
      // the orders panel takes the left; the fleets list only the top of the right side
      this.plane.insets = { left: o.width ? o.right - r.left : 0, top: f.height ? (f.bottom - r.top) * 0.6 : 0, right: 0, bottom: 0 };
    } else {
      // a phone: the tools and the fleets list at the top (the list is folded away while a dialog is up), the
      // orders or the dialog at the foot
      const t = this.tools.getBoundingClientRect();
      const top = Math.max(f.height ? f.bottom - r.top : 0, t.height ? t.bottom - r.top : 0);
      this.plane.insets = { left: 0, top, right: 0, bottom: o.height ? r.bottom - o.top : 0 };
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
    const v = this.view!;
    const everyone = fullView(v);
    return {
      view: v,
      colours: this.colours,
      current: this.idx?.ship ?? null,
      idx: this.idx,
      plan: this.plan,
      focus: this.focus,
      hoverShip: this.hoverShip,
      cursorHex: this.cursorHex,
      label: (s) => this.names.label(s),
      seat: (p) => this.names.seat(p),
      plans: everyone ? Object.assign({}, ...v.players.map((p) => p.private?.plans ?? {})) : v.mine?.plans ?? {},
      everyone,
    };
  }

  private render(): void {
    if (!this.view || !this.plane) return;
    this.myShip.hidden = this.view.you === null; // a spectator or a replay has no ship to plot
    if (this.view.you === null) this.root.dataset.watching = "";
    else delete this.root.dataset.watching;
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
    const who = v.players.map((p, i) => ({ p, i })).filter(({ p, i }) => p.waiting && i !== v.you).map(({ i }) => this.names.seat(i));
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
      const r = snap.result ?? v.result;
      const w = r?.winners ?? [];
      o.append(el("h2", { text: w.length ? `${w.map((p) => this.names.seat(p)).join(" and ")} won` : "A draw" }));
      // the engine's words for the end (its game_over line), or the shell's reason for an ending outside the rules
      const end = [...snap.log].reverse().find((e) => e.event.type === "game_over")?.text;
      if (end) o.append(el("p", { text: `${end}.` }));
      else if (r?.reason) o.append(el("p", { text: r.reason === "resign" ? "The match ended by a resignation." : r.reason === "forfeit" ? "The match ended by a forfeit." : `${r.reason}.` }));
      if (v.you !== null) o.append(el("p", { class: "ds-dim", text: w.includes(v.you) ? "Your fleet carried the day." : w.length ? "Your fleet lost this battle." : "" }));
      const t = el("table", { class: "ds-sheet", "data-testid": "ds-final" });
      t.append(el("tr", {}, el("th", { text: "fleet" }), el("th", { class: "ds-r", text: "ships left" }), el("th", { class: "ds-r", text: "dealt" }),
        el("th", { class: "ds-r", text: "taken" }), el("th", { class: "ds-r", text: "score" })));
      v.players.forEach((p, i) => {
        const ships = v.ships.filter((x) => x.owner === i);
        t.append(el("tr", {}, el("td", { text: `${this.names.seat(i)}${i === v.you ? " (you)" : ""}${w.includes(i) ? " ★" : ""}` }),
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
      if (fullView(v)) {
        o.append(el("p", { class: "ds-dim ds-full-note", text: "Everyone's view: every fleet's designs, stats and pending orders are shown (nothing is secret once the match is over)." }));
        o.append(this.everyonesOrders());
      } else {
        o.append(el("p", { class: "ds-dim", text: "You are watching. Plots are secret until every fleet has plotted; ships' stats are known only to their owners." }));
      }
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
    box.append(el("h3", { text: `${what}${i >= 0 && order.length > 1 ? ` (ship ${i + 1} of ${order.length})` : ""}: ${s ? this.names.Ship(s) : "?"}` }));
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
    const n: Partial<Notes["velocity"]> = noteOf(e, "velocity") ?? {};
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
    if (idx.withdraw) r.append(button("Withdraw", () => this.submit(idx.withdraw!, `${this.shipWords(idx.ship)} withdraws.`), { kbd: "X", title: `Every enemy is farther than ${String(idx.withdraw.note?.radius ?? "?")} hexes: this ship may leave the battle`, testid: "ds-withdraw" }));
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
      const n: Partial<Notes["fire"]> = noteOf(e, "fire") ?? {};
      const b = el("button", { class: `ds-target${tid === this.focus ? " ds-focus" : ""}`, type: "button", "data-testid": `ds-target-${tid}` });
      const sw = el("span", { class: "ds-sw" });
      sw.style.background = this.colours[t.owner] ?? "#888";
      const basis = n.basis === "design" ? "odds against its scenario design (public)" : n.basis === "damaged" ? `odds against its design before the ${String(n.hp_taken)} hp it took` : n.basis === "own" ? "your own ship" : "odds from an estimate: its design is secret";
      b.title = `${basis}. Range ${String(n.range)} if it keeps its velocity, ${String(n.range_min)} to ${String(n.range_max)} if it burns.`;
      const est = n.basis === "estimate" ? " (est.)" : n.basis === "damaged" ? " (≤)" : "";
      b.append(sw, el("span", { text: `${this.names.Ship(t)} (size ${t.size})` }), el("span", { class: "ds-odds", text: `${pct(n.p_hit)}${est}` }),
        el("span", { class: "ds-sub", text: `range ${String(n.range)} (${String(n.range_min)}–${String(n.range_max)}) · hit ${pct(n.p_hit_best)}–${pct(n.p_hit_worst)} · ~${Math.round(Number(n.expected_hp ?? 0))} hp a hit` }));
      b.addEventListener("click", () => this.submit(e, `Weapon ${idx.weapon + 1} aimed at ${this.names.ship(t)}.`));
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
    for (const [sid, p] of entries) ul.append(el("li", { class: "ds-num", text: this.planWords(sid, p) }));
    box.append(ul);
    return box;
  }

  /** A ship's pending plan in words: "Your Raider 1: 2C (speed 2) · weapon 1 at Ann's Raider 2, weapon 2 holds". */
  private planWords(sid: string, p: Plan): string {
    const s = this.names.byId(sid);
    const who = s ? this.names.Ship(s) : "A ship";
    const target = (t: string | null): string => {
      const x = t ? this.names.byId(t) : undefined;
      return x ? `at ${this.names.ship(x)}` : "holds";
    };
    const shots = (p.shots ?? []).map(([w, t]) => `weapon ${w + 1} ${target(t)}`).join(", ");
    const course = p.withdraw ? "withdraws" : p.vel ? `${velocityLabel(p.vel as Hex)}` : this.view?.phase === "deploy" && p.pos ? "placed" : "course not set";
    const boom = p.detonate === true ? " · self-destructs" : p.detonate === false ? " · stands down" : "";
    return `${who}: ${course}${shots ? ` · ${shots}` : ""}${boom}`;
  }

  /** A full view's pending orders of every fleet (a replay shows the secrets of a finished match). */
  private everyonesOrders(): HTMLElement {
    const v = this.view!;
    const box = el("div", { "data-testid": "ds-everyone" });
    v.players.forEach((pl, i) => {
      const priv = pl.private;
      if (!priv) return;
      const lines: string[] = [];
      if (v.phase === "design") {
        for (const d of priv.designs ?? []) {
          lines.push(`${d.name}: size ${d.size}, thrust ${d.thrust}, evasion ${d.evasion}, endurance ${d.endurance}, weapons ${d.weapons.map((w) => `${w.targeting}/${w.damage}`).join(", ") || "none"}`);
        }
        const dr = priv.draft;
        if (dr && dr.stage !== "size") lines.push(`designing a size-${dr.size} ship (${dr.stage} next)`);
      } else {
        for (const [sid, p] of Object.entries(priv.plans ?? {})) lines.push(this.planWords(sid, p));
      }
      if (!lines.length) return;
      const sw = el("span", { class: "ds-sw" });
      sw.style.background = this.colours[i] ?? "#888";
      box.append(el("h3", {}, sw, ` ${this.names.seat(i)}`));
      const ul = el("ul", { class: "ds-targets" });
      for (const l of lines) ul.append(el("li", { class: "ds-num", text: l }));
      box.append(ul);
    });
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
      const name = el("span", {}, `${this.names.seat(i)}${i === v.you ? " (you)" : ""}`, el("span", { class: "ds-dim ds-num", text: ships.length ? ` · ${alive}/${ships.length} ships` : ` · ${p.size_levels} size levels` }));
      const right = el("span", { class: `ds-state${p.waiting ? " ds-busy" : ""}`, text: state });
      ul.append(el("li", { "data-testid": `ds-fleet-${i}` }, sw, name, right));
      if (scored) ul.append(el("li", { class: "ds-dim ds-num" }, el("span"), el("span", { text: `points ${p.score >= 0 ? "+" : ""}${p.score} (dealt ${p.inflicted}, taken ${p.received})` }), el("span")));
    });
    f.append(ul);
    if (v.round) f.append(el("p", { class: "ds-dim ds-num", text: `Round ${v.round} of ${v.round_limit}${scored ? " · campaign points decide" : ""}` }));
    else if (v.players.some((p, i) => p.size_levels !== v.players[0]?.size_levels && i > 0)) {
      f.append(el("p", { class: "ds-dim", text: "Unequal budgets (size levels)." }));
    }
  }

  private showCard(s: DsShip): void {
    const v = this.view!;
    const c = this.card;
    clear(c);
    c.hidden = false;
    c.dataset.ship = s.id;
    c.append(el("h2", { text: this.names.Ship(s) }));
    const planned = this.scene().plans[s.id];
    const shownVel = (s.vel ?? (v.phase === "deploy" ? planned?.vel : null)) as Hex | null | undefined;
    const vel = shownVel ? `${velocityLabel(shownVel)} (speed ${Math.max(Math.abs(shownVel[0]), Math.abs(shownVel[1]), Math.abs(shownVel[0] + shownVel[1]))})${s.vel ? "" : ", planned"}` : "not deployed yet";
    const lines: string[] = [`${this.names.seat(s.owner)} · size ${s.size} · ${s.status === "active" ? "in the battle" : s.status === "destroyed" ? "destroyed (a wreck)" : "withdrawn"}`, `velocity ${vel}`];
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
    delete this.root.dataset.dialog;
    const order = v.mine?.order ?? [];
    const cursor = typeof v.mine?.cursor === "number" ? v.mine.cursor : 0;
    const later = order.slice(cursor);
    const dh = {
      submit: (e: LegalEntry) => this.submit(e),
      busy: () => this.busy(),
      left: later.length,
      names: this.names,
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
      // the designer is the whole decision: no orders panel behind it asking anything else
      this.orders.hidden = true;
      return;
    }
    this.orders.hidden = false;
    if (!idx) return;
    const s = this.currentShip();
    // the damage and self-destruct dialogs take the orders panel's place, leaving the plane in view
    if (idx.kind === "allocate" && s) this.modal.append(allocationDialog(v, s, idx.entries, dh));
    if (idx.kind === "destruct" && s) this.modal.append(destructDialog(v, s, idx.entries, dh));
    if (this.modal.firstChild) {
      this.root.dataset.dialog = idx.kind;
      this.orders.hidden = true;
      this.card.hidden = true;
      this.fitOrders();
      // the ships in view beside the dialog, never under it: fitted again for each new dialog (a new ship)
      const key = `${this.snap?.step}|${s?.id}`;
      if (key !== this.dialogFit && !this.userMoved) {
        this.dialogFit = key;
        requestAnimationFrame(() => this.fitAll());
      }
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


/** Whether a view is a finished match's full view (a replay's "everyone"): every player's record holds its
 *  secrets under `private` (docs/deepspace.md). */
function fullView(v: DsView): boolean {
  return v.you === null && v.players.some((p) => p.private !== undefined);
}
