/**
 * The Delta-V tactical game screen (GameScreen): the board with the pieces (pieces.ts), a side panel with the
 * objective, your ships, the phase's preview and controls, and a footer that always shows the phase's main
 * action (Confirm turn, Launch / Skip, Attack / End combat, Done, Fleet ready) with Undo; the input of the help
 * text (click or 1-6 burns, Shift or the Overload button for an overload, Tab ships, Enter confirm, N/T/K
 * ordnance, [ ] { } targeting, E, H, the gamepad, touch).
 *
 * Every action it submits is an entry of `snapshot.legal`, found by matching (model.ts); previews, odds and
 * costs are the engine's notes on those entries; the assistant, the reach shadow and the hint are the server's
 * answers to `suggest` (its `plan`, and the hard bot's candidate). A multi-step choice (orders for several ships,
 * then the end of astrogation; attackers, then fire) is
 * submitted one entry at a time, each matched again against the snapshot that follows the previous one.
 * Confirmations belong to one action each: a crashing course's second Enter confirms that very plan only, and
 * the rules' surrender of ships has its own dialog. Every text names ships and places in words (words.ts);
 * dice rolled against ships are shown at the ship hit and in the panel (report.ts).
 */
import { type Hex, distance, key, pixel } from "../shell/hex";
import { el, trapFocus } from "../shell/dom";
import type { View as TacticalView } from "../generated/tactical";
import type { Suggestion } from "../generated/protocol";
import type { GameScreen, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { type Board, type BoardDoc, parseBoard } from "./boardData";
import { buildHelp, type Tables } from "./help";
import {
  burnArrows, canOverload, choiceOf, COAST, type CourseNote, hasLandVariant, hexOf, keyIntent, matchOrder, noteOf, type OddsBlock,
  type OrderChoice, ordersOf, overloadArrows, pressBurn, shipsToOrder, arrowAt, type Intent, nextWeak, risksOf, warningsOf,
} from "./model";
import {
  type Drawn, drawScene, launchHitWords, shipDrawPos, sideColour, type LaunchNote, type OrdnanceView, type PlanStep, type Scene, type ShipView, type Trail,
} from "./pieces";
import { mapTag, type Outcome, outcomes, resultWords, rollWords, SOURCE_WORDS } from "./report";
import { injectStyle } from "./styles";
import { SIDE } from "./palette";
import { BoardView } from "./board";
import {
  burnWords, cap, className, DIR_ARROW, DIR_WORD, dirKey, type PlaceIndex, placeIndex, placeWords, possessive, shipLabels, shipName, velocityWords,
} from "./words";

type Act = LegalEntry["action"];

/** What the shell may additionally offer: a request/answer message on the match socket (suggest), and the
 *  "what happened" card of the shell (optional: a host without it gets the status line only). */
export interface RequestHost extends ScreenHost {
  request?(msg: { type: string; [k: string]: unknown }): Promise<Suggestion>;
  acknowledge?(title: string, lines: string[]): Promise<void>;
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


/** Screen pixels per hex radius when the view centres on a ship: the burn arrows and their keys readable. */
const FOCUS_ZOOM = 36;
const pct = (n: number): string => `${Math.round((n / 6) * 100)}%`;
const bad = (n: CourseNote): boolean => n.outcome === "crash" || (n.off_map && !n.escapes);


export class TacticalScreen implements GameScreen {
  private host!: RequestHost;
  private root!: HTMLElement;
  private board: Board | null = null;
  private places: PlaceIndex | null = null;
  private tables: Tables | null = null;
  private view: BoardView | null = null;
  private snap: Snapshot | null = null;
  private selected: string | null = null;
  private choices = new Map<string, OrderChoice>();
  /** Undo: the choices as they were before each change this astrogation (newest last). */
  private undoStack: { ship: string; prev: OrderChoice | null }[] = [];
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
  /** The plan a first Enter warned about (a crash, a ram, enemy ordnance): a second Enter sends exactly it. */
  private riskArmed: string | null = null;
  /** The Overload button (or Shift) is down: the next burn direction is the overload of the chosen burn. */
  private overloadMode = false;
  private surrenderBox: HTMLElement | null = null;
  private labels = new Map<string, string>();
  /** Every ship and item ever seen (for names after they are gone). */
  private known = new Map<string, ShipView>();
  private knownOrdnance = new Map<string, OrdnanceView>();
  /** Dice rolled against ships lately: shown at the ship hit and in the panel until the next turn of the side
   *  that rolled them... kept for the last two player-turns. */
  private rolls: (Outcome & { at: Hex | null; turn: string })[] = [];
  /** The reach shadow of the enemy ships in sight (the server's `suggest` with the plan {"kind": "reach"}), for this turn's
   *  astrogation: hex key -> the fewest burns that get some enemy ship there. */
  private reach: { turn: string; hexes: Map<string, number> } | null = null;
  private reachAsked = "";
  private showReach = true;
  private pads: number[] = [];
  private padFrame = 0;
  private shiftDown = false;
  private looseFire = false;
  private els!: {
    canvas: HTMLCanvasElement; minimap: HTMLCanvasElement; readout: HTMLElement; status: HTMLElement; ships: HTMLElement;
    detail: HTMLElement; controls: HTMLElement; extra: HTMLElement; objective: HTMLElement; actions: HTMLElement; rolls: HTMLElement;
    body: HTMLElement;
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
    const body = el("div", "tac-panel-body");
    const status = el("section", "tac-status");
    const ships = el("section", "tac-ships");
    const detail = el("section", "tac-detail");
    detail.setAttribute("aria-live", "polite");
    const rolls = el("section", "tac-rolls");
    rolls.setAttribute("aria-label", "Latest dice");
    const controls = el("section", "tac-controls");
    const extra = el("section", "tac-extra");
    body.append(status, controls, detail, rolls, ships, extra);
    // the phase's main action and Undo: always in view at the foot of the panel, whatever the panel holds
    const actions = el("div", "tac-actions");
    actions.setAttribute("role", "group");
    actions.setAttribute("aria-label", "Turn actions");
    panel.append(body, actions);
    root.append(boardBox, panel);
    this.els = { canvas, minimap, readout, status, ships, detail, controls, extra, objective, actions, rolls, body };
    const doc = await host.board();
    try {
      this.board = parseBoard(doc as never);
      this.places = placeIndex(this.board);
      this.tables = (doc as Partial<BoardDoc> | null)?.tables ?? null;
    } catch (e) {
      detail.textContent = `The board could not be read: ${(e as Error).message}`;
      return;
    }
    host.helpChanged?.(); // a help opened before the board came has no tables yet
    if (this.snap) this.ensureView();
    this.startGamepad();
  }

  unmount(): void {
    this.view?.destroy();
    cancelAnimationFrame(this.padFrame);
    this.surrenderBox?.remove();
    this.root.replaceChildren();
  }

  phase(s: Snapshot): string {
    const v = s.view as Record<string, unknown>;
    if (s.status === "over") return "Game over";
    const ph = PHASES[String(v["phase"])] ?? String(v["phase"]);
    const mine = s.seat !== null && v["active_player"] === s.seat;
    if (v["phase"] === "fleet_building") return s.to_act ? "Fleet building: buy your ships" : s.seat === null ? "Fleet building" : "Fleet building: waiting for the opponent";
    if (s.seat === null) return `Turn ${v["turn"]}: ${this.host?.seatName(Number(v["active_player"])) ?? "a player"} · ${ph}`;
    if (!mine) return `Turn ${v["turn"]}: ${possessive(this.host?.seatName(Number(v["active_player"])) ?? "the opponent")} ${ph.toLowerCase()}`;
    const what: Record<string, string> = {
      astrogation: "plot your burns", ordnance: "launch ordnance or skip", combat: "pick a target or end combat",
      logistics: "transfer fuel or cargo",
    };
    return `Turn ${v["turn"]} · ${ph}: ${what[String(v["phase"])] ?? "your move"}`;
  }

  help(): HTMLElement {
    const sc = (this.board as unknown as { scenario?: Parameters<typeof buildHelp>[1] } | null)?.scenario ?? null;
    return buildHelp(this.tables, sc, (i) => this.seatName(i));
  }

  /**
   * The first-game guide (the shell's guide frame runs it: offered on this title's first match in this browser,
   * skippable, replayable from the help): selecting a ship, a burn and its preview, fuel, gravity, confirming the
   * turn (interactive: it waits until you did), ordnance, combat and the dice, the enemy's reach, the help.
   */
  guide(): { title: string; text: string; anchor?: string; until?: (s: Snapshot) => boolean }[] {
    const start = this.snap;
    const seat = start?.seat ?? null;
    const startTurn = `${(start?.view as Record<string, unknown> | undefined)?.["turn"]}:${(start?.view as Record<string, unknown> | undefined)?.["active_player"]}`;
    const moved = (s: Snapshot): boolean => {
      const v = s.view as Record<string, unknown>;
      return s.status === "over" || `${v["turn"]}:${v["active_player"]}` !== startTurn || v["phase"] !== "astrogation" || Object.keys((v["orders"] ?? {}) as object).length > 0;
    };
    return [
      { title: "Your ships", text: "Your ships are cyan, the enemy's orange. The selected ship has a white ring. Click or tap a ship to select it (or press Tab); the panel lists your ships too.", anchor: ".tac-canvas" },
      { title: "Burn", text: "Around the dashed hex where the ship drifts if it does nothing, six arrows: click or tap one (or press 1-6) to burn that way. The pad in the panel points the same way. The white line is the new course, drawn as v + burn = v′.", anchor: ".tac-burnpad" },
      { title: "Fuel", text: "Each burn costs 1 fuel: the preview shows fuel before → after. A warship may overload (Overload, or Shift+1-6) for a second burn, 2 fuel, once between resupplies. Out of fuel a ship only drifts.", anchor: ".tac-detail" },
      { title: "Gravity", text: "Entering a gravity hex (the arrows around planets) pulls the ship one hex toward the body on its next move: the violet arrows of the preview. Orbit is a speed-1 course around a planet; land from orbit with one burn (G).", anchor: ".tac-canvas" },
      { title: "Confirm your turn", text: "When every ship has its burn, press Enter or Confirm turn. A course that crashes, rams or meets ordnance is warned: a second Enter confirms it. Z or Undo takes a burn back before you confirm. Do it now to go on.", anchor: ".tac-actions", ...(seat === null ? {} : { until: moved }) },
      { title: "Ordnance", text: "After astrogation, a ship may launch one item a turn: N mine, T torpedo (1-6 boosts it), K nuke. The board shows where it goes and what it would hit before Enter launches it.", anchor: ".tac-panel" },
      { title: "Combat", text: "After moving, pick an enemy in sight ([ ], or click it): the panel gives the odds and the counterattack; Enter attacks. Every die rolled shows on the map at the ship hit, and in the panel.", anchor: ".tac-panel" },
      { title: "The enemy's reach", text: "The orange hexes are where each enemy ship you see could be after its next move (R hides them). Red hexes near enemy bases are in range of their guns.", anchor: ".tac-canvas" },
      { title: "Help", text: "? opens the help: every control, the map symbols, the combat tables and the ships. This guide can be replayed from there.", anchor: "button[aria-label='Help and controls']" },
    ];
  }

  /** The seats' colours as this screen draws them: yours cyan, the others orange (a spectator: seat 1 cyan). */
  seatColour(seat: number, viewer: number | null = this.snap?.seat ?? null): string {
    return seat === (viewer ?? 0) ? SIDE.own : SIDE.enemy;
  }

  /** What the board draws now (the browser tests read the previews from it). */
  sceneForTests(): Scene | null {
    return this.board ? this.scene() : null;
  }

  /** What the last frame drew, in world units (the browser tests check collisions). */
  drawnForTests(): Drawn[] {
    return this.drawn;
  }

  private drawn: Drawn[] = [];

  /** Whether a plan of several entries is still being sent (the browser tests wait for it). */
  sending(): boolean {
    return this.queue.length > 0 || this.inFlight !== null;
  }

  /** The snapshot on screen (the browser tests read it). */
  snapshot(): Snapshot | null {
    return this.snap;
  }

  // --- snapshots -----------------------------------------------------------------------------------------
  update(s: Snapshot, newEvents: LogEntry[]): void {
    const prev = this.snap;
    this.snap = s;
    for (const sh of this.ships()) this.known.set(sh.id, sh);
    for (const o of this.v().ordnance ?? []) this.knownOrdnance.set(o.id, o);
    // the engine's labels of the scenario ships (the log uses the same); ships built in play by the same rule
    this.labels = new Map([...shipLabels([...this.known.values()]), ...Object.entries(this.board?.scenario.ship_labels ?? {})]);
    this.learnTrails(newEvents, prev !== null);
    this.ensureView();
    const v = this.v();
    const turnKey = `${v["turn"]}:${v["active_player"]}:${v["phase"] === "astrogation" ? "a" : "b"}`;
    const myTurnStarted = turnKey !== this.lastTurnKey && v["active_player"] === s.seat && v["phase"] === "astrogation";
    if (turnKey !== this.lastTurnKey) {
      this.lastTurnKey = turnKey;
      this.choices.clear();
      this.undoStack = [];
      this.plan = null;
      this.target = null;
      this.launch = null;
      this.overloadMode = false;
    }
    if (!prev || prev.step !== s.step) this.riskArmed = null;
    if (s.status === "over" || !s.to_act) this.closeSurrender();
    const rolled = this.learnRolls(newEvents, prev !== null);
    // the status line never keeps the last decision's prompt: the result, or who is to move now
    if (prev && s.status === "over" && prev.status !== "over") this.host.say(this.resultWords(), "info");
    else if (prev?.to_act && !s.to_act && s.status === "playing" && s.seat !== null && !rolled) {
      const others = s.deciding.filter((d) => !d.submitted && d.seat !== s.seat).map((d) => this.seatName(d.seat));
      this.host.say(others.length ? `Sent. Waiting for ${others.join(" and ")}…` : "Sent.", "info");
    }
    // a new phase of mine: the status line says what to do (and no longer what the last phase's key did)
    const phaseKey = `${v["turn"]}:${v["active_player"]}:${v["phase"]}`;
    if (phaseKey !== this.lastPhaseKey) {
      this.lastPhaseKey = phaseKey;
      if (s.to_act && s.status === "playing") {
        const tips: Record<string, string> = {
          astrogation: "Astrogation: 1-6 burn, Shift+1-6 or Overload for a second burn, 0 clear, Z undo, Tab next ship, Enter confirm.",
          ordnance: this.launchKinds().length ? "Ordnance: N mine, T torpedo (1-6 boost), K nuke; Enter launches, or skips." : "Ordnance: nothing can be launched now; Enter ends the phase.",
          combat: "Combat: [ ] or click a target, { } attackers; Enter attacks, or ends combat.",
          logistics: "Logistics: pick a transfer below, or Done (Enter).",
          fleet_building: "Fleet building: buy ships within the budget, then Fleet ready (Enter).",
        };
        // combat: the view frames your ships that may fire and their targets
        if (v["phase"] === "combat") requestAnimationFrame(() => this.frameShips([...this.attackerShips(), ...this.targets()]));
        const tip = tips[String(v["phase"])];
        // the dice just rolled stay in the status line when they came with this phase (the attack's result)
        const fresh = this.rolls.filter((r) => r.step > (prev?.step ?? Infinity));
        if (tip && !fresh.length) this.host.say(tip, "info");
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
    else if (s.seat === null && this.shipsOutOfView()) this.frameShips();
    if (this.target && !this.targets().includes(this.target)) this.target = null;
    // the bodies' names keep clear of the ships (the static layer is drawn again when they move)
    if (this.view) this.view.renderer.labelAvoid = this.ships().filter((x) => !x.destroyed).map((x) => [x.position[0], x.position[1]] as Hex);
    this.narrate(newEvents);
    this.askReach(turnKey);
    this.render();
    this.pump();
  }

  /** Ask the server once per astrogation of yours where the enemy ships in sight could be after their next move. */
  private askReach(turnKey: string): void {
    const s = this.snap;
    if (!s || !s.to_act || s.seat === null || this.phaseName() !== "astrogation" || !this.host.request) return;
    if (this.reachAsked === turnKey) return;
    if (!this.ships().some((x) => x.owner !== s.seat && !x.destroyed)) return;
    this.reachAsked = turnKey;
    this.host.request({ type: "suggest", plan: { kind: "reach" } }).then(
      (msg) => {
        const advice = msg.plan as { ships?: { hexes: { hex: string; burns: number }[] }[] } | undefined;
        const hexes = new Map<string, number>();
        for (const sh of advice?.ships ?? []) {
          for (const h of sh.hexes) hexes.set(h.hex, Math.min(hexes.get(h.hex) ?? 9, h.burns));
        }
        this.reach = { turn: turnKey, hexes };
        this.view?.invalidate();
      },
      () => undefined, // the shadow is an aid: without it the preview is still complete
    );
  }

  /** The view (generated type: web/src/generated/tactical.ts); before the first snapshot, an empty one. */
  private v(): Partial<TacticalView> {
    return (this.snap?.view ?? {}) as Partial<TacticalView>;
  }

  private ownShips(): ShipView[] {
    const seat = this.snap?.seat;
    return this.ships().filter((s) => s.owner === seat && !s.destroyed);
  }

  private ships(): ShipView[] {
    return this.v().ships ?? [];
  }

  private ordnanceList(): OrdnanceView[] {
    return this.v().ordnance ?? [];
  }

  private legal(): LegalEntry[] {
    return this.snap?.to_act ? this.snap.legal : [];
  }

  private phaseName(): string {
    return this.v().phase ?? "";
  }

  private actableShips(): string[] {
    const legal = this.legal();
    const ph = this.phaseName();
    if (ph === "astrogation") return shipsToOrder(legal);
    if (ph === "ordnance") return [...new Set(legal.filter((e) => e.action.type === "launch" || e.action.type === "emplace_base").map((e) => String(e.action["ship"])))];
    if (ph === "combat") return this.attackerShips();
    return [];
  }

  // --- words ---------------------------------------------------------------------------------------------------
  /** A ship or an item of ordnance by id, in words ("your frigate", "the enemy corvette B", "Ann's frigate",
   *  "a torpedo from your frigate"). */
  name(id: string): string {
    const sh = this.known.get(id) ?? this.ships().find((s) => s.id === id);
    if (sh) return shipName(sh, this.labels, this.snap?.seat ?? null, (p) => this.seatName(p));
    const o = this.knownOrdnance.get(id);
    if (o) {
      const from = o.launched_by ? this.known.get(o.launched_by) : undefined;
      const whose = o.owner === this.snap?.seat ? "your" : this.snap?.seat === null ? possessive(this.seatName(o.owner)) : "an enemy";
      return from ? `a ${o.kind} from ${this.name(from.id)}` : `${whose} ${o.kind}`;
    }
    return "a ship out of sight";
  }

  private seatName(p: number): string {
    return this.host?.seatName(p) ?? `Player ${p + 1}`;
  }

  private place(h: string | Hex | null | undefined): string {
    if (h === null || h === undefined || !this.places) return "";
    try {
      return placeWords(typeof h === "string" ? h : h, this.places);
    } catch {
      return "";
    }
  }

  private names(ids: readonly string[]): string {
    const n = ids.map((i) => this.name(i));
    return n.length <= 1 ? (n[0] ?? "") : `${n.slice(0, -1).join(", ")} and ${n[n.length - 1]}`;
  }

  // --- events ------------------------------------------------------------------------------------------------
  private learnTrails(events: LogEntry[], live: boolean): void {
    const now = performance.now();
    for (const e of events) {
      const ev = e.event;
      if (ev.type === "ship_moved" || ev.type === "ordnance_moved") {
        const id = String(ev.type === "ship_moved" ? ev["ship"] : ev["ordnance"]);
        const path = ((ev["path"] as string[]) ?? []).map((h) => hexOf(h));
        // a move seen live (not the history of a page just opened) glides, unless motion is reduced
        if (live && ev.type === "ship_moved" && path.length > 1 && !reducedMotion()) this.glides.set(id, { path, t0: now });
        const owner = ev.type === "ship_moved" ? this.known.get(id)?.owner : this.knownOrdnance.get(id)?.owner;
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

  /** Keep the dice of the new events (with where the ship was hit) for the map and the panel; say the newest. */
  /** Keep the dice of the new events; true when the status line now says them. */
  private learnRolls(events: LogEntry[], live: boolean): boolean {
    const v = this.v();
    const turn = `${v["turn"]}:${v["active_player"]}`;
    const fresh = outcomes(events).map((o) => {
      const sh = this.known.get(o.target);
      const item = this.knownOrdnance.get(o.target);
      const destroyedAt = events.find((e) => e.event.type === "ship_destroyed" && e.event["ship"] === o.target)?.event["hex"];
      const at: Hex | null = destroyedAt ? hexOf(String(destroyedAt)) : sh ? [sh.position[0], sh.position[1]] : item ? [item.position[0], item.position[1]] : null;
      return { ...o, at, turn };
    });
    // kept for this player-turn and the one before (the opponent's attacks stay visible through your turn)
    const keep = new Set([turn, this.previousTurn(turn)]);
    this.rolls = [...this.rolls.filter((r) => keep.has(r.turn)), ...fresh].slice(-12);
    if (!live || !fresh.length) return false;
    const lines = fresh.map((o) => this.rollSentence(o));
    this.host.say(lines.join(" "), fresh.some((o) => o.result !== "-" && this.known.get(o.target)?.owner === this.snap?.seat) ? "warn" : "info");
    // dice rolled against your ships while you were not deciding (the opponent's attacks, its ordnance, its
    // planetary defense, rams, asteroids): the shell's "what happened" card before your next decision
    const s = this.snap;
    if (!s || s.seat === null) return true;
    const ownedBy = (id: string): number | undefined => this.known.get(id)?.owner ?? this.knownOrdnance.get(id)?.owner;
    // your own attack's counterattack is the answer to your decision; every other die against your ships came by
    // itself (the enemy's attacks, ordnance, rams, asteroids, planetary defense)
    // (with the other dice of the same moment: a ram rolls for both ships)
    if (fresh.some((o) => ownedBy(o.target) === s.seat && o.source !== "counter")) this.unseen.push(...fresh);
    if (s.to_act && this.unseen.length && this.host.acknowledge && s.status === "playing") {
      const lines = this.unseen.map((o) => this.rollSentence(o));
      this.unseen = [];
      void this.host.acknowledge("While you waited", lines);
    }
    return true;
  }

  /** The result in words: "Victory: Landed on Venus!", "Defeat: Fleet eliminated!", "Ann won: ...", "Draw". */
  private resultWords(): string {
    const r = this.snap?.result;
    const seat = this.snap?.seat ?? null;
    // a match ended outside the rules (Session.end): a resignation or a forfeit, told in words
    if (r && (r.reason === "resign" || r.reason === "forfeit")) {
      const losers = ((r["seats"] as number[] | undefined) ?? []);
      const verb = r.reason === "resign" ? "resigned" : "forfeited";
      if (seat !== null && losers.includes(seat)) return `Defeat: you ${verb}`;
      const who = losers.map((p) => this.seatName(p)).join(" and ") || "The opponent";
      return seat === null ? `${who} ${verb}: ${r.winners.map((w) => this.seatName(w)).join(", ")} won` : `Victory: ${who} ${verb}`;
    }
    const head = !r ? "Game over" : !r.winners.length ? "Draw" : seat === null ? `${r.winners.map((w) => this.seatName(w)).join(", ")} won` : r.winners.includes(seat) ? "Victory" : "Defeat";
    const reason = r?.reason && !/^draw\.?$/i.test(r.reason) ? `: ${r.reason.replace(/: draw\.?$/i, "")}` : "";
    return head + reason;
  }

  /** Dice rolled against your ships by themselves that you have not been shown in a card yet. */
  private unseen: Outcome[] = [];

  private previousTurn(turn: string): string {
    const [t, p] = turn.split(":").map(Number) as [number, number];
    const first = this.v().first_player ?? 0;
    // the player-turn before (t, p): the other player, same turn unless p is the first player
    return p === first ? `${t - 1}:${1 - p}` : `${t}:${1 - p}`;
  }

  /** One die in a sentence: "Your frigate's gun attack on the enemy frigate at 2:1: rolled 5 −1 = 4: disabled 2 turns." */
  rollSentence(o: Outcome): string {
    const what = SOURCE_WORDS[o.source] ?? o.source.replace(/_/g, " ");
    const by = o.by.length ? `${cap(this.names(o.by))}: ${what} on ${this.name(o.target)}` : `${cap(what)} against ${this.name(o.target)}`;
    return `${by}${o.odds ? ` at ${o.odds}` : ""}, ${rollWords(o)}: ${resultWords(o)}.`;
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
    view.overlay = (ctx, z) => {
      this.drawn = drawScene(ctx, this.scene(), z);
    };
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

  /** The hover readout: the place in words, then every ship and item of ordnance there. */
  private describe(h: Hex): string {
    const base = this.view?.describe(h) ?? "";
    const place = this.place(h);
    const here = this.ships().filter((s) => !s.destroyed && s.position[0] === h[0] && s.position[1] === h[1]);
    const ships = here.map((s) => `${cap(this.name(s.id))}, ${s.landed ? "landed" : velocityWords(s.velocity)}${s.fuel !== null && s.owner === this.snap?.seat ? `, fuel ${s.fuel}` : ""}${s.disabled ? `, disabled ${s.disabled} turn${s.disabled > 1 ? "s" : ""}` : ""}`);
    const items = this.ordnanceList().filter((o) => o.position[0] === h[0] && o.position[1] === h[1])
      .map((o) => `${cap(this.name(o.id))}, ${velocityWords(o.velocity)}`);
    return [base || cap(place), ...ships, ...items].filter(Boolean).join(" · ");
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
    let overloadPick = false;
    if (ph === "astrogation" && sel && ordersOf(legal, sel).length) {
      const c = this.choices.get(sel) ?? COAST;
      overloadPick = this.overloadMode && c.burn !== null;
      arrows = overloadPick ? overloadArrows(legal, sel, c.burn!) : burnArrows(legal, sel);
      chosenDir = c.burn;
      overloadDir = c.overload;
      const entry = matchOrder(legal, sel, c);
      preview = noteOf(entry, "order") ?? null;
    }
    const launch = ph === "ordnance" ? (noteOf(this.launchEntry(), "launch") ?? null) : null;
    const rules = (v["rules"] ?? {}) as Record<string, unknown>;
    const attack = this.attackPreview();
    const now = performance.now();
    return {
      board: this.board!,
      seat: this.snap?.seat ?? null,
      ships: this.glidingShips(),
      ordnance: this.ordnanceList(),
      trails: this.trails,
      destroyedBases: new Set(((v["destroyed_bases"] as unknown[]) ?? []).map((h) => (typeof h === "string" ? h : key(hexOf(h as number[]))))),
      selected: sel,
      arrows,
      chosenDir,
      overloadDir,
      overloadPick,
      preview,
      launch,
      plan: this.planFor === sel ? this.plan : null,
      target: ph === "combat" ? this.target : null,
      attackers: attack?.ships ?? [],
      sensorRange: this.tables?.detection.ship_range ?? 3,
      planetaryDefense: Boolean(rules["planetary_defense"] ?? true),
      reducedMotion: reducedMotion(),
      time: now,
      labels: this.labels,
      reach: ph === "astrogation" && this.showReach && this.reach?.turn === this.lastTurnKey ? this.reach.hexes : null,
      tags: this.rolls.filter((r) => r.at).map((r) => ({ at: r.at!, text: mapTag(r), bad: r.result !== "-" || r.destroyed, age: 0 })),
      name: (id) => this.name(id),
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
    const me = (v.players ?? [])[seat];
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
    if (this.surrenderBox) return this.surrenderKey(e);
    const intent = keyIntent(e, this.phaseName());
    if (!intent) return false;
    // Tab cycles ships where ships take orders; elsewhere (fleet building, logistics, the opponent's turn, the
    // end) it moves the focus through the panel's buttons, as on any page
    if (e.key === "Tab" && !(this.snap?.to_act && ["astrogation", "ordnance", "combat"].includes(this.phaseName()))) return false;
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
        say(`Nearest enemy: ${this.name(near.id)}, ${this.place(near.position)}, ${velocityWords(near.velocity)}.`, "info");
        this.render();
        return;
      }
      case "next-ship": return this.cycleShip(intent.back ? -1 : 1);
      case "hint": void this.askHint(); return;
      case "assist": void this.askPlan(); return;
      case "apply-plan": return this.applyPlan();
      case "reach":
        this.showReach = !this.showReach;
        say(this.showReach ? "Enemy reach shown: the orange hexes are where each enemy ship in sight could be after its next move." : "Enemy reach hidden (R shows it).", "info");
        this.view?.invalidate();
        return;
      case "cancel":
        if (this.overloadMode) this.overloadMode = false;
        else if (ph === "combat" && this.target) this.target = null;
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
    if (intent.kind === "undo") return this.undo();
    if (ph === "astrogation") return this.astrogation(intent);
    if (ph === "ordnance") return this.ordnanceKey(intent);
    if (ph === "combat") return this.combatKey(intent);
    if (intent.kind === "confirm") {
      const end = this.legal().find((e) => e.action.type === "end_logistics" || e.action.type === "fleet_ready");
      if (end) return this.send([end.action]);
    }
    say(`That key does nothing in the ${PHASES[ph]?.toLowerCase() ?? ph} phase.`);
  }

  /** Change a ship's choice, remembering the one before for Undo. */
  private setChoice(ship: string, next: OrderChoice): void {
    const prev = this.choices.get(ship) ?? null;
    if (prev && canon(prev) === canon(next)) return;
    this.undoStack.push({ ship, prev });
    this.choices.set(ship, next);
    this.riskArmed = null;
  }

  private undo(): void {
    if (this.phaseName() !== "astrogation") return this.host.say("Undo takes back a burn before you confirm the turn (astrogation).", "info");
    const last = this.undoStack.pop();
    if (!last) return this.host.say("Nothing to undo: no burn was changed this turn.", "info");
    if (last.prev) this.choices.set(last.ship, last.prev);
    else this.choices.delete(last.ship);
    this.selected = last.ship;
    this.overloadMode = false;
    this.riskArmed = null;
    const c = this.choices.get(last.ship) ?? COAST;
    this.host.say(`Undone: ${cap(this.name(last.ship))} is back to ${burnWords(c.burn, c.overload)}.`, "info");
    this.render();
  }

  private astrogation(intent: Intent): void {
    const legal = this.legal();
    const ship = this.selected;
    if (intent.kind === "confirm") return this.confirmAstrogation();
    if (!ship || !ordersOf(legal, ship).length) {
      this.host.say(ship ? `${cap(this.name(ship))} already has its order this turn (or cannot act): Tab to another ship or Enter to end.` : "Select one of your ships first (click it or press Tab).", "warn");
      return;
    }
    const cur = this.choices.get(ship) ?? COAST;
    let next: OrderChoice | null = null;
    if (intent.kind === "overload-mode") {
      if (!canOverload(legal, ship, null)) {
        this.host.say(`${cap(this.name(ship))} cannot overload now (warships only, with 2 fuel, once between resupplies).`, "warn");
        return;
      }
      if (cur.burn === null) {
        this.host.say("Pick the first burn, then Overload and a second direction.", "info");
        return;
      }
      this.overloadMode = !this.overloadMode;
      this.host.say(this.overloadMode ? "Overload: pick the second burn's direction (the arrows now start from the first burn's hex)." : "Overload cancelled.", "info");
      this.render();
      return;
    }
    if (intent.kind === "burn") {
      const overload = intent.overload || (this.overloadMode && cur.burn !== null);
      next = pressBurn(cur, intent.dir, overload);
      if (!matchOrder(legal, ship, next)) {
        const sh = this.ships().find((s) => s.id === ship);
        let why = `A burn ${DIR_WORD[intent.dir]} is not possible for ${this.name(ship)}`;
        if (overload) why = cur.burn === null ? "Pick a burn first, then Shift+1-6 (or Overload) for the second" : `${cap(this.name(ship))} cannot overload ${DIR_WORD[intent.dir]} now (warships only, 2 fuel, once between resupplies)`;
        else if (sh && sh.fuel === 0) why += ": no fuel left (it can only drift)";
        else if (sh && sh.disabled > 0) why += `: it is disabled for ${sh.disabled} more turn(s)`;
        else if (sh && sh.control === "captured") why += ": a captured ship only coasts";
        this.host.say(why + ".", "warn");
        this.host.sound("error");
        return;
      }
      this.overloadMode = false;
    } else if (intent.kind === "clear") {
      next = { ...COAST };
      this.overloadMode = false;
    } else if (intent.kind === "land") {
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
      this.host.say("In astrogation: 1-6 burn, Shift+1-6 overload, 0 clear, Z undo, Tab next ship, Enter confirm.", "info");
      return;
    }
    this.setChoice(ship, next);
    this.host.sound("select");
    const n = noteOf(matchOrder(legal, ship, next), "order");
    if (n) this.host.say(this.courseWords(ship, next, n), bad(n) || risksOf(n).length ? "warn" : "info");
    this.render();
  }

  private confirmAstrogation(): void {
    const legal = this.legal();
    const acts: Act[] = [];
    const risks: string[] = [];
    for (const ship of shipsToOrder(legal)) {
      const c = this.choices.get(ship) ?? COAST;
      const e = matchOrder(legal, ship, c);
      if (!e) continue;
      if (this.choices.has(ship)) acts.push(e.action);
      const n = noteOf(e, "order");
      if (!n) continue;
      if (n.outcome === "crash") risks.push(`${cap(this.name(ship))} crashes into ${n.body ?? "a body"}`);
      else if (n.off_map && !n.escapes) risks.push(`${cap(this.name(ship))} leaves the map and is lost`);
      for (const w of risksOf(n)) risks.push(`${cap(this.name(ship))}: ${w.text}`);
    }
    const end = legal.find((e) => e.action.type === "end_astrogation");
    if (!end) return this.host.say("The turn cannot be ended now.", "warn");
    acts.push(end.action);
    // the second Enter confirms exactly the plan the first one warned about; any change re-arms the warning
    const plan = canon(acts);
    if (risks.length && this.riskArmed !== plan) {
      this.riskArmed = plan;
      this.host.say(`Warning: ${risks.join("; ")}. Press Enter again (or Confirm anyway) to go ahead.`, "warn");
      this.host.sound("error");
      this.render();
      return;
    }
    this.riskArmed = null;
    this.overloadMode = false;
    this.host.sound("confirm");
    this.send(acts);
  }

  /** The ordnance kinds some ship may launch now. */
  private launchKinds(): string[] {
    return [...new Set(this.legal().filter((e) => e.action.type === "launch").map((e) => String(e.action["kind"])))];
  }

  private ordnanceKey(intent: Intent): void {
    const legal = this.legal();
    const launches = legal.filter((e) => e.action.type === "launch");
    if (intent.kind === "launch") {
      const ships = [this.selected, ...this.actableShips()].filter(Boolean) as string[];
      const ship = ships.find((s) => launches.some((e) => e.action["ship"] === s && e.action["kind"] === intent.ordnance));
      if (!ship) {
        this.host.say(this.noLaunchWhy(intent.ordnance), "warn");
        this.host.sound("error");
        return;
      }
      this.selected = ship;
      this.launch = { ship, kind: intent.ordnance, dir: null, boost: 0 };
      this.host.say(`A ${intent.ordnance} from ${this.name(ship)}${intent.ordnance === "torpedo" ? ": 1-6 to boost it, Enter to launch" : ": Enter to launch"}.`, "info");
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

  /** Why no ship may launch this kind now, in the rules' words: the engine's reasons (the `end_ordnance` note's
   *  `unavailable`), one item per ship per turn first. */
  private noLaunchWhy(kind: string): string {
    const end = this.legal().find((e) => e.action.type === "end_ordnance");
    const un = (noteOf(end, "end_ordnance")?.unavailable ?? [])
      .filter((u) => u.kind === kind);
    const launched = this.v().launched ?? [];
    const once = un.filter((u) => u.rule.endsWith("one_per_ship")).map((u) => u.ship);
    const done = once.length ? once : launched.filter((id) => this.ownShips().some((s) => s.id === id));
    const sel = this.selected;
    // a ship refused only because it launched already: that is the reason to give (the others' would mislead)
    if (done.length && (once.length || sel === null || done.includes(sel) || un.every((u) => done.includes(u.ship)))) {
      const who = sel && done.includes(sel) ? this.name(sel) : this.names(done);
      return `Each ship launches one item per turn: ${who} already launched this turn${this.launchKinds().length ? "" : "; Enter ends the ordnance phase"}.`;
    }
    if (un.length) {
      const first = un.find((u) => u.ship === sel) ?? un[0]!;
      const others = un.filter((u) => u !== first).map((u) => `${this.name(u.ship)}: ${u.reason}`);
      return `No ship can launch a ${kind} now. ${cap(this.name(first.ship))}: ${first.reason}${others.length ? `; ${others.join("; ")}` : ""}.`;
    }
    return `No ship can launch a ${kind} now (${kind === "torpedo" ? "warships only, " : ""}it needs free cargo mass for the ${kind}, and the scenario must allow it${kind === "mine" ? "; a mine needs a burn that leaves the hex" : ""}).`;
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
      if (e.action.type === "add_attacker") for (const t of (noteOf(e, "add_attacker")?.targets ?? [])) out.add(t);
    }
    return [...out];
  }

  private attackPreview(): (OddsBlock & { ships: string[] }) | null {
    const t = this.target;
    if (!t || this.phaseName() !== "combat") return null;
    const legal = this.legal();
    const fire = legal.find((e) => e.action.type === "fire" && e.action["target"] === t && e.action["strength"] === null);
    const group = this.v().combat?.group ?? [];
    if (fire?.note && this.attackerMode === "all" && !this.allIn(t)) return { ...noteOf(fire, "fire")!, ships: group };
    if (this.attackerMode !== "all") {
      const add = legal.find((e) => e.action.type === "add_attacker" && e.action["ship"] === this.attackerMode);
      const odds = noteOf(add, "add_attacker")?.attacks[t];
      if (odds) return { ...odds, ships: [...group, this.attackerMode] };
    }
    const all = this.allIn(t);
    if (all) return all;
    return fire?.note ? { ...noteOf(fire, "fire")!, ships: group } : null;
  }

  private allIn(t: string): (OddsBlock & { ships: string[] }) | null {
    const end = this.legal().find((e) => e.action.type === "end_combat");
    return noteOf(end, "end_combat")?.attacks[t] ?? null;
  }

  private pickTarget(id: string, viaKey: boolean): void {
    this.target = id;
    this.attackerMode = "all";
    const t = this.ships().find((s) => s.id === id) ?? this.ordnanceList().find((o) => o.id === id);
    if (t && viaKey) this.view?.centreOn(t.position as unknown as Hex);
    const p = this.attackPreview();
    this.host.say(`Target: ${this.name(id)}${p ? `. ${cap(this.oddsWords(p))}` : ""}. Enter (or Attack) to fire, Esc to clear.`, "info");
  }

  private combatKey(intent: Intent): void {
    const targets = this.targets();
    if (intent.kind === "target") {
      if (!targets.length) return this.host.say("No enemy is in sight of a ship that may fire: Enter ends combat.", "warn");
      const i = this.target ? targets.indexOf(this.target) : -1;
      this.pickTarget(targets[(i + intent.step + targets.length) % targets.length]!, true);
    } else if (intent.kind === "attacker") {
      if (!this.target) return this.host.say("Pick a target first with [ or ].", "warn");
      const able = this.attackerShips().filter((s) => {
        const e = this.legal().find((x) => x.action.type === "add_attacker" && x.action["ship"] === s);
        return (noteOf(e, "add_attacker")?.targets ?? []).includes(this.target!);
      });
      const modes = ["all", ...able];
      const i = modes.indexOf(this.attackerMode);
      this.attackerMode = modes[(i + intent.step + modes.length) % modes.length]!;
      const p = this.attackPreview();
      this.host.say(`${this.attackerMode === "all" ? "Every ship that sees it fires" : `${cap(this.name(this.attackerMode))} fires alone`}${p ? `: ${this.oddsWords(p)}` : ""}.`, "info");
    } else if (intent.kind === "confirm") {
      const legal = this.legal();
      if (!this.target) {
        const end = legal.find((e) => e.action.type === "end_combat");
        if (end) {
          this.host.say("Combat ended.", "info");
          return this.send([end.action]);
        }
        return;
      }
      const t = this.target;
      const group = this.v().combat?.group ?? [];
      const p = this.attackPreview();
      const ships = (p?.ships ?? []).filter((s) => !group.includes(s));
      const acts: Act[] = [];
      for (const s of ships) {
        const e = legal.find((x) => x.action.type === "add_attacker" && x.action["ship"] === s);
        if (e) acts.push(e.action);
      }
      acts.push({ type: "fire", target: t, strength: null });
      this.host.sound("fire");
      this.host.say(`Firing at ${this.name(t)}…`, "info");
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
    this.select(list[(i + step + list.length) % list.length]!, true);
  }

  private select(id: string, centre: boolean): void {
    this.selected = id;
    this.overloadMode = false;
    const s = this.ships().find((x) => x.id === id);
    if (s && centre && this.view) this.view.centreOn(s.position, Math.max(this.view.camera.zoom, this.focusZoom(s)));
    this.host.say(`Selected ${this.name(id)}${s ? ` (${s.landed ? "landed" : velocityWords(s.velocity)}, fuel ${s.fuel ?? "unlimited"})` : ""}.`, "info");
    this.host.sound("select");
    this.render();
  }

  /** The own ship drawn under a point (world units), if any: a ship wins a click over a burn arrow. */
  private shipAtPoint(world: [number, number]): ShipView | null {
    const ships = this.ships().filter((s) => !s.destroyed);
    let best: ShipView | null = null;
    let bestD = Infinity;
    for (const s of ships) {
      if (s.owner !== this.snap?.seat) continue;
      const p = shipDrawPos(s, ships);
      const d = Math.hypot(p.x - world[0], p.y - world[1]);
      const reach = p.shared > 1 ? 0.3 : 0.42;
      if (d < reach && d < bestD) {
        best = s;
        bestD = d;
      }
    }
    return best;
  }

  private click(world: [number, number], h: Hex): void {
    const ph = this.phaseName();
    const legal = this.legal();
    // a ship of yours under the pointer is selected, even where a burn arrow points at its hex
    const ownHit = this.shipAtPoint(world);
    if (ownHit && ownHit.id !== this.selected && !(ph === "combat" && this.snap?.to_act && this.target)) {
      this.select(ownHit.id, false);
      return;
    }
    if (ph === "astrogation" && this.selected && ordersOf(legal, this.selected).length) {
      const c = this.choices.get(this.selected) ?? COAST;
      const pick = this.overloadMode && c.burn !== null;
      const a = pick ? overloadArrows(legal, this.selected, c.burn!) : burnArrows(legal, this.selected);
      const d = arrowAt(a.arrows, world, (x) => pixel(x), 0.9, a.drift);
      if (d !== null) {
        const overload = pick || (c.burn !== null && c.burn !== d && this.shiftDown);
        return this.astrogation({ kind: "burn", dir: d, overload });
      }
      const near = a.arrows.find((x) => !x.legal && x.at[0] === h[0] && x.at[1] === h[1]);
      if (near) {
        this.host.say(`No ${pick ? "overload" : "burn"} ${DIR_WORD[near.dir]} is possible for ${this.name(this.selected)}.`, "warn");
        return;
      }
    }
    const here = this.ships().filter((s) => !s.destroyed && s.position[0] === h[0] && s.position[1] === h[1]);
    const own = here.find((s) => s.owner === this.snap?.seat);
    const enemy = here.find((s) => s.owner !== this.snap?.seat);
    if (enemy && ph === "combat" && this.snap?.to_act) {
      if (!this.targets().includes(enemy.id)) {
        this.host.say(`${cap(this.name(enemy.id))} cannot be attacked now (landed, hidden, already attacked, or a body blocks the line of sight).`, "warn");
        return;
      }
      this.pickTarget(enemy.id, false);
      this.render();
      return;
    }
    if (own) {
      const ids = here.filter((s) => s.owner === this.snap?.seat).map((s) => s.id);
      const i = this.selected ? ids.indexOf(this.selected) : -1;
      this.select(ids[(i + 1) % ids.length]!, false);
      return;
    }
    if (enemy) {
      this.host.say(`${cap(this.name(enemy.id))}, ${this.place(enemy.position)}, ${velocityWords(enemy.velocity)}.`, "info");
      return;
    }
    this.hover = h;
  }

  // --- sending ---------------------------------------------------------------------------------------------
  /** Submit `acts` one by one, each matched against the legal list of the snapshot current when it is sent. */
  private send(acts: Act[], loose = false): void {
    this.queue = [...acts];
    this.looseFire = loose;
    this.pump();
  }

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
    if (a.type === "order") return `The order for ${this.name(String(a["ship"]))}`;
    if (a.type === "fire") return `The attack on ${this.name(String(a["target"]))}`;
    if (a.type === "add_attacker") return `Adding ${this.name(String(a["ship"]))} to the attack`;
    return cap(a.type.replace(/_/g, " "));
  }

  // --- the rules' surrender of ships ---------------------------------------------------------------------------
  /** The rules' surrender: its own dialog, its own buttons; nothing else arms it and it arms nothing else. */
  private openSurrender(): void {
    const sur = this.legal().find((x) => x.action.type === "surrender");
    if (!sur || this.surrenderBox) return;
    this.riskArmed = null;
    const back = el("div", "tac-modal-back");
    const box = el("div", "tac-modal");
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-labelledby", "tac-surrender-title");
    box.setAttribute("aria-describedby", "tac-surrender-text");
    const h = el("h2", undefined, "Surrender your ships?");
    h.id = "tac-surrender-title";
    const mine = this.ownShips().filter((s) => s.control === "own");
    const ends = this.v().options?.["surrender_ends_game"] !== false;
    const p = el("p", undefined, `The rules' surrender: ${this.names(mine.map((s) => s.id)) || "your ships"} ${mine.length > 1 ? "strike their colours" : "strikes its colours"}` +
      (ends ? ", and the game ends: the other side wins. " : ". Surrendered ships cannot attack, and the enemy may take their fuel and cargo; the game goes on. ") +
      "This cannot be taken back. (Resign leaves the match instead.)");
    p.id = "tac-surrender-text";
    const row = el("div", "tac-row");
    const keep = this.button("Keep fighting", () => this.closeSurrender(), "primary");
    const yes = this.button("Surrender my ships", () => {
      this.closeSurrender();
      const still = this.legal().find((x) => x.action.type === "surrender");
      if (still) this.send([still.action]);
    }, "danger");
    row.append(keep, yes);
    box.append(h, p, row);
    back.append(box);
    back.addEventListener("click", (e) => {
      if (e.target === back) this.closeSurrender();
    });
    document.body.append(back);
    this.surrenderBox = back;
    keep.focus();
  }

  private closeSurrender(): void {
    if (!this.surrenderBox) return;
    this.surrenderBox.remove();
    this.surrenderBox = null;
    this.els.canvas.focus({ preventScroll: true });
  }

  /** Keys while the surrender dialog is open: Esc cancels, Tab stays inside, Enter/Space press the focused
   *  button (Keep fighting first), every other key is held back from the game. */
  private surrenderKey(e: KeyboardEvent): boolean {
    const box = this.surrenderBox!;
    if (e.key === "Escape") {
      this.closeSurrender();
      return true;
    }
    if (trapFocus(box, e)) return false;
    if ((e.key === "Enter" || e.key === " ") && box.contains(document.activeElement)) return false;
    return true;
  }

  // --- the assistant and the hint ----------------------------------------------------------------------------
  private async askPlan(): Promise<void> {
    const ship = this.selected;
    if (!ship || !this.ownShips().some((s) => s.id === ship)) return this.host.say("Select one of your ships first.", "warn");
    if (!this.host.request) return this.host.say("The assistant needs a connection to the server.", "warn");
    const goal = this.goalRequest();
    if (!goal) return this.host.say("Hover a hex or a body as the destination, then press P (or use the Plan button for your objective).", "info");
    this.host.say(`Planning a course for ${this.name(ship)}…`, "info");
    try {
      const msg = await this.host.request({ type: "suggest", plan: { ship, goal } });
      const advice = msg.plan as { found: boolean; turns: number; steps: PlanStep[]; reason: string | null };
      if (!advice.found) {
        this.plan = null;
        this.host.say(`No course found: ${advice.reason}.`, "warn");
      } else {
        this.plan = advice.steps;
        this.planFor = ship;
        const last = advice.steps[advice.steps.length - 1]!;
        this.host.say(`Plan: ${advice.turns} turn(s), ending ${last.outcome === "landing" ? `landed${last.body ? " on " + last.body : ""}` : this.place(last.destination)} with ${last.fuel_after ?? "unlimited"} fuel. B applies the first burn.`, "info");
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
    this.setChoice(ship, c);
    this.host.say(`Plan applied to ${this.name(ship)}: ${burnWords(c.burn, c.overload)}${c.land ? ", land" : ""}. Enter to confirm.`, "info");
    this.render();
  }

  /** The shell's Hint button (and the I key): the hard bot's move, set for you. */
  hint(): void {
    void this.askHint();
  }

  private async askHint(): Promise<void> {
    if (!this.host.request) return this.host.say("Hints need a connection to the server.", "warn");
    if (!this.snap?.to_act) return this.host.say("A hint is for your own turn.", "warn");
    this.host.say("Asking the hard bot…", "info");
    try {
      const asked = this.snap.step;
      const msg = await this.host.request({ type: "suggest", bots: ["bot:hard"] });
      if (msg.step !== asked || this.snap?.step !== asked) {
        // the game moved on while the bot thought: a hint for an earlier moment would set a stale order
        this.host.say("The game moved on before the hint came: press I again for one.", "warn");
        return;
      }
      const top = msg.candidates?.[0];
      if (!top?.action) {
        this.host.say(`No hint: the hard bot gave none (${top?.error ?? "no answer"}).`, "warn");
        return;
      }
      const action = top.action;
      if (action.type === "order") {
        const c = choiceOf(action);
        this.selected = String(action["ship"]);
        this.setChoice(this.selected, c);
        this.host.say(`Hint: ${this.name(this.selected)} should ${burnWords(c.burn, c.overload)}${c.land ? " and land" : ""} (set for you; Enter to confirm).`, "info");
      } else if (action.type === "fire" || action.type === "add_attacker") {
        const t = action.type === "fire" ? String(action["target"]) : null;
        if (t && this.targets().includes(t)) this.target = t;
        this.host.say(`Hint: ${action.type === "fire" ? `attack ${this.name(String(action["target"]))}` : `attack with ${this.name(String(action["ship"]))}`}.`, "info");
      } else {
        this.host.say(`Hint: ${String(top.text ?? this.actionWords(action))}.`, "info");
      }
    } catch (e) {
      this.host.say(`No hint: ${(e as { message?: string }).message ?? e}`, "warn");
    }
    this.render();
  }

  // --- words -------------------------------------------------------------------------------------------------
  private courseWords(ship: string, c: OrderChoice, n: CourseNote): string {
    const parts = [`${cap(this.name(ship))}: ${burnWords(c.burn, c.overload)}`, `${velocityWords(n.velocity_before)} → ${velocityWords(n.velocity)}`, `ends ${this.courseEnd(n)}`];
    if (n.fuel_after !== null) parts.push(`fuel ${n.fuel_before} → ${n.fuel_after}`);
    if (n.outcome === "crash") parts.push(`CRASH into ${n.body ?? "a body"}`);
    else if (n.off_map && !n.escapes) parts.push("leaves the map: the ship is lost");
    else if (n.escapes) parts.push("escapes");
    else if (n.outcome === "landing") parts.push(`lands on ${n.body}`);
    for (const w of warningsOf(n)) parts.push(`${w.kind === "capture" ? "✓" : "⚠"} ${w.text}`);
    const g = n.gravity_queued.filter((x) => !x.ignored);
    if (g.length) parts.push(`next turn ${g.map((x) => `${x.body} pulls ${DIR_WORD[x.dir]}`).join(", ")}`);
    return parts.join(" · ");
  }

  /** Where a course ends, in words. */
  private courseEnd(n: CourseNote): string {
    if (n.outcome === "landing") return `landed on ${n.body ?? "a base"}`;
    if (n.orbit_after) return `in orbit of ${n.orbit_after}`;
    return this.place(n.destination);
  }

  private oddsWords(p: OddsBlock): string {
    const mods = [p.range_mod ? `range −${p.range_mod}` : "", p.velocity_mod ? `speed −${p.velocity_mod}` : "", p.heroism ? `heroism +${p.heroism}` : ""].filter(Boolean);
    const hit = p.kind === "gun" ? p.hit_chance ?? 0 : p.destroy_chance ?? 0;
    const counter = p.counter ? `; it counterattacks first at ${p.counter.odds}` : "; no counterattack";
    return `${p.attack} against ${p.defence} = ${p.odds}${mods.length ? ` (${mods.join(", ")})` : ""}, ${pct(hit)} to ${p.kind === "gun" ? "hit" : "destroy"}${p.kind === "gun" ? counter : ""}`;
  }

  // --- the panel -----------------------------------------------------------------------------------------------
  private render(): void {
    this.view?.invalidate();
    if (!this.snap) return;
    const s = this.snap;
    const v = this.v();
    const E = this.els;
    // status: the objective, checkpoints
    E.status.replaceChildren();
    const me = s.seat !== null ? (v.players ?? [])[s.seat] : null;
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
          row.append(el("span", `tac-chip${done ? " done" : ""}`, `${done ? "✓ " : ""}${c}`));
        }
        E.status.append(row);
      }
      const unseen = Number(v["unseen_enemy_ships"] ?? 0);
      if (unseen) E.status.append(el("p", "tac-muted", `${unseen} enemy ship${unseen > 1 ? "s" : ""} not detected`));
    }
    E.objective.textContent = obj ? `→ ${obj.name}` : "";
    this.renderShips();
    this.renderDetail();
    this.renderRolls();
    this.renderControls();
  }

  private renderShips(): void {
    const E = this.els;
    const s = this.snap!;
    const v = this.v();
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
        const state = given ? "order given" : c ? burnWords(c.burn, c.overload) : "";
        b.append(el("span", "tac-ship-name", cap(this.labels.get(sh.id) ?? className(sh.type))), el("span", "tac-ship-stats",
          [`fuel ${sh.fuel ?? "unlimited"}`, sh.landed ? `landed ${this.place(sh.position).replace(/^at /, "at ")}` : velocityWords(sh.velocity),
            sh.passengers ? `${sh.passengers} passengers` : "", sh.cargo_used ? `cargo used ${sh.cargo_used}` : "",
            sh.disabled ? `disabled ${sh.disabled} turn${sh.disabled > 1 ? "s" : ""}` : "", sh.control === "surrendered" ? "surrendered" : sh.control === "captured" ? "captured" : "",
            identityWords(sh), state].filter(Boolean).join(" · ")));
        b.setAttribute("aria-pressed", String(sh.id === this.selected));
        b.onclick = () => this.select(sh.id, true);
        li.append(b);
        list.append(li);
      }
      if (!ownShips.length) {
        const home = String(((v.players ?? [])[s.seat]?.["home"]) ?? "");
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
        const name = el("span", "tac-ship-name", cap(this.name(sh.id)));
        name.style.color = sideColour(sh.owner, s.seat);
        b.append(name, el("span", "tac-ship-stats", [sh.landed ? "landed" : velocityWords(sh.velocity), this.place(sh.position),
          sh.disabled ? `disabled ${sh.disabled} turn${sh.disabled > 1 ? "s" : ""}` : "", sh.control === "surrendered" ? "surrendered" : "",
          identityWords(sh)].filter(Boolean).join(" · ")));
        b.onclick = () => this.view?.centreOn(sh.position);
        li.append(b);
        list.append(li);
      }
      E.ships.append(list);
    }
  }

  /** The dice rolled lately (this player-turn and the one before), newest last, in words. */
  private renderRolls(): void {
    const E = this.els;
    E.rolls.replaceChildren();
    if (!this.rolls.length) return;
    E.rolls.append(el("h2", undefined, "Latest dice"));
    const list = el("ul", "tac-facts tac-rolllist");
    for (const r of this.rolls.slice(-6)) {
      const li = el("li", r.result !== "-" || r.destroyed ? "tac-hit" : "tac-miss", this.rollSentence(r));
      list.append(li);
    }
    E.rolls.append(list);
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
      const n = noteOf(entry, "order");
      if (n) {
        const eq = el("p", "tac-equation");
        eq.textContent = `${cap(velocityWords(n.velocity_before))} + ${c.burn === null ? "no burn" : c.overload === null ? `burn ${dirKey(c.burn)}` : `burn ${dirKey(c.burn)} + ${dirKey(c.overload)}`} → ${velocityWords(n.velocity)}`;
        E.detail.append(el("h2", undefined, `${cap(this.labels.get(sel) ?? "ship")}: course preview`), eq);
        const facts = el("ul", "tac-facts");
        if (n.outcome !== "landing") facts.append(el("li", undefined, `Ends ${this.courseEnd(n)}`));
        if (n.fuel_after !== null) facts.append(el("li", undefined, n.fuel_after === n.fuel_before ? `Fuel ${n.fuel_after}` : `Fuel ${n.fuel_before} → ${n.fuel_after}`));
        const warn = n.outcome === "crash" ? `CRASH into ${n.body ?? "a body"}` : n.off_map && !n.escapes ? "Leaves the map: the ship is lost" : "";
        if (warn) facts.append(el("li", "tac-warn", `⚠ ${warn}`));
        for (const w of warningsOf(n)) facts.append(el("li", w.kind === "capture" ? "tac-good" : "tac-warn", `${w.kind === "capture" ? "✓" : "⚠"} ${w.text}`));
        if (n.escapes) facts.append(el("li", "tac-good", "Escapes off the north edge"));
        if (n.outcome === "landing") facts.append(el("li", "tac-good", n.start === n.destination && n.fuel_spent === 0 ? `Stays landed on ${n.body}` : `Lands on ${n.body}`));
        for (const g of n.gravity_queued) facts.append(el("li", g.ignored ? "tac-muted" : undefined, `${g.ignored ? "Ignored" : "Next turn"}: ${g.body}${g.weak ? " (weak)" : ""} pulls ${DIR_WORD[g.dir]} ${DIR_ARROW[g.dir]}`));
        if (n.ignorable_weak.length && !c.weak.length) facts.append(el("li", "tac-muted", "V: ignore the weak gravity on this course"));
        if (hasLandVariant(legal, sel, c.burn) && !c.land) facts.append(el("li", "tac-muted", "G: land with this burn"));
        if (this.overloadMode) facts.append(el("li", "tac-note", "Overload: pick the second direction (arrows from the first burn's hex)"));
        E.detail.append(facts);
      }
      if (this.plan && this.planFor === sel) {
        const last = this.plan[this.plan.length - 1]!;
        E.detail.append(el("p", "tac-plan", `Assistant: ${this.plan.length} turn(s) to ${last.outcome === "landing" ? `land${last.body ? " on " + last.body : ""}` : this.place(last.destination)}, fuel left ${last.fuel_after ?? "unlimited"}. B applies turn 1.`));
      }
    } else if (ph === "combat" && this.snap?.to_act) {
      const p = this.attackPreview();
      if (this.target && p) {
        E.detail.append(el("h2", undefined, `Attack on ${this.name(this.target)}`));
        E.detail.append(el("p", "tac-equation", `${p.attack} against ${p.defence} → odds ${p.odds}`));
        const facts = el("ul", "tac-facts");
        facts.append(el("li", undefined, `Attackers: ${cap(this.names(p.ships)) || "the group"} (${this.attackerMode === "all" ? "every ship that sees it" : "one ship"}; { } to change)`));
        facts.append(el("li", undefined, `Range −${p.range_mod}, relative speed −${p.velocity_mod}${p.heroism ? `, heroism +${p.heroism}` : ""}`));
        const odds = Object.entries(p.chances).map(([r, k]) => `${r === "-" ? "miss" : r} ${pct(k)}`).join(" · ");
        facts.append(el("li", undefined, odds));
        if ((p.kind === "gun" ? p.hit_chance : p.destroy_chance) === 0) facts.append(el("li", "tac-warn", "No roll can do damage at this range and speed: close in first, or end combat"));
        if (p.counter) facts.append(el("li", "tac-warn", `Counterattack first: ${this.names(p.counter.ships)} at ${p.counter.odds} on ${this.name(p.counter.target)} (${Object.entries(p.counter.chances).filter(([r]) => r !== "-").map(([r, k]) => `${r} ${pct(k)}`).join(", ") || "no damage possible"})`));
        else if (p.kind === "gun") facts.append(el("li", "tac-good", "It cannot counterattack"));
        E.detail.append(facts);
      } else {
        const n = this.targets().length;
        E.detail.append(el("p", undefined, n ? `${n} target${n > 1 ? "s" : ""} in sight: [ ] or click an enemy ship, then Attack.` : "No more targets in sight: End combat (Enter)."));
      }
    } else if (ph === "ordnance" && this.snap?.to_act) {
      const l = this.launch;
      const kinds = this.launchKinds();
      E.detail.append(el("p", undefined, l ? `A ${l.kind} from ${this.name(l.ship)}${l.boost ? `, boosted ${l.boost} ${l.boost > 1 ? "hexes" : "hex"} ${DIR_WORD[l.dir ?? 0]}` : ""}: Enter to launch, Esc to cancel.`
        : kinds.length ? `${kinds.map((k) => `${k === "mine" ? "N" : k === "torpedo" ? "T" : "K"} ${k}`).join(", ")}, or Skip (Enter).`
          : this.v().launched?.length ? "Each ship launches one item per turn and every ship that could has launched: End the phase (Enter)." : "Nothing can be launched now: Skip (Enter)."));
      const n = noteOf(this.launchEntry(), "launch");
      if (n) {
        const facts = el("ul", "tac-facts");
        facts.append(el("li", undefined, `${cap(velocityWords(n.velocity))}: this turn it ends ${this.place(n.destination)}, then drifts ${this.place(n.next_destination)}; it lasts ${n.turns} moves`));
        const words = launchHitWords(n, (id) => this.name(id), (id) => this.name(id));
        const own = Boolean(n.first_hit?.own?.length);
        const where = n.first_hit && n.first_hit.what !== "body" ? `, ${this.place(n.first_hit.hex)}` : "";
        if (words) facts.append(el("li", n.first_hit?.what === "ships" && !own ? "tac-good" : "tac-warn", `It ${words}${where} this turn`));
        else facts.append(el("li", "tac-good", "Nothing in its way this turn"));
        E.detail.append(facts);
      }
    } else if (this.snap?.status === "over") {
      E.detail.append(el("p", "tac-result", this.resultWords()));
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
    E.actions.replaceChildren();
    const s = this.snap!;
    const ph = this.phaseName();
    const legal = this.legal();
    E.actions.hidden = s.seat === null || s.status === "over";
    if (s.seat === null || s.status === "over") return;
    if (!s.to_act) {
      const chose = s.deciding.some((d) => d.seat === s.seat && d.submitted);
      E.actions.append(el("p", "tac-muted", chose ? "Your choice is in: it is revealed when the opponent has chosen too." : "The opponent is moving. Your controls return on your turn."));
      return;
    }
    const act = E.actions;
    if (ph === "astrogation") {
      const pad = el("div", "tac-burnpad");
      pad.setAttribute("role", "group");
      pad.setAttribute("aria-label", "Burn direction, as the arrows point on the map");
      const sel = this.selected;
      const c = this.choices.get(sel ?? "") ?? COAST;
      const pick = this.overloadMode && c.burn !== null;
      // laid out as the arrows point on the map: ↖ 4, ↑ 3, ↗ 2 / ↙ 5, ↓ 6, ↘ 1
      for (const d of [3, 2, 1, 4, 5, 0]) {
        const choice = pick ? { ...c, overload: d, land: false, weak: [] } : { burn: d, overload: null, land: false, weak: [] };
        const ok = sel ? Boolean(matchOrder(legal, sel, choice)) : false;
        const on = pick ? c.overload === d : c.burn === d;
        const b = this.button(dirKey(d), () => this.act({ kind: "burn", dir: d, overload: pick }), `tac-dir${on ? " on" : ""}`,
          `${pick ? "Overload" : "Burn"} ${DIR_WORD[d]} (key ${pick ? "Shift+" : ""}${d + 1})`);
        b.setAttribute("aria-label", `${dirKey(d)}: ${pick ? "overload" : "burn"} ${DIR_WORD[d]}`);
        b.disabled = !ok;
        pad.append(b);
      }
      E.controls.append(pad);
      const row = el("div", "tac-row");
      const mayOverload = sel ? canOverload(legal, sel, null) : false;
      if (mayOverload) {
        const ov = this.button(this.overloadMode ? "Overload: pick ⤴" : "Overload +", () => this.act({ kind: "overload-mode" }), this.overloadMode ? "on" : "",
          "A second burn in the same turn (warships, 2 fuel, once between resupplies): pick the first burn, then this, then a direction (Shift+1-6)");
        ov.setAttribute("aria-pressed", String(this.overloadMode));
        ov.disabled = c.burn === null || !canOverload(legal, sel!, c.burn);
        row.append(ov);
      }
      row.append(this.button("0 Coast", () => this.act({ kind: "clear" }), "", "Clear the burn (0)"),
        this.button("Next ship ⇥", () => this.act({ kind: "next-ship", back: false }), "", "Tab"));
      E.controls.append(row);
      const row2 = el("div", "tac-row");
      row2.append(this.button("Plan to objective", () => this.planObjective(), "", "The assistant plans a course to your objective (P plans to the hovered hex)"),
        this.button("Apply plan (B)", () => this.act({ kind: "apply-plan" }), "", "Set the plan's first burn"));
      E.controls.append(row2);
      const undo = this.button("Undo", () => this.act({ kind: "undo" }), "", "Take back the last burn change (Z)");
      undo.disabled = !this.undoStack.length;
      undo.setAttribute("aria-keyshortcuts", "Z");
      act.append(undo, this.button(this.riskArmed ? "Confirm anyway ⏎" : "Confirm turn ⏎", () => this.act({ kind: "confirm" }), this.riskArmed ? "primary warn" : "primary", "Enter: send every order and end astrogation"));
    } else if (ph === "ordnance") {
      const row = el("div", "tac-row");
      for (const [k, kind] of [["N", "mine"], ["T", "torpedo"], ["K", "nuke"]] as const) {
        if (!legal.some((e) => e.action.type === "launch" && e.action["kind"] === kind)) continue;
        row.append(this.button(`${k} ${kind}`, () => this.act({ kind: "launch", ordnance: kind }), this.launch?.kind === kind ? "on" : ""));
      }
      for (const e of legal.filter((x) => x.action.type === "emplace_base")) row.append(this.button(`Emplace the orbital base (${this.labels.get(String(e.action["ship"])) ?? "ship"})`, () => this.send([e.action])));
      if (row.childElementCount) E.controls.append(row);
      if (this.launch?.kind === "torpedo") {
        const pad = el("div", "tac-burnpad");
        pad.setAttribute("role", "group");
        pad.setAttribute("aria-label", "Torpedo boost direction (press again for 2 hexes)");
        for (const d of [3, 2, 1, 4, 5, 0]) {
          const on = this.launch.dir === d && this.launch.boost > 0;
          const b = this.button(`${dirKey(d)}${on ? ` ×${this.launch.boost}` : ""}`, () => this.act({ kind: "boost", dir: d }), `tac-dir${on ? " on" : ""}`, `Boost ${DIR_WORD[d]} (key ${d + 1}; again for 2 hexes)`);
          b.setAttribute("aria-label", `${b.textContent}: boost ${DIR_WORD[d]}`);
          pad.append(b);
        }
        E.controls.append(pad);
      }
      if (this.launch) act.append(this.button("Cancel", () => this.act({ kind: "cancel" }), "", "Esc"));
      act.append(this.button(this.launch ? "Launch ⏎" : this.launchKinds().length ? "Skip ⏎" : "End ordnance ⏎", () => this.act({ kind: "confirm" }), "primary"));
    } else if (ph === "combat") {
      const row = el("div", "tac-row");
      const n = this.targets().length;
      if (n) {
        row.append(this.button("[ Prev target", () => this.act({ kind: "target", step: -1 })), this.button("Next target ]", () => this.act({ kind: "target", step: 1 })));
        if (this.target) row.append(this.button("{ } Attackers", () => this.act({ kind: "attacker", step: 1 })));
        E.controls.append(row);
      }
      if (this.target) act.append(this.button("Clear", () => this.act({ kind: "cancel" }), "", "Esc: no target"));
      act.append(this.button(this.target ? "Attack ⏎" : "End combat ⏎", () => this.act({ kind: "confirm" }), "primary"));
    } else if (ph === "logistics") {
      // one row per (from, to, what) with its amounts as buttons
      const list = el("div", "tac-list");
      const groups = new Map<string, LegalEntry[]>();
      for (const e of legal.filter((x) => x.action.type === "transfer")) {
        const a = e.action;
        const k = `${a["source"]}|${a["target"]}|${a["kind"]}`;
        groups.set(k, [...(groups.get(k) ?? []), e]);
      }
      for (const entries of groups.values()) {
        const a0 = entries[0]!.action;
        const from = this.name(String(a0["source"]));
        const to = this.name(String(a0["target"]));
        const row2 = el("div", "tac-transfer");
        const title = el("span", "tac-transfer-what", `${cap(String(a0["kind"]))}: ${from} → ${to}`);
        const amounts = el("span", "tac-transfer-amounts");
        amounts.setAttribute("role", "group");
        amounts.setAttribute("aria-label", `${a0["kind"]} from ${from} to ${to}: how many`);
        for (const e of entries) {
          const b = this.button(String(e.action["amount"]), () => this.send([e.action]), "tac-amount", `Transfer ${e.action["amount"]} ${a0["kind"]} from ${from} to ${to}`);
          b.setAttribute("aria-label", `${e.action["amount"]} ${a0["kind"]} from ${from} to ${to}`);
          amounts.append(b);
        }
        row2.append(title, amounts);
        list.append(row2);
      }
      if (!groups.size) list.append(el("p", "tac-muted", "No transfer is possible now (ships must share a hex, at matching speed)."));
      E.extra.append(list);
      const end = legal.find((x) => x.action.type === "end_logistics");
      if (end) act.append(this.button("Done ⏎", () => this.send([end.action]), "primary"));
    } else if (ph === "fleet_building") {
      const me = (this.v().players ?? [])[s.seat];
      const credits = Number(me?.["credits"] ?? 0) - Number(me?.["spent"] ?? 0);
      E.controls.append(el("p", "tac-budget", `Budget: ${credits} MC left`));
      const bought = new Map<string, number>();
      // the view's purchases: [id, type, carrier] per item bought, one list per seat (the others' are hidden)
      const mine = (this.v().purchases ?? [])[s.seat] ?? [];
      for (const item of mine) bought.set(String(item[1]), (bought.get(String(item[1])) ?? 0) + 1);
      const word = (t: string): string => (t === "orbitalBaseCargo" ? "orbital base (as cargo)" : className(t));
      E.controls.append(el("p", "tac-fleet", bought.size ? `Your fleet: ${[...bought].map(([t, n]) => `${n} ${word(t)}`).join(", ")}` : "Your fleet: no ship yet"));
      const list = el("div", "tac-list");
      for (const e of legal.filter((x) => x.action.type === "buy")) {
        const n = noteOf(e, "buy");
        const carrier = e.action["carrier"] ? ` into ${this.labels.get(String(e.action["carrier"])) ?? "a transport"}` : "";
        list.append(this.button(`${cap(word(String(e.action["item"])))}${carrier} · ${n?.cost ?? "?"} MC`, () => this.send([e.action]), "", n ? `${n.credits_left} MC left after` : ""));
      }
      E.extra.append(list);
      const ready = legal.find((x) => x.action.type === "fleet_ready");
      if (ready) act.append(this.button("Fleet ready ⏎", () => this.send([ready.action]), "primary"));
      else act.append(el("p", "tac-muted", "Buy at least one ship."));
    }
    const sur = legal.find((x) => x.action.type === "surrender");
    if (sur) {
      const b = this.button("Surrender ships…", () => this.openSurrender(), "danger", "The rules' surrender of your ships (its own confirmation)");
      E.extra.append(b);
    }
  }

  // --- camera helpers ------------------------------------------------------------------------------------------
  private centreOnFleet(): void {
    if (this.snap?.seat === null) return this.frameShips();
    const own = this.ships().find((s) => s.id === this.selected && !s.destroyed) ?? this.ownShips()[0];
    if (!own && this.view && this.board) {
      // no ship yet (fleet building): where they will start, the home planet
      const home = (this.v().players ?? [])[this.snap?.seat ?? 0]?.home ?? "";
      const body = this.board.bodies.find((b) => b.name === home);
      if (body) this.view.centreOn(body.center, Math.max(this.view.camera.zoom, FOCUS_ZOOM * 0.6));
      return;
    }
    if (own && this.view) this.view.centreOn(own.position, Math.max(this.view.camera.zoom, this.focusZoom(own)));
  }

  /** Is some ship in play outside the map's view (a spectator's view then frames them again)? */
  private shipsOutOfView(): boolean {
    const cam = this.view?.camera;
    if (!cam || cam.width <= 1) return false;
    return this.ships().some((sh) => {
      if (sh.destroyed) return false;
      const [x, y] = cam.toScreen(...pixel(sh.position));
      return x < 0 || y < 0 || x > cam.width || y > cam.height;
    });
  }

  /** A spectator (a watcher, a replay): the view frames every ship in play, not the whole map. */
  private frameShips(only: string[] | null = null): void {
    const view = this.view;
    const pts = this.ships().filter((s) => !s.destroyed && (!only || only.includes(s.id))).map((s) => pixel(s.position));
    if (!view || !pts.length) return;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const pad = 5;
    const r = { x: Math.min(...xs) - pad, y: Math.min(...ys) - pad, w: Math.max(...xs) - Math.min(...xs) + 2 * pad, h: Math.max(...ys) - Math.min(...ys) + 2 * pad };
    const zoom = Math.min(only ? view.camera.zoom : FOCUS_ZOOM, view.camera.fitZoom(r, 12));
    view.camera.moveTo(r.x + r.w / 2, r.y + r.h / 2, zoom);
    view.invalidate();
  }

  /** The zoom to look at a ship: closer when it shares its hex (its mates are fanned out around the centre). */
  private focusZoom(s: ShipView): number {
    const mates = this.ships().filter((o) => !o.destroyed && o.position[0] === s.position[0] && o.position[1] === s.position[1]).length;
    return mates > 2 ? FOCUS_ZOOM * 1.6 : mates > 1 ? FOCUS_ZOOM * 1.3 : FOCUS_ZOOM;
  }

  // --- gamepad ---------------------------------------------------------------------------------------------------
  private startGamepad(): void {
    window.addEventListener("keydown", (e) => (this.shiftDown = e.shiftKey));
    window.addEventListener("keyup", (e) => (this.shiftDown = e.shiftKey));
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
  }
}

declare global {
  interface Window {
    deltavTactical?: { screen: TacticalScreen; view: BoardView };
  }
}

/** A hidden identity (Escape) where the view tells it: your own ships, or every ship in a finished match's full
 *  view. */
function identityWords(sh: ShipView): string {
  return sh.identity === "fugitives" ? "the fugitives aboard" : sh.identity === "decoy" ? "decoy" : "";
}

/** How long a ship takes to glide along the path of its move on screen. */
const GLIDE_MS = 400;

function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}
