/**
 * The Knight Hawks game screen (issue 16): the hex map, the fleet list and the selected ship's record sheet,
 * the controls of the current stage (movement plotting by path, defensive and offensive fire with the odds,
 * the defender's ICM and evasion choice, the repair allocation) and the combat report with every roll.
 *
 * Every control submits one entry of `snapshot.legal`, found by grouping (model.ts); odds and previews come
 * from the engine's notes (src/deltav/games/knighthawks/annotate.py). Owns the screen's DOM and the wiring of
 * map clicks and keys; drawing is board.ts, the sheet sheets.ts, the help help.ts.
 */
import type { GameScreen, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { typingInField } from "../shell/input";
import { helpSection } from "./help";
import { COLOUR, HexMap, type Marker, type Overlay } from "./board";
import {
  type Choice, type Controls, endsMasking, FACINGS, groupLegal, type Hex, hexEq, type KHBoard, type KHShip, type KHView,
  hexDistance, noteOf, type Notes, phaseText, repairName, reportLine, seekerName, shipName, shipsWithChoices, sideName, sideOf, stepAt,
  stepTarget,
  TURN_WORDS,
  WEAPON_NAMES,
} from "./model";
import { fleetList, shipSheet } from "./sheets";
import { injectStyle } from "./styles";
import { el } from "../shell/dom";

/** The engine's note on a choice of a `type` (annotate.py; the generated `Notes`), each field maybe absent. */
const note = <K extends keyof Notes & string>(c: Choice, type: K): Partial<Notes[K]> => noteOf(c.entry, type) ?? {};
const num = (x: unknown): number => (typeof x === "number" ? x : 0);


export class KnightHawksScreen implements GameScreen {
  private host!: ScreenHost;
  private root!: HTMLElement;
  private map!: HexMap;
  private board: KHBoard | null = null;
  private snap: Snapshot | null = null;
  private view: KHView | null = null;
  private ctl: Controls | null = null;
  private selected: string | null = null;
  private busy = false;
  private lastPhase = "";
  private lastTurn = "";
  private plotFocus: string | null = null;
  private beforePlot: { x: number; y: number; zoom: number } | null = null;
  private seenFirst = false;
  private reportKey = "";
  /** The type of this seat's last accepted order, and the events since: an automatic resolution between it and
   *  the seat's next decision is shown on a card first (host.acknowledge). */
  private lastAct: string | null = null;
  private sinceAct: LogEntry[] = [];
  private ackedStep = -1;
  private facingPick = new Map<string, number>();
  private weaponSel = 0;
  private targetSel = 0;
  private repairSel = 0;
  private blockSel = new Map<string, number>();
  private evade = false;
  /** A choice that ends a masking screen, pressed once: the second press takes it. */
  private armed: number | null = null;
  private els!: { phase: HTMLElement; controls: HTMLElement; fleet: HTMLElement; sheet: HTMLElement;
    report: HTMLOListElement; readout: HTMLElement };

  async mount(root: HTMLElement, host: ScreenHost): Promise<void> {
    injectStyle();
    (window as unknown as { khScreen?: KnightHawksScreen }).khScreen = this; // the browser tests read it
    this.host = host;
    this.root = el("div", "kh-root");
    root.append(this.root);
    const mapWrap = el("div", "kh-mapwrap");
    const canvas = el("canvas", "kh-map");
    canvas.setAttribute("aria-label", "the hex map: click a ship to select it; arrowed hexes plot the next step");
    canvas.tabIndex = 0;
    const readout = el("div", "kh-readout");
    readout.setAttribute("aria-hidden", "true");
    const fit = el("button", "kh-fit", "⤢");
    fit.type = "button";
    fit.title = "show the whole map (H)";
    fit.addEventListener("click", () => this.map.fit());
    mapWrap.append(canvas, readout, fit);
    const side = el("aside", "kh-side");
    const phase = el("div", "kh-phase");
    const controls = el("div", "kh-controls");
    const fleet = el("div", "kh-fleetwrap");
    const sheet = el("div", "kh-sheetwrap");
    const reportBox = el("details", "kh-reportbox");
    reportBox.open = true;
    reportBox.append(el("summary", "", "Combat report"));
    const report = el("ol", "kh-report");
    report.setAttribute("aria-live", "polite");
    reportBox.append(report);
    side.append(phase, controls, reportBox, fleet, sheet);
    this.root.append(mapWrap, side);
    this.els = { phase, controls, fleet, sheet, report, readout };
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
    this.map = new HexMap(canvas, reduced);
    this.map.onClick = (h) => this.clickHex(h);
    this.map.onHover = (h) => this.hoverHex(h);
    this.map.onFirstSize = () => this.frameShips(true);
    try {
      this.board = (await host.board()) as KHBoard | null;
    } catch {
      this.board = null;
    }
    host.helpChanged?.(); // a help opened before the board came has no tables yet
    if (this.snap) this.render();
  }

  unmount(): void {
    this.map?.destroy();
    this.root?.remove();
  }

  scoreLabel(): { title: string; help?: string } {
    return { title: "Points", help: "Points: a destroyed enemy ship scores its class points, one driven off half." };
  }

  phase(s: Snapshot): string {
    const v = s.view as unknown as KHView;
    return phaseText(v, s.seat, s.to_act, (p) => this.host?.seatName(p) ?? v.sides[p] ?? "?");
  }

  help(): HTMLElement {
    return helpSection(this.board);
  }

  /** The first-game guide (the shell's guide frame): what a turn is, the map, movement, fire, damage, repairs
   *  and what wins, each step ringing the part of the page it is about. */
  guide(): { title: string; text: string; anchor?: string }[] {
    const v = this.view;
    const seat = this.snap?.seat ?? null;
    const mine = v && seat !== null ? `You command the ${v.sides[seat]} fleet (cyan); the enemy is orange. ` : "";
    const exit = v?.victory.kind === "exit";
    const win = !v ? "" : v.victory.kind === "exit"
      ? `${shipName(v, v.victory.ship ?? "")} must leave the map by the ${v.victory.edge ?? "any"} edge (drawn green, with EXIT) within ${v.turn_limit} turns; the other side must stop it.`
      : v.victory.kind === "destroy"
        ? `${shipName(v, v.victory.ship ?? "")} must be destroyed within ${v.turn_limit} turns, or its side wins.`
        : `Destroy or drive off every enemy ship. After ${v.turn_limit} turns the side with more points wins: a destroyed ship scores its class points, one driven off half.`;
    return [
      { title: "Knight Hawks: a first battle", text: `${mine}Each game turn one side moves, the other fires at it, and it fires back; then the sides swap. A repair turn follows every third turn. ${win}` },
      { title: "The map", anchor: ".kh-mapwrap", text: "Each counter is a ship: its class letters, v and its speed, and a wedge on the side it faces. The compass shows north. Crossing the dashed red edge takes a ship out of the battle" + (exit ? "; the green edge is the way out for the escort." : ".") + " Planets block movement and fire; their gravity ring pulls a passing ship one hexside, and a ship heading straight in crashes. Drag, scroll or pinch to look around; H shows the whole map." },
      { title: "Your ships", anchor: ".kh-fleetwrap", text: "Click a ship (here or on the map) to see its record sheet below: hull points, ADF (how much its speed may change in a turn), MR (how many turns it may make), weapons with their ammunition, defenses and the damaged-systems boxes." },
      { title: "Movement", anchor: ".kh-controls", text: "In your movement, pick a ship's new speed (number keys), then plot its path one hex at a time: the arrowed hexes ahead are turn left, straight on, turn right (1 2 3 or a click). Ships you leave alone hold their course. End movement (Enter) moves them all at once." },
      { title: "Fire", anchor: ".kh-controls", text: "When a side has moved, the other side fires first, at any hex the movers passed through; then the movers fire. Pick a weapon's target (its chance to hit is shown; a click on the ringed ship does it too). F fires the declared weapons, or holds fire. Once every weapon that can bear is declared they fire at once, and a card says what happened before you go on." },
      { title: "Damage", anchor: ".kh-reportbox", text: "A hit rolls d100 plus the weapon's modifier on the Damage Table: hull points, or a drive, steering, weapon or defense knocked out, a fire, a power short... The combat report lists every roll, oldest first. A ship that has lost more than half its hull may break apart when it maneuvers: the chance is shown before you commit." },
      { title: "Screens, missiles, repairs", text: "Screens are switched on in movement; a masking screen lasts while the ship keeps its speed and heading (you are warned before a change ends it). Torpedoes and rockets can be stopped by interceptor missiles from ships in the target's hex. In a repair turn you split each ship's damage control (DCR) into blocks: each block repairs one thing on a d100 roll at most its size." },
      { title: "Help", text: "? opens the help: every key, the weapons, the combat and damage tables and the ship classes, and this guide again. Good hunting." },
    ];
  }

  update(snapshot: Snapshot, newEvents: LogEntry[]): void {
    this.snap = snapshot;
    this.view = snapshot.view as unknown as KHView;
    this.ctl = groupLegal(snapshot.to_act ? snapshot.legal : []);
    this.busy = false;
    this.armed = null;
    const v = this.view;
    if (v.plotting && snapshot.to_act) this.selected = v.plotting[0];
    else {
      const choices = shipsWithChoices(this.ctl);
      if (choices.length && (!this.selected || !choices.includes(this.selected))) this.selected = choices[0]!;
      if (!this.selected) this.selected = v.ships.find((s) => s.owner === (snapshot.seat ?? 0))?.id ?? null;
    }
    this.addReport(newEvents, snapshot.log);
    const connecting = !this.seenFirst; // the log tail a page gets on connecting is history, not news
    if (!connecting) {
      this.animateEvents(newEvents);
      this.sinceAct.push(...newEvents);
    }
    this.seenFirst = true;
    const ph = this.phase(snapshot);
    if (ph !== this.lastPhase) {
      this.lastPhase = ph;
      if (snapshot.to_act) this.host.sound("turn");
    }
    const turnKey = `${v.turn}/${v.half}`;
    this.map?.setView(v); // before framing: the map's size and edges come from the view
    if (this.map && (turnKey !== this.lastTurn || !this.map.hasFitted)) {
      this.lastTurn = turnKey;
      const first = !this.map.hasFitted;
      this.frameShips(first, !first);
    }
    if (this.map) {
      this.render();
      // plotting: the ship in sight and close enough to click the arrowed hexes; then back to the view before
      if (v.plotting && snapshot.to_act && this.plotFocus !== v.plotting[0]) {
        this.plotFocus = v.plotting[0];
        const sh = this.ship(v.plotting[0]);
        if (sh && (!this.map.onScreen(sh.hex, 80) || this.map.camera.target.zoom < 19)) {
          this.beforePlot ??= this.map.camera.target;
          this.map.focus(sh.hex, 19);
        }
      } else if (!v.plotting) {
        this.plotFocus = null;
        if (this.beforePlot && (v.stage !== "move" || !snapshot.to_act)) { // the movement is over
          const b = this.beforePlot;
          this.beforePlot = null;
          this.map.camera.moveTo(b.x, b.y, b.zoom);
        }
      }
    }
    if (snapshot.to_act && snapshot.step !== this.ackedStep && snapshot.status === "playing") this.acknowledgeResolution(snapshot);
  }

  /** Before this seat's next decision takes keys: a card of what was resolved without an order of its own since
   *  its last one (its declared weapons fired once the last was declared, its repairs rolled once its DCR was
   *  allocated, the enemy's fire and mines at its ships, ships lost), so no key meant for the last decision acts
   *  on this one and the player sees what happened. Nothing when the player's own order (Fire, End movement)
   *  brought the results and no enemy fire followed. */
  private acknowledgeResolution(snapshot: Snapshot): void {
    this.ackedStep = snapshot.step;
    const events = this.sinceAct;
    this.sinceAct = [];
    const v = this.view!;
    const seat = snapshot.seat;
    if (seat === null) return;
    const mine = (id: unknown): boolean => v.ships.find((x) => x.id === id)?.owner === seat;
    const type = (e: LogEntry): string => e.event.type;
    const ownFire = events.some((e) => type(e) === "fired" && e.event.player === seat && Array.isArray(e.event.attacks) && e.event.attacks.length);
    const autoFire = this.lastAct === "assign" && ownFire;
    const repairs = events.some((e) => type(e) === "repair_roll");
    const enemyFire = events.some((e) => type(e) === "attack" && mine(e.event.target));
    const lost = events.some((e) => (type(e) === "destroyed" || type(e) === "disengaged") && mine(e.event.ship));
    if (!autoFire && !repairs && !enemyFire && !lost) return;
    const titles: string[] = [];
    if (autoFire) titles.push("Every weapon was declared: they fired");
    if (enemyFire) titles.push(`${sideName(v, 1 - seat, (p) => this.host.seatName(p))} fired at your ships`);
    if (repairs) titles.push("Your repair rolls");
    if (!titles.length) titles.push("Ships lost");
    const shown = new Set(["fired", "attack", "intercepted", "damage", "destroyed", "wasted", "breakup_check", "disengaged",
      "repair_roll", "masking_ended"]);
    let lines = events.filter((e) => shown.has(type(e))).map((e) => e.text);
    if (lines.length > 30) lines = [...lines.slice(0, 29), `… and ${lines.length - 29} more lines in the combat report`];
    this.lastAct = null;
    void this.host.acknowledge?.(titles.join(" · "), lines);
  }

  // --- rendering ------------------------------------------------------------------------------------------
  private render(): void {
    const v = this.view;
    const s = this.snap;
    if (!v || !s || !this.ctl) return;
    this.map.setView(v);
    this.els.phase.replaceChildren(
      el("span", "kh-score", `Turn ${Math.min(v.turn, v.turn_limit)}/${v.turn_limit} · ${v.sides[0]} ${v.scores[0]} : ${v.scores[1]} ${v.sides[1]}`),
    );
    this.renderControls();
    this.els.fleet.replaceChildren(fleetList(v, this.selected, (id) => this.select(id), (p) => this.host.seatName(p)));
    const sel = v.ships.find((x) => x.id === this.selected);
    this.els.sheet.replaceChildren(...(sel ? [shipSheet(sel, v)] : []));
    this.map.setOverlay(this.overlay());
  }

  /** The view at the start and at each side turn: the whole map when it fits the canvas legibly (the edges, the
   *  exit and every ship in sight), else the ships in play (a phone). At a new side turn the camera moves only
   *  when a ship in play is out of sight, so a player's own zoom stays while it shows everything. */
  private frameShips(instant = false, onlyIfHidden = false, shipsOnly = false): void {
    const v = this.view;
    if (!v) return;
    const active = v.ships.filter((s) => s.status === "active");
    if (onlyIfHidden && active.every((s) => this.map.onScreen(s.hex, 24))) return;
    if (!shipsOnly && this.map.fitZoom() >= 9.5) {
      this.map.fit(instant);
      return;
    }
    const seat = this.snap?.seat ?? null;
    const own = seat === null ? [] : active.filter((s) => s.owner === seat);
    // your ships and the enemies near them (all ships for a spectator), and the planets among them
    const near = own.length ? active.filter((s) => s.owner === seat || own.some((o) => hexDistance(o.hex, s.hex) <= 8)) : active;
    const hexes = near.map((s) => s.hex);
    for (const [, p] of v.map.planets) if (near.some((s) => hexDistance(s.hex, p) <= 6)) hexes.push(p);
    this.map.frame(hexes, 4, instant);
  }

  private select(id: string): void {
    if (this.view?.plotting && this.snap?.to_act && id !== this.view.plotting[0]) {
      this.host.say(`Finish plotting ${shipName(this.view, this.view.plotting[0])} first: choose its next hex.`, "warn");
    }
    this.selected = this.view?.plotting && this.snap?.to_act ? this.view.plotting[0] : id;
    this.weaponSel = 0;
    this.targetSel = 0;
    this.repairSel = 0;
    this.host.sound("select");
    this.render();
  }

  private ship(id: string | null): KHShip | undefined {
    return this.view?.ships.find((x) => x.id === id);
  }

  private button(text: string, c: Choice | null, cls = "", hint = ""): HTMLButtonElement {
    const b = el("button", `kh-btn ${cls}`, text);
    b.type = "button";
    if (hint) b.append(el("kbd", "", hint));
    if (c) {
      b.dataset.legal = String(c.index);
      b.addEventListener("click", () => this.act(c));
      if (this.view && endsMasking(c, this.view)) {
        b.classList.add("kh-masking");
        b.append(el("small", "kh-risk", this.armed === c.index ? "again: ends masking screen" : "ends masking screen"));
        b.title = `${b.title ? `${b.title}; ` : ""}ends the masking screen`;
      }
    } else b.disabled = true;
    return b;
  }

  private act(c: Choice): void {
    if (this.busy) {
      this.host.say("Waiting for the server to accept the last order.", "info");
      return;
    }
    if (this.view && endsMasking(c, this.view) && this.armed !== c.index) {
      this.armed = c.index;
      const sid = c.entry.action.type === "step" ? this.view.plotting?.[0] ?? "" : String(c.entry.action.ship);
      this.host.say(`That ends ${shipName(this.view, sid)}'s masking screen (the charge is lost): press it again to confirm.`, "warn");
      this.host.sound("error");
      this.render();
      return;
    }
    this.armed = null;
    this.busy = true;
    this.host.sound("confirm");
    // set before sending: the state the order brings may arrive before the submission's acceptance
    this.lastAct = c.entry.action.type;
    this.sinceAct = [];
    this.host.submit(c.entry.action).catch((err: unknown) => {
      this.lastAct = null;
      this.busy = false;
      const msg = err && typeof err === "object" && "message" in err ? String((err as { message: unknown }).message) : String(err);
      this.host.say(`Refused: ${msg}`, "error");
      this.host.sound("error");
    });
  }

  private renderControls(): void {
    const box = this.els.controls;
    box.replaceChildren();
    const v = this.view!;
    const s = this.snap!;
    const c = this.ctl!;
    if (s.status === "over" || v.stage === "over") {
      const r = s.result;
      const won = r && s.seat !== null && r.winners.includes(s.seat);
      const names = r?.winners.map((w) => (w === s.seat ? "You" : sideName(v, w, (p) => this.host.seatName(p)))) ?? [];
      const verdict = names.length ? `${names.join(" and ")} won` : "A draw";
      box.append(el("p", `kh-result ${won ? "won" : ""}`, r ? `${verdict}${r.reason ? `: ${r.reason}` : ""}` : "Game over"));
      return;
    }
    if (!s.to_act) {
      const p = v.stage === "repair" ? v.repair_player : v.stage === "declare" && v.fire_mode === "def" ? 1 - v.mover
        : v.stage === "intercept" ? 1 - v.mover : v.mover;
      const who = s.seat === null ? "You are watching." : `Waiting for ${sideName(v, p, (x) => this.host.seatName(x))}…`;
      box.append(el("p", "kh-wait", who));
      return;
    }
    if (v.stage === "move") this.moveControls(box, v, c);
    else if (v.stage === "declare") this.fireControls(box, v, c);
    else if (v.stage === "intercept") this.interceptControls(box, v, c);
    else if (v.stage === "repair") this.repairControls(box, v, c);
    for (const o of c.other) box.append(this.button(o.entry.text, o));
  }

  private moveControls(box: HTMLElement, v: KHView, c: Controls): void {
    if (c.steps.length) {
      const [sid, speed, , turns] = v.plotting ?? [this.selected ?? "", 0, 0, []];
      const sh = this.ship(sid);
      const first = note(c.steps[0]!, "step");
      const done = num(first.done) - 1;
      box.append(el("h3", "", `Plotting ${shipName(v, sid)}: hex ${done + 1} of ${speed}`));
      box.append(el("p", "kh-hint", `MR used ${num(first.turns) - (c.steps[0]!.entry.action.turn ? 1 : 0)} of ${sh?.mr ?? "?"}. ` +
        "Click or tap an arrowed hex on the map, or press 1 / 2 / 3 (or the buttons below)."));
      if (sh?.damaged_systems.nav && sh.navdir) {
        box.append(el("p", "kh-warn", `Navigation hit: this move must turn ${sh.navdir > 0 ? "left" : "right"} in every hex until its MR is used up.`));
      }
      if (sh?.evading) box.append(el("p", "kh-warn", "Evading: the ship must turn in each hex until its MR is used up."));
      if (sh && sh.masking >= 99) box.append(el("p", "kh-warn kh-mask-warn", `${sh.name}'s masking screen ends if it turns: go straight on to keep it.`));
      const row = el("div", "kh-row");
      const order = [1, 0, -1];
      for (const t of order) {
        const ch = c.steps.find((x) => x.entry.action.turn === t);
        if (!ch) continue;
        const n = note(ch, "step");
        const end = String(n.end ?? "");
        const label = end === "exit" ? "leave the battle" : end === "crash" ? "CRASH" : TURN_WORDS[t] ?? String(t);
        const facing = typeof n.facing === "number" ? ` → ${FACINGS[n.facing]}` : "";
        const risk = num(n.breakup) > 0 ? ` · break-up ${n.breakup}%` : "";
        row.append(this.button(`${label}${end ? "" : facing}${risk}`, ch, end === "crash" ? "danger" : t === 0 ? "primary" : "", String(order.indexOf(t) + 1)));
      }
      box.append(row);
      if (turns.length === 0 && c.steps.length === 1 && !sh?.damaged_systems.nav) {
        box.append(el("p", "kh-hint", "Only one way on: a planet or the ship's MR leaves no choice."));
      }
      return;
    }
    const ships = shipsWithChoices(c);
    const sel = this.selected && ships.includes(this.selected) ? this.selected : ships[0] ?? null;
    const plottedOwn = v.ships.filter((x) => v.plots[x.id] && x.owner === this.snap!.seat);
    if (sel) {
      const sh = this.ship(sel);
      box.append(el("h3", "", `${shipName(v, sel)}${sh ? `: speed ${sh.speed}, facing ${FACINGS[sh.facing]}, ADF ${sh.adf}, MR ${sh.mr}` : ""}`));
      if (sh && sh.masking > 0) {
        box.append(el("p", "kh-warn kh-mask-warn", sh.masking >= 99
          ? `${sh.name}'s masking screen is out: it lasts while the ship keeps its speed and heading. A new speed, a turn, a rotation, entering orbit or another screen ends it (the charge is lost).`
          : `${sh.name}'s masking screen lasts ${sh.masking} more movement phase${sh.masking > 1 ? "s" : ""}; switching on another screen ends it.`));
      }
      const screens = c.screens.get(sel) ?? [];
      if (screens.length) {
        const r = el("div", "kh-row");
        r.append(el("span", "kh-label", "Screens"));
        for (const ch of screens) r.append(this.button(ch.entry.text.replace(/^[^:]*: /, ""), ch, "small"));
        box.append(r);
      }
      const courses = c.courses.get(sel) ?? [];
      if (courses.length) {
        const speeds = [...new Set(courses.map((x) => Number(x.entry.action.speed)))].sort((a, b) => a - b);
        const r = el("div", "kh-row kh-speeds");
        r.append(el("span", "kh-label", "New speed"));
        for (const sp of speeds) {
          const opts = courses.filter((x) => x.entry.action.speed === sp);
          const pick = this.facingPick.get(sel) ?? sh?.facing ?? 0;
          const ch = opts.find((x) => x.entry.action.facing === pick) ?? opts[0]!;
          const risk = num(note(ch, "course").breakup);
          const b = this.button(`${sp}`, ch, sp === sh?.speed ? "primary" : "", sp <= 9 ? String(sp) : "");
          b.title = `${ch.entry.text}${risk ? `; break-up chance ${risk}% before turns (+${num(note(ch, "course").per_point)}% a turn)` : ""}`;
          if (risk) b.append(el("small", "kh-risk", `${risk}%`));
          r.append(b);
        }
        box.append(r);
        const rot = [...new Set(courses.map((x) => Number(x.entry.action.facing)))];
        if (rot.length > 1) {
          const r2 = el("div", "kh-row");
          r2.append(el("span", "kh-label", "Facing"));
          for (const f of rot.sort((a, b) => a - b)) {
            const b = el("button", `kh-btn small${(this.facingPick.get(sel) ?? sh?.facing) === f ? " on" : ""}`, FACINGS[f] ?? String(f));
            b.type = "button";
            b.setAttribute("aria-pressed", String((this.facingPick.get(sel) ?? sh?.facing) === f));
            b.addEventListener("click", () => {
              this.facingPick.set(sel, f);
              this.render();
            });
            r2.append(b);
          }
          r2.append(el("kbd", "", "R"));
          box.append(r2);
        }
        const per = num(note(courses[0]!, "course").per_point);
        if (per > 0) {
          box.append(el("p", "kh-warn", `Severely damaged: every ADF or MR point used this move adds ${per}% to the break-up chance (rolled before it moves).`));
        }
        box.append(el("p", "kh-hint", "Pick a speed, then plot the path hex by hex on the map. Speed 0 stops the ship."));
      }
      const orbits = c.orbits.get(sel) ?? [];
      if (orbits.length) {
        const r = el("div", "kh-row");
        r.append(el("span", "kh-label", "Orbit"));
        for (const ch of orbits) {
          const risk = num(note(ch, "orbit").breakup);
          r.append(this.button(`${ch.entry.action.clockwise ? "clockwise" : "counter-clockwise"}${risk ? ` · break-up ${risk}%` : ""}`, ch, "small"));
        }
        box.append(r);
      }
      const lays = c.lays.get(sel) ?? [];
      if (lays.length) {
        const r = el("div", "kh-row");
        r.append(el("span", "kh-label", "Drop"));
        for (const ch of lays) {
          const a = ch.entry.action;
          const at = Number(a.at);
          const where = at === 0 ? "where it starts" : `after ${at} hex${at > 1 ? "es" : ""}`;
          r.append(this.button(`${a.kind === "M" ? "mines" : "a seeker"} ${where}`, ch, "small"));
        }
        box.append(r);
      }
    }
    if (c.activates.length) {
      const r = el("div", "kh-row");
      r.append(el("span", "kh-label", "Seekers"));
      c.activates.forEach((ch, i) => {
        const name = seekerName(v, ch.entry, i);
        const b = this.button(name.long, ch, "small");
        b.title = `the seeker marked "${name.short}" on the map`;
        r.append(b);
      });
      box.append(r);
    }
    if (plottedOwn.length) {
      const ul = el("ul", "kh-plotted");
      for (const x of plottedOwn) {
        const p = v.plots[x.id]!;
        const n = p[2].filter((t) => t).length;
        ul.append(el("li", "", `✓ ${x.name}: speed ${p[0]}${p[0] ? (n ? `, ${n} turn${n > 1 ? "s" : ""}` : ", straight") : ""}`));
      }
      box.append(ul);
    }
    if (c.endMovement) {
      box.append(this.button("End movement", c.endMovement, "primary wide", "Enter"));
      box.append(el("p", "kh-hint", "Ships you did not plot hold their course: same speed, straight on."));
    } else if (!c.steps.length) {
      box.append(el("p", "kh-warn", "A ship cannot hold its course (it is evading, or a planet is ahead): plot it before ending movement."));
    }
  }

  /** The weapons of the selected ship that can fire now: [weapon index, choices]. */
  private weaponList(c: Controls): [string, number, Choice[]][] {
    const out: [string, number, Choice[]][] = [];
    const ships = [...c.assigns.keys()];
    const order = this.selected && ships.includes(this.selected) ? [this.selected, ...ships.filter((x) => x !== this.selected)] : ships;
    for (const sid of order) for (const [w, chs] of c.assigns.get(sid)!) out.push([sid, w, chs]);
    return out;
  }

  private fireControls(box: HTMLElement, v: KHView, c: Controls): void {
    const mode = v.fire_mode === "def" ? "Defensive fire: at any hex the enemy passed through" : "Offensive fire";
    box.append(el("h3", "", mode));
    const list = this.weaponList(c);
    if (this.weaponSel >= list.length) this.weaponSel = 0;
    if (v.declared.length) {
      const ul = el("ul", "kh-plotted");
      for (const [sid, , code, tid] of v.declared) {
        ul.append(el("li", "", `✓ ${shipName(v, sid)}'s ${WEAPON_NAMES[code] ?? code} → ${shipName(v, tid)}`));
      }
      box.append(ul);
    }
    if (!list.length) box.append(el("p", "kh-hint", "No other weapon can bear on a target."));
    else if (list.length === 1) {
      box.append(el("p", "kh-warn kh-last-weapon", v.declared.length
        ? "The last weapon that can bear: declaring it fires every declared weapon at once."
        : "The only weapon that can bear: declaring it fires it at once."));
    }
    const wrap = el("div", "kh-weapons");
    list.forEach(([sid, w, chs], i) => {
      const sh = this.ship(sid);
      const code = sh?.weapons[w]?.[0] ?? "?";
      const row = el("div", `kh-weapon${i === this.weaponSel ? " sel" : ""}`);
      const head = el("button", "kh-wname", `${shipName(v, sid)} · ${code} ${WEAPON_NAMES[code] ?? ""}`);
      head.type = "button";
      head.setAttribute("aria-pressed", String(i === this.weaponSel));
      head.addEventListener("click", () => {
        this.weaponSel = i;
        this.targetSel = 0;
        this.selected = sid;
        this.render();
      });
      row.append(head);
      const ts = el("div", "kh-row");
      chs.forEach((ch, j) => {
        const n = note(ch, "assign");
        const dtm = num(n.dtm);
        const odds = `${num(n.odds)}%`;
        const detail = `modified ${num(n.chance)}%, range ${num(n.range)}${n.head_on ? ", head-on" : ""}, vs ${String(n.column ?? "?")}, DTM ${dtm >= 0 ? "+" : ""}${dtm}${n.half ? ", half damage" : ""}${num(n.icm) ? `, ${n.icm}% per ICM` : ""}`;
        const b = this.button(`${shipName(v, String(ch.entry.action.target))} ${odds}`, ch, `small${i === this.weaponSel && j === this.targetSel ? " on" : ""}`);
        b.title = detail;
        if (i === this.weaponSel) b.append(el("small", "kh-detail", detail)); // the chosen weapon's in full, the rest compact
        ts.append(b);
      });
      row.append(ts);
      wrap.append(row);
    });
    box.append(wrap);
    if (c.fire) {
      box.append(this.button(v.declared.length ? `Fire ${v.declared.length} weapon${v.declared.length > 1 ? "s" : ""}` : "Hold fire", c.fire, "primary wide", "F"));
    }
  }

  private interceptControls(box: HTMLElement, v: KHView, c: Controls): void {
    const att = v.attacks.find((a) => a[7] < 0);
    if (att) {
      box.append(el("h3", "", `Incoming ${WEAPON_NAMES[att[2]] ?? att[2]} from ${shipName(v, att[0])} at ${shipName(v, att[3])}`));
      box.append(el("p", "kh-hint", `Range ${att[5]}${att[6] ? ", head-on" : ""}. Fire interceptor missiles from ships in the target's hex${c.intercepts.some((x) => x.entry.action.evade) ? ", or evade" : ""}.`));
    }
    const canEvade = c.intercepts.some((x) => x.entry.action.evade);
    if (canEvade) {
      const t = el("label", "kh-check");
      const cb = el("input");
      cb.type = "checkbox";
      cb.checked = this.evade;
      cb.addEventListener("change", () => {
        this.evade = cb.checked;
        this.render();
      });
      t.append(cb, document.createTextNode(" Evade (its next move must turn each hex) "), el("kbd", "", "V"));
      box.append(t);
    }
    const row = el("div", "kh-row");
    for (const ch of c.intercepts.filter((x) => Boolean(x.entry.action.evade) === (canEvade && this.evade))) {
      const n = Number(ch.entry.action.icms);
      const odds = num(note(ch, "intercept").odds);
      row.append(this.button(`${n} ICM${n === 1 ? "" : "s"}: ${odds}% to hit`, ch, n === 0 ? "" : "small", n <= 9 ? String(n) : ""));
    }
    box.append(row);
  }

  private repairList(c: Controls): [string, string, Choice[]][] {
    const out: [string, string, Choice[]][] = [];
    const ships = [...c.repairs.keys()];
    const order = this.selected && ships.includes(this.selected) ? [this.selected, ...ships.filter((x) => x !== this.selected)] : ships;
    for (const sid of order) for (const [t, chs] of c.repairs.get(sid)!) out.push([sid, t, chs]);
    return out;
  }

  private repairControls(box: HTMLElement, v: KHView, c: Controls): void {
    box.append(el("h3", "", "Repair turn: allocate damage control"));
    box.append(el("p", "kh-hint", "Each block of DCR repairs one item on d100 at most the block (90+ fails; 99-00: unrepairable in space). Your choices stay secret."));
    if (v.allocations.length) {
      const ul = el("ul", "kh-plotted");
      for (const [, sid, t, pts] of v.allocations) ul.append(el("li", "", `✓ ${shipName(v, sid)}: ${repairName(t, this.ship(sid))}, ${pts} DCR`));
      box.append(ul);
    }
    const list = this.repairList(c);
    if (this.repairSel >= list.length) this.repairSel = 0;
    const wrap = el("div", "kh-weapons");
    let last = "";
    list.forEach(([sid, t, chs], i) => {
      if (sid !== last) {
        last = sid;
        const left = num(note(chs[0]!, "repair").left);
        wrap.append(el("p", "kh-dcr-left", `${shipName(v, sid)}: ${left} DCR to share out this repair turn`));
      }
      const row = el("div", `kh-weapon kh-repair${i === this.repairSel ? " sel" : ""}`);
      const key = `${sid}/${t}`;
      const bi = Math.min(this.blockSel.get(key) ?? chs.length - 1, chs.length - 1);
      const label = el("label", "kh-wname", `${shipName(v, sid)}: ${repairName(t, this.ship(sid))}`);
      const line = el("div", "kh-row");
      const sel = el("select");
      sel.setAttribute("aria-label", `DCR block for ${repairName(t, this.ship(sid))} of ${shipName(v, sid)}`);
      chs.forEach((ch, j) => {
        const o = el("option", "", `${ch.entry.action.points} DCR: ${num(note(ch, "repair").success)}% success`);
        o.value = String(j);
        if (j === bi) o.selected = true;
        sel.append(o);
      });
      sel.addEventListener("change", () => {
        this.blockSel.set(key, Number(sel.value));
        this.repairSel = i;
      });
      row.append(label);
      line.append(sel);
      const b = el("button", "kh-btn small", "Allocate");
      b.type = "button";
      b.addEventListener("click", () => {
        const ch = chs[Number(sel.value)];
        if (ch) this.act(ch);
      });
      line.append(b);
      row.append(line);
      wrap.append(row);
    });
    box.append(wrap);
    if (c.endRepair) box.append(this.button("Done allocating", c.endRepair, "primary wide", "F"));
  }

  private overlay(): Overlay {
    const v = this.view!;
    const c = this.ctl!;
    const o: Overlay = { selected: this.selected, markers: [], lines: [], plotPath: [] };
    if (c.steps.length) {
      const n0 = note(c.steps[0]!, "step");
      if (Array.isArray(n0.path)) o.plotPath = n0.path;
      const t0 = stepTarget(c.steps[0]!);
      if (t0) o.markers.push({ hex: t0.entered, label: "", kind: "step" });
      for (const ch of c.steps) {
        const t = stepTarget(ch);
        const n = note(ch, "step");
        if (!t) continue;
        const end = String(n.end ?? "");
        const turn = Number(ch.entry.action.turn);
        const risk = num(n.breakup) > 0 ? ` ${n.breakup}%` : "";
        if (end) {
          o.markers.push({ hex: t.entered, label: end === "exit" ? "exit" : "CRASH", kind: end === "crash" ? "danger" : "step" });
          const from = Array.isArray(n.from) ? (n.from as Hex) : t.entered;
          o.markers.push({ hex: t.aim, label: "", kind: end === "crash" ? "danger" : "step", from });
        } else {
          o.markers.push({ hex: t.aim, label: `${turn === 1 ? "L" : turn === -1 ? "R" : "↑"}${risk}`, kind: "step", from: t.entered });
        }
      }
    }
    if (c.endMovement) {
      const paths = note(c.endMovement, "end_movement").paths;
      if (paths) o.plans = Object.values(paths);
    }
    if (this.selected) {
      for (const ch of c.lays.get(this.selected) ?? []) {
        const h = note(ch, "lay").hex;
        if (h) o.markers.push({ hex: h, label: ch.entry.action.kind === "M" ? "M" : "S", kind: "target" });
      }
    }
    c.activates.forEach((ch, i) => {
      const t = v.mines.find((m) => m[0] === ch.entry.action.seeker);
      if (t) o.markers.push({ hex: t[3], label: seekerName(v, ch.entry, i).short, kind: "target" });
    });
    if (v.stage === "declare") {
      const list = this.weaponList(c);
      const cur = list[this.weaponSel];
      if (cur) {
        cur[2].forEach((ch, j) => {
          const tg = this.ship(String(ch.entry.action.target));
          if (tg) o.markers.push({ hex: tg.hex, label: `${num(note(ch, "assign").odds)}%`, kind: j === this.targetSel ? "declared" : "target" });
        });
        const firer = this.ship(cur[0]);
        const tg = this.ship(String(cur[2][this.targetSel]?.entry.action.target));
        const h = cur[2][this.targetSel] ? note(cur[2][this.targetSel]!, "assign").hex : undefined;
        if (firer && tg) o.lines.push({ a: firer.hex, b: h ?? tg.hex, colour: "#ffe066", dash: true });
      }
      for (const [sid, , , tid] of v.declared) {
        const a = this.ship(sid);
        const b = this.ship(tid);
        if (a && b) o.lines.push({ a: a.hex, b: b.hex, colour: COLOUR.own });
      }
    }
    if (v.stage === "intercept") {
      const att = v.attacks.find((a) => a[7] < 0);
      const src = att ? this.ship(att[0]) : undefined;
      if (att) o.lines.push({ a: src?.hex ?? att[4], b: att[4], colour: "#ff6a6a", dash: true });
    }
    return o;
  }

  /** The moves and shots of the new events, animated on the map (the map skips it with reduced motion). */
  private animateEvents(events: LogEntry[]): void {
    if (!this.map || !this.view) return;
    const moves: { ship: string; path: Hex[] }[] = [];
    const shots: { a: Hex; b: Hex; hit: boolean }[] = [];
    for (const e of events) {
      const g = e.event as Record<string, unknown>;
      if (e.event.type === "moved" && Array.isArray(g.path)) moves.push({ ship: String(g.ship), path: g.path as Hex[] });
      if (e.event.type === "attack") {
        const src = this.ship(String(g.source));
        const tg = this.ship(String(g.target));
        const at = Array.isArray(g.hex) ? (g.hex as Hex) : tg?.hex;
        if (at) shots.push({ a: src?.hex ?? at, b: at, hit: Boolean(g.hit) });
      }
    }
    if (moves.length || shots.length) this.map.animate(moves, shots);
  }

  // --- the combat report ----------------------------------------------------------------------------------
  /** New events into the combat report, oldest first (an attack, then the damage it did, then the next
   *  attack); the list follows the newest line unless the player scrolled up to read. An update that brings no
   *  new events but a log that ends elsewhere (a replay that jumped) rebuilds the report from that log, silently. */
  private addReport(events: LogEntry[], log: LogEntry[]): void {
    if (!this.view || !this.els) return;
    const list = this.els.report;
    const key = (e: LogEntry | undefined): string => (e ? `${e.step}|${e.text}` : "");
    let quiet = false;
    if (!events.length && log.length && key(log[log.length - 1]) !== this.reportKey) {
      list.replaceChildren();
      events = log;
      quiet = true;
    }
    if (!events.length) return;
    this.reportKey = key(events[events.length - 1]);
    const follow = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    let spoken = 0;
    for (const e of events) {
      if (e.event.type === "game_over" && !quiet) {
        this.host.sound(this.snap?.seat !== null && (e.event.winners as number[] | undefined)?.includes(this.snap!.seat!) ? "win" : "lose");
      }
      const line = reportLine(e);
      if (!line) continue;
      list.append(el("li", `kh-${line.kind}`, line.text));
      if (quiet) continue;
      if (e.event.type === "attack") this.host.sound(line.kind === "hit" ? "hit" : "fire");
      if (spoken < 3 && (line.kind === "hit" || line.kind === "damage" || line.kind === "bad")) {
        this.host.say(line.text, "info");
        spoken++;
      }
    }
    while (list.children.length > 120) list.firstChild?.remove();
    if (follow || quiet) list.scrollTop = list.scrollHeight;
  }

  // --- map input ------------------------------------------------------------------------------------------
  private hoverHex(h: Hex | null): void {
    const v = this.view;
    const out = this.els.readout;
    if (!v || !h) {
      out.textContent = "";
      return;
    }
    const here = v.ships.filter((s) => s.status === "active" && hexEq(s.hex, h));
    const planet = v.map.planets.find(([, p]) => hexEq(p, h));
    const ring = v.map.planets.find(([, p]) => Math.max(Math.abs(p[0] - h[0]), Math.abs(p[1] - h[1]), Math.abs(p[0] + p[1] - h[0] - h[1])) === 1);
    const parts: string[] = [];
    const d = hexDistance(h, [0, 0]);
    if (planet) parts.push(`the planet ${planet[0]} (blocks movement and fire)`);
    else if (ring) parts.push(`${ring[0]}'s gravity: a ship passing is pulled one hexside toward it; heading straight at it, it crashes`);
    if (d > v.map.radius) parts.push("outside the battle: a ship that goes here has left it");
    else if (d === v.map.radius) parts.push("the edge of the battle");
    if (!parts.length && !here.length) parts.push("open space");
    for (const s of here) parts.push(`${s.name} (${v.sides[s.owner]}) speed ${s.speed} facing ${FACINGS[s.facing]}, hull ${s.hp - s.damage}/${s.hp}`);
    out.textContent = parts.join(" · ");
  }

  private clickHex(h: Hex): void {
    const v = this.view;
    const c = this.ctl;
    if (!v || !c) return;
    if (c.steps.length) {
      const ch = stepAt(c.steps, h);
      if (ch) {
        this.act(ch);
        return;
      }
    }
    if (v.stage === "declare" && this.snap?.to_act) {
      const cur = this.weaponList(c)[this.weaponSel];
      if (cur) {
        const ch = cur[2].find((x) => hexEq(this.ship(String(x.entry.action.target))?.hex ?? [NaN, NaN], h));
        if (ch) {
          this.act(ch);
          return;
        }
      }
    }
    const here = v.ships.filter((s) => s.status === "active" && hexEq(s.hex, h));
    if (here.length) {
      const i = here.findIndex((s) => s.id === this.selected);
      const next = here[(i + 1) % here.length]!;
      if (v.stage === "declare" && sideOf(next.owner, v.viewer) === "enemy" && this.snap?.to_act) {
        this.host.say(`${next.name} is not a target for the chosen weapon (out of range, out of its field of fire, or behind a planet).`, "warn");
      }
      this.select(next.id);
      return;
    }
    if (c.steps.length) {
      this.host.say("That hex is not one of the next steps: click one of the arrowed hexes ahead of the ship.", "warn");
    }
  }

  // --- keys -----------------------------------------------------------------------------------------------
  key(e: KeyboardEvent): boolean {
    if (typingInField(e) || e.ctrlKey || e.metaKey || e.altKey) return false;
    // Enter and Space on a focused button, link or menu are that control's (a panel button, the guide's Next)
    const t = e.target instanceof Element ? e.target.closest("button, a[href], select, summary, [role=button]") : null;
    if (t && (e.key === "Enter" || e.key === " ")) return false;
    const v = this.view;
    const c = this.ctl;
    if (!v || !c) return false;
    const k = e.key;
    if (k === "c" || k === "C") {
      const s = this.ship(this.selected);
      if (s) this.map.centreOn(s.hex);
      return true;
    }
    if (k === "h" || k === "H") {
      this.map.fit();
      return true;
    }
    if (k === "z" || k === "Z") {
      this.frameShips(false, false, true);
      return true;
    }
    if (!this.snap?.to_act) {
      if (k === "Enter" || /^[0-9]$/.test(k)) {
        this.host.say("It is not your decision now.", "info");
        return true;
      }
      return false;
    }
    if (k === "Tab") {
      const inPanel = document.activeElement && this.root.querySelector(".kh-side")?.contains(document.activeElement);
      if (inPanel) return false;
      const ships = shipsWithChoices(c);
      if (!ships.length) return false;
      const i = ships.indexOf(this.selected ?? "");
      this.select(ships[(i + (e.shiftKey ? -1 : 1) + ships.length) % ships.length]!);
      return true;
    }
    if (v.stage === "move") {
      if (c.steps.length && ["1", "2", "3"].includes(k)) {
        const t = [1, 0, -1][Number(k) - 1];
        const ch = c.steps.find((x) => x.entry.action.turn === t);
        if (ch) this.act(ch);
        else this.host.say(`You cannot ${TURN_WORDS[t!] ?? "do that"} here (MR used up, a forced turn, or a planet in the way).`, "warn");
        return true;
      }
      if (!c.steps.length && /^[0-9]$/.test(k) && this.selected) {
        const courses = c.courses.get(this.selected) ?? [];
        const pick = this.facingPick.get(this.selected) ?? this.ship(this.selected)?.facing;
        const opts = courses.filter((x) => x.entry.action.speed === Number(k));
        const ch = opts.find((x) => x.entry.action.facing === pick) ?? opts[0];
        if (ch) this.act(ch);
        else this.host.say(`Speed ${k} is not possible for ${shipName(v, this.selected)} (ADF ${this.ship(this.selected)?.adf ?? "?"} from speed ${this.ship(this.selected)?.speed ?? "?"}).`, "warn");
        return true;
      }
      if ((k === "r" || k === "R") && this.selected) {
        const fs = [...new Set((c.courses.get(this.selected) ?? []).map((x) => Number(x.entry.action.facing)))].sort((a, b) => a - b);
        if (fs.length > 1) {
          const cur = this.facingPick.get(this.selected) ?? this.ship(this.selected)?.facing ?? 0;
          this.facingPick.set(this.selected, fs[(fs.indexOf(cur) + 1) % fs.length]!);
          this.render();
        } else this.host.say("Only a stopped ship (or one in orbit) can rotate in place.", "info");
        return true;
      }
      if (k === "Enter") {
        if (c.endMovement) this.act(c.endMovement);
        else this.host.say(c.steps.length ? "Finish the plot first: choose the next hex." : "A ship cannot hold its course: plot it first.", "warn");
        return true;
      }
    }
    if (v.stage === "declare") {
      const list = this.weaponList(c);
      if (k === "[" || k === "]") {
        if (list.length) this.weaponSel = (this.weaponSel + (k === "]" ? 1 : -1) + list.length) % list.length;
        this.targetSel = 0;
        this.render();
        return true;
      }
      if (k === "{" || k === "}") {
        const n = list[this.weaponSel]?.[2].length ?? 0;
        if (n) this.targetSel = (this.targetSel + (k === "}" ? 1 : -1) + n) % n;
        this.render();
        return true;
      }
      if (k === "Enter") {
        const ch = list[this.weaponSel]?.[2][this.targetSel];
        if (ch) this.act(ch);
        else this.host.say("No weapon can bear on a target: press F to end the fire phase.", "info");
        return true;
      }
      if ((k === "f" || k === "F") && c.fire) {
        this.act(c.fire);
        return true;
      }
    }
    if (v.stage === "intercept") {
      if (k === "v" || k === "V") {
        if (c.intercepts.some((x) => x.entry.action.evade)) {
          this.evade = !this.evade;
          this.render();
        } else this.host.say("This target cannot evade (only fighters and assault scouts evade torpedoes).", "info");
        return true;
      }
      if (/^[0-9]$/.test(k)) {
        const canEvade = c.intercepts.some((x) => x.entry.action.evade);
        const ch = c.intercepts.find((x) => x.entry.action.icms === Number(k) && Boolean(x.entry.action.evade) === (canEvade && this.evade));
        if (ch) this.act(ch);
        else this.host.say(`Not ${k} ICMs: only ${Math.max(...c.intercepts.map((x) => Number(x.entry.action.icms)))} are available in that hex.`, "warn");
        return true;
      }
    }
    if (v.stage === "repair") {
      const list = this.repairList(c);
      if (k === "[" || k === "]") {
        if (list.length) this.repairSel = (this.repairSel + (k === "]" ? 1 : -1) + list.length) % list.length;
        this.render();
        return true;
      }
      const cur = list[this.repairSel];
      if ((k === "{" || k === "}") && cur) {
        const key = `${cur[0]}/${cur[1]}`;
        const n = cur[2].length;
        const i = this.blockSel.get(key) ?? n - 1;
        this.blockSel.set(key, Math.max(0, Math.min(n - 1, i + (k === "}" ? 1 : -1))));
        this.render();
        return true;
      }
      if (k === "Enter" && cur) {
        const n = cur[2].length;
        const ch = cur[2][Math.min(this.blockSel.get(`${cur[0]}/${cur[1]}`) ?? n - 1, n - 1)];
        if (ch) this.act(ch);
        return true;
      }
      if ((k === "f" || k === "F") && c.endRepair) {
        this.act(c.endRepair);
        return true;
      }
    }
    return false;
  }
}

export type { LegalEntry, Marker };
