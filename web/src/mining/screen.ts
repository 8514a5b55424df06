/**
 * The mining game screen (`GameScreen`): the field on a canvas (board.ts) beside the record sheets: the
 * prompt of the current decision with its controls, the running contract attempt, the contract cards, each
 * player's sheet (rockets, bribe counters and their state, incidents in hand with their text, collected tiles)
 * and the standings with the rulebook's tie-breaks.
 *
 * This module owns the field's interaction (pointer, keys, the selection) and the prompt; the sheets are built in
 * sheets.ts, the field drawn in board.ts.
 *
 * Every control stands for one entry of `snapshot.legal` (matched in model.ts, never built); a click that
 * stands for nothing is explained in words through `host.say`. Keyboard: arrows move a cursor over the field,
 * Enter or Space acts on it, Escape cancels a selection, digits press the prompt's numbered buttons, P
 * prospect, B buy, V survey, E end moves / looks.
 */
import type { GameScreen, LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { MiningBoard, type Marks } from "./board";
import { injectStyle } from "./styles";
import { type MiningGuideStep, miningGuide } from "./guide";
import { miningHelp } from "./help";
import {
  GRID, STATION, type MiningComponents, type MiningView, asView, bannerFor, clickSquare, entryLabel, happenedToMe, kindName, moveLabel,
  moveSources, noteOf, ofType, promptFor, seenLabel, squareName, squaresOf, statusFor, targetSquare, tileName,
} from "./model";
import { type PanelContext, attemptPanel, chip, contractsPanel, sheet, standingsPanel } from "./sheets";
import { el } from "../shell/dom";

export class MiningScreen implements GameScreen {
  private host!: ScreenHost;
  private root!: HTMLElement;
  private board!: MiningBoard;
  /** The game's static component data (tile mix, contracts), fetched once from the board endpoint. */
  private comps: MiningComponents | null = null;
  private canvas!: HTMLCanvasElement;
  private readout!: HTMLElement;
  private side!: HTMLElement;
  private snap: Snapshot | null = null;
  private selected: number | null = null;
  private cursor: number = STATION;
  private cursorShown = false;
  private hover: number | null = null;
  private drag: { from: number; x: number; y: number; moved: boolean } | null = null;
  /** Entries a click stood for when there were several (a bump or victim choice). */
  private choice: { title: string; entries: LegalEntry[] } | null = null;
  /** The survey chooser (pick the counter to pay) is open. */
  private surveyOpen = false;
  private pending = false;
  /** The first free number key after the prompt's buttons (the contract cards take the next ones). */
  private nextHotkey = 99;
  private raf = 0;
  private resizeObs: ResizeObserver | null = null;
  private lastToAct = false;
  private recent: { squares: Set<number>; t0: number } | null = null;
  private readonly reducedMotion = typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

  mount(root: HTMLElement, host: ScreenHost): void {
    this.host = host;
    injectStyle();
    this.root = el("div", "mn-root");
    this.root.dataset["screen"] = "mining";
    const wrap = el("div", "mn-boardwrap");
    this.canvas = el("canvas", "mn-board");
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute("role", "application");
    this.canvas.setAttribute("aria-label", "The asteroid field, 7 by 7 with the station in the centre. Arrow keys move the cursor, Enter acts on the square.");
    this.readout = el("div", "mn-readout", "Point at or tap a square (or focus the field and use the arrow keys) to read it.");
    this.readout.setAttribute("aria-live", "polite");
    wrap.append(this.canvas, this.readout);
    this.side = el("div", "mn-side");
    this.root.append(wrap, this.side);
    root.appendChild(this.root);
    this.board = new MiningBoard(this.canvas);
    this.attachPointer();
    // the keyboard cursor shows when the field is reached by keyboard (Tab), not after a mouse click
    this.canvas.addEventListener("focus", () => {
      if (!this.canvas.matches(":focus-visible")) return;
      this.cursorShown = true;
      this.describe(this.cursor);
      this.redraw();
    });
    // keys reach the screen from the shell (key()) and, when the focus is inside the screen, from here; the same
    // event is handled once
    this.root.addEventListener("keydown", (e) => { if (this.key(e)) e.preventDefault(); });
    this.resizeObs = new ResizeObserver(() => this.redraw());
    this.resizeObs.observe(this.canvas);
    (window as unknown as { deltavMining?: unknown }).deltavMining = this;
    void host.board().then((b) => {
      this.comps = (b as MiningComponents | null) ?? null;
      host.helpChanged?.(); // a help opened before the board came has no tile mix yet
    }, () => { this.comps = null; });
  }

  unmount(): void {
    this.resizeObs?.disconnect();
    cancelAnimationFrame(this.raf);
    this.root.remove();
  }

  // ---- snapshot ------------------------------------------------------------------------------------------

  update(snapshot: Snapshot, newEvents: LogEntry[]): void {
    const prev = this.snap;
    this.snap = snapshot;
    this.pending = false;
    if (!prev || prev.step !== snapshot.step) {
      this.choice = null;
      this.surveyOpen = false;
      const v = asView(snapshot);
      if (this.selected !== null && !moveSources(snapshot.legal).has(this.selected)) this.selected = null;
      if (v.phase !== "action" && v.phase !== "moving") this.selected = null;
    }
    this.narrate(newEvents);
    this.noteWhatHappened(prev, snapshot, newEvents);
    const touched = touchedSquares(newEvents);
    if (touched.size) this.recent = { squares: touched, t0: performance.now() };
    if (snapshot.to_act && !this.lastToAct) this.host.sound("turn");
    // the status line describes the current decision: said again whenever the decision changes
    if (!prev || prev.step !== snapshot.step || prev.status !== snapshot.status || prev.to_act !== snapshot.to_act) {
      this.host.say(statusFor(snapshot, (s) => this.name(s)));
    }
    if (snapshot.status === "over" && prev && prev.status !== "over") {
      const me = snapshot.seat;
      const r = snapshot.result;
      if (me !== null && r) this.host.sound(r.winners.includes(me) ? "win" : "lose");
    }
    const v = asView(snapshot);
    this.lastToAct = snapshot.to_act;
    this.root.dataset["phase"] = v.phase;
    this.root.dataset["toAct"] = String(snapshot.to_act);
    this.root.dataset["step"] = String(snapshot.step);
    this.root.dataset["status"] = snapshot.status;
    this.renderSide();
    // a new decision: bring where it is made into view (on a phone the field or the prompt may be scrolled away)
    if (snapshot.to_act && (!prev || asView(prev).phase !== v.phase || !prev.to_act)) {
      const target = BOARD_PHASES.has(v.phase) ? this.canvas : this.side.querySelector<HTMLElement>(".mn-prompt");
      const r = target?.getBoundingClientRect();
      if (target && r && (r.top < 0 || r.bottom > window.innerHeight)) target.scrollIntoView({ block: "nearest" });
    }
    if (this.described !== null) this.describe(this.described);
    this.redraw();
  }

  scoreLabel(): { title: string; help?: string } {
    return { title: "Points", help: "Points: the collected tile values, minus 2 per spent bribe counter held." };
  }

  phase(snapshot: Snapshot): string {
    return bannerFor(snapshot, (s) => this.name(s));
  }

  /** The first-game guide (the shell offers it on a first mining match and from the help). */
  guide(): MiningGuideStep[] {
    return miningGuide();
  }

  help(): HTMLElement {
    const v = this.snap ? asView(this.snap) : null;
    return miningHelp(v, this.comps);
  }

  /** A seat's name as every text of the match says it (the snapshot's names, else the host's), "(you)" after
   *  the viewer's own: "Ben (you)", never a bare "You" in the middle of a sentence. */
  private name(seat: number): string {
    const me = this.snap?.seat;
    const named = this.snap?.names?.[seat];
    const n = named ?? (this.host ? this.host.seatName(seat) : `Player ${seat + 1}`);
    if (me !== seat) return n;
    return /^you$/i.test(n) ? "You" : /\byou\b/i.test(n) ? n : `${n} (you)`;
  }

  /** Events since this seat's last decision; when the next one comes, those that changed its position are
   *  shown on the shell's "what happened" card first (so no key meant for the card acts on the decision). */
  private waited: LogEntry[] = [];

  private noteWhatHappened(prev: Snapshot | null, snap: Snapshot, events: LogEntry[]): void {
    const me = snap.seat;
    if (me === null || !this.host.acknowledge) return;
    if (prev && prev.to_act && prev.step !== snap.step) this.waited = [];
    this.waited.push(...events);
    if (!snap.to_act || (prev && prev.to_act) || snap.status === "over") return;
    const v = asView(snap);
    const lines = happenedToMe(this.waited, me, (sq) => (v.rockets[me]?.[sq] ?? 0) > 0);
    this.waited = [];
    if (lines.length) void this.host.acknowledge("While you waited", lines);
  }

  /** A sound for the newest event (its words are the engine's, read out by the shell's narrator). */
  private narrate(events: LogEntry[]): void {
    const last = events[events.length - 1]?.event.type;
    if (last === "contract-fulfilled") this.host.sound("win");
    else if (last === "attempt-failed") this.host.sound("error");
    else if (last === "tile-revealed") this.host.sound("hit");
    else if (last === "rockets-bumped" || last === "rocket-removed") this.host.sound("fire");
  }

  // ---- drawing -------------------------------------------------------------------------------------------

  private redraw(): void {
    cancelAnimationFrame(this.raf);
    this.raf = requestAnimationFrame(() => this.paint());
  }

  private marks(): Marks {
    const targets = new Map<number, string | null>();
    const chances = new Map<number, number>();
    const attempt = new Map<number, boolean>();
    const s = this.snap;
    if (s) {
      const v = asView(s);
      if (s.to_act && !this.pending) {
        if (this.selected !== null) {
          for (const e of ofType(s.legal, "move")) {
            if (e.action.frm === this.selected && typeof e.action.to === "number") targets.set(e.action.to, e.action.bump != null ? "bump" : null);
          }
        } else if (v.phase === "action" || v.phase === "moving") {
          for (const sq of moveSources(s.legal)) targets.set(sq, null);
        } else {
          for (const e of s.legal) {
            const sq = targetSquare(e);
            if (sq === null) continue;
            targets.set(sq, noteLabel(e));
            const chance = noteOf(e, "reveal")?.chance;
            if (typeof chance === "number") chances.set(sq, chance);
          }
        }
      }
      if (v.attempt) {
        for (const m of v.attempt.matched) attempt.set(m.square, true);
        if (v.attempt.mismatch !== null) attempt.set(v.attempt.mismatch, false);
      }
    }
    const recent = new Map<number, number>();
    if (this.recent) {
      const age = (performance.now() - this.recent.t0) / RECENT_MS;
      const alpha = this.reducedMotion ? 0.8 : Math.max(0, 1 - age);
      for (const sq of this.recent.squares) recent.set(sq, alpha);
    }
    return {
      targets, chances, attempt, recent, selected: this.selected, cursor: this.cursorShown ? this.cursor : null, hover: this.hover,
      drag: this.drag && this.drag.moved ? { from: this.drag.from, x: this.drag.x, y: this.drag.y } : null,
      // the full view of a replay shows every face: no label on each (the dashed frame says face down)
      seenLabel: s ? seenLabel(s, (p) => this.name(p)).replace(/^face down$/, "") : "you saw",
    };
  }

  private paint(): void {
    if (!this.snap) return;
    this.board.resize();
    this.board.draw(asView(this.snap), this.marks());
    this.canvas.dataset["drawn"] = String(this.snap.step);
    // the rings of the newest events fade out (held still under prefers-reduced-motion)
    if (this.recent && !this.reducedMotion && performance.now() - this.recent.t0 < RECENT_MS) {
      this.raf = requestAnimationFrame(() => this.paint());
    }
  }

  /** The squares highlighted as clickable now (what a player sees outlined; for the browser tests). */
  /** The keyboard cursor's square (for the browser tests). */
  cursorSquare(): number {
    return this.cursor;
  }

  targets(): number[] {
    return [...this.marks().targets.keys()].sort((a, b) => a - b);
  }

  // ---- pointer and keys ----------------------------------------------------------------------------------

  private pos(e: PointerEvent): [number, number] {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  private attachPointer(): void {
    const c = this.canvas;
    c.addEventListener("pointerdown", (e) => {
      const [x, y] = this.pos(e);
      const sq = this.board.squareAt(x, y);
      if (sq === null || !this.snap) return;
      const v = asView(this.snap);
      if ((v.phase === "action" || v.phase === "moving") && this.snap.to_act && moveSources(this.snap.legal).has(sq)) {
        this.drag = { from: sq, x, y, moved: false };
        c.setPointerCapture(e.pointerId);
      }
    });
    c.addEventListener("pointermove", (e) => {
      const [x, y] = this.pos(e);
      const sq = this.board.squareAt(x, y);
      if (this.drag) {
        this.drag.x = x;
        this.drag.y = y;
        if (sq !== this.drag.from) this.drag.moved = true;
        this.redraw();
      }
      if (sq !== this.hover) {
        this.hover = sq;
        if (sq !== null) this.describe(sq);
        this.redraw();
      }
    });
    c.addEventListener("pointerleave", () => { this.hover = null; this.redraw(); });
    c.addEventListener("pointerup", (e) => {
      const [x, y] = this.pos(e);
      const sq = this.board.squareAt(x, y);
      const d = this.drag;
      this.drag = null;
      if (d && d.moved) {
        // a drag is "select the source, then click the destination"
        this.selected = d.from;
        if (sq !== null && sq !== d.from) this.activate(sq);
        else this.redraw();
        return;
      }
      if (sq !== null) {
        this.cursor = sq;
        this.cursorShown = false;
        this.describe(sq); // a tap has no hover: the readout follows the square tapped
        this.activate(sq);
      }
    });
  }

  private lastKey: { event: KeyboardEvent; used: boolean } | null = null;

  key(e: KeyboardEvent): boolean {
    if (this.lastKey?.event === e) return this.lastKey.used;
    const used = this.handleKey(e);
    this.lastKey = { event: e, used };
    return used;
  }

  private handleKey(e: KeyboardEvent): boolean {
    if (!this.snap) return false;
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || (t instanceof HTMLElement && t.isContentEditable)) return false;
    if (e.ctrlKey || e.metaKey || e.altKey) return false;
    const k = e.key;
    const dirs: Record<string, [number, number]> = {
      ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
      w: [-1, 0], s: [1, 0], a: [0, -1], d: [0, 1],
    };
    const dir = dirs[k];
    if (dir) {
      const r = Math.min(GRID - 1, Math.max(0, Math.floor(this.cursor / GRID) + dir[0]));
      const c = Math.min(GRID - 1, Math.max(0, (this.cursor % GRID) + dir[1]));
      this.cursor = r * GRID + c;
      this.cursorShown = true;
      this.describe(this.cursor);
      this.redraw();
      return true;
    }
    if (k === "Enter" || k === " ") {
      if (document.activeElement instanceof HTMLButtonElement) return false;
      this.cursorShown = true;
      this.activate(this.cursor);
      return true;
    }
    if (k === "Escape") {
      if (this.selected !== null || this.choice || this.surveyOpen) {
        this.selected = null;
        this.choice = null;
        this.surveyOpen = false;
        this.host.say("Selection cancelled.");
        this.renderSide();
        this.redraw();
        return true;
      }
      return false;
    }
    if (/^[1-9]$/.test(k)) {
      const b = this.side.querySelector<HTMLButtonElement>(`button[data-hotkey="${k}"]`);
      if (b && !b.disabled) { b.click(); return true; }
      return false;
    }
    const shortcuts: Record<string, string> = { p: "prospect", b: "buy-rocket", e: "end" };
    const sc = shortcuts[k.toLowerCase()];
    if (sc) {
      const entry = this.snap.legal.find((x) => x.action.type === sc || (sc === "end" && (x.action.type === "end-moves" || x.action.type === "end-looks")));
      if (entry) { this.send(entry); return true; }
      this.host.say(sc === "end" ? "There is nothing to end now." : `You cannot ${sc === "prospect" ? "prospect" : "buy a rocket"} now.`, "warn");
      return true;
    }
    if (k.toLowerCase() === "v") {
      if (ofType(this.snap.legal, "survey").length) { this.surveyOpen = true; this.renderSide(); this.focusFirst(".mn-choose button"); }
      else this.host.say("You cannot start a satellite survey now.", "warn");
      return true;
    }
    return false;
  }

  private focusFirst(sel: string): void {
    this.side.querySelector<HTMLButtonElement>(sel)?.focus();
  }

  /** A click (or Enter) on a square. */
  private activate(sq: number): void {
    const s = this.snap;
    if (!s) return;
    if (this.pending) { this.host.say("Wait: your last choice is on its way to the server.", "warn"); return; }
    const res = clickSquare(s, sq, this.selected, (p) => this.name(p));
    const name = (p: number) => this.name(p);
    switch (res.kind) {
      case "select":
        this.selected = res.square;
        this.host.sound("select");
        this.host.say(`Rocket on ${squareName(res.square)} selected: now pick where it goes (highlighted). Escape cancels.`);
        break;
      case "deselect":
        this.selected = null;
        this.host.say("Rocket deselected.");
        break;
      case "refuse":
        // over or watching, a click or tap only reads the square (the readout): no warning, no error sound
        if (s.status === "over") break;
        if (s.seat === null) { this.host.say(res.why); break; }
        this.host.say(res.why, "warn");
        this.host.sound("error");
        break;
      case "submit":
        const only = res.entries.length === 1 ? res.entries[0] : undefined;
        const bumps = only && (only.action.type === "move" || only.action.type === "sabotage-move") && only.action.bump != null;
        if (only && !bumps) {
          this.send(only);
        } else if (only) {
          // a collision: say what it does before it happens
          const title = `${this.name(Number(only.action.bump))}'s rocket is on ${squareName(sq)}: landing there bumps it, and both rockets go back to their shipyards.`;
          this.choice = { title, entries: res.entries };
          this.host.say(title);
          this.renderSide();
          this.focusFirst(".mn-choose button");
        } else {
          const v = asView(s);
          const title = v.phase === "sabotage-target" ? `Whose rocket on ${squareName(sq)} do you sabotage?`
            : `Your rocket lands on opponents' rockets on ${squareName(sq)}: whose rocket do you bump?`;
          this.choice = { title, entries: res.entries };
          this.host.say(title);
          this.renderSide();
          this.focusFirst(".mn-choose button");
          void name;
        }
        break;
    }
    this.renderSide();
    this.redraw();
  }

  private send(entry: LegalEntry): void {
    if (!this.snap || this.pending) return;
    this.pending = true;
    this.choice = null;
    this.surveyOpen = false;
    if (entry.action.type === "move") this.selected = null;
    this.host.sound("confirm");
    this.renderSide();
    this.redraw();
    this.host.submit(entry.action).catch(() => {
      this.pending = false;
      this.renderSide();
      this.redraw();
    });
  }

  /** The readout line about a square (what this viewer knows of it, and the note of the action there). */
  private described: number | null = null;

  private describe(sq: number): void {
    this.described = sq;
    const s = this.snap;
    if (!s) return;
    const v = asView(s);
    const e = squaresOf(v)[sq];
    if (!e) return;
    const parts: string[] = [squareName(sq)];
    if (e.status === "station") parts.push("the space station");
    else if (e.status === "empty") parts.push("empty (tile collected)");
    else if (e.status === "face_down") {
      if (e.tile) {
        const seen = seenLabel(s, (p) => this.name(p));
        const how = e.public ? "face-down, public (known to all)"
          : seen === "face down" ? "face-down (every tile is shown in this replay)" : `face-down, ${seen}`;
        parts.push(`${how}: ${tileName(e.tile)}`);
      }
      else parts.push("face-down tile");
    } else if (e.tile) parts.push(`${e.status === "revealed" ? "revealed" : "face-up"}: ${tileName(e.tile)}`);
    if (e.looked_by.length) parts.push(`looked at by ${e.looked_by.map((p) => this.name(p)).join(", ")}`);
    const rockets = e.rockets.map((n, p) => (n ? `${this.name(p)} ×${n}` : "")).filter(Boolean);
    if (rockets.length) parts.push(`rockets: ${rockets.join(", ")}`);
    if (v.alien === sq) parts.push(rockets.length ? "the alien is here: these rockets are frozen" : "the alien is here");
    const entry = s.to_act ? s.legal.find((x) => targetSquare(x) === sq && x.note) : undefined;
    const n = noteOf(entry, "reveal");
    if (n) {
      if (typeof n.chance === "number") parts.push(`chance it counts: ${Math.round(n.chance * 100)}%`);
      if (typeof n.fits === "boolean") parts.push(n.fits ? "it counts for the contract" : "it would NOT count");
    }
    this.readout.textContent = parts.join(" · ");
  }

  // ---- the side panels -----------------------------------------------------------------------------------

  private renderSide(): void {
    const s = this.snap;
    if (!s) return;
    const v = asView(s);
    this.nextHotkey = 99;
    const focused = document.activeElement instanceof HTMLElement && this.side.contains(document.activeElement)
      ? document.activeElement.dataset["key"] : undefined;
    this.side.replaceChildren(this.promptPanel(s, v));
    const ctx = this.panelContext();
    if (s.status === "over") this.side.append(standingsPanel(ctx, v));
    if (v.attempt) this.side.append(attemptPanel(ctx, v));
    this.side.append(contractsPanel(ctx, s, v));
    const order = [...Array(v.players).keys()];
    if (s.seat !== null) order.sort((a, b) => (a === s.seat ? -1 : b === s.seat ? 1 : a - b));
    for (const p of order) this.side.append(sheet(ctx, s, v, p));
    if (s.status !== "over") this.side.append(standingsPanel(ctx, v));
    if (focused) this.side.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  private panelContext(): PanelContext {
    return {
      name: (p) => this.name(p),
      pending: this.pending,
      send: (e) => this.send(e),
      button: (e, label, key, cls, hotkey) => this.button(e, label, key, cls, hotkey),
      takeHotkey: () => (this.nextHotkey <= 9 ? this.nextHotkey++ : null),
    };
  }

  private button(entry: LegalEntry, label: string, key: string, cls = "", hotkey?: number): HTMLButtonElement {
    const b = el("button", `mn-btn ${cls}`.trim());
    b.type = "button";
    if (hotkey !== undefined && hotkey <= 9) {
      b.dataset["hotkey"] = String(hotkey);
      b.append(el("kbd", undefined, String(hotkey)));
    }
    b.append(document.createTextNode(label));
    b.dataset["key"] = key;
    b.dataset["action"] = entry.action.type;
    b.title = entry.text;
    b.disabled = this.pending;
    b.addEventListener("click", () => this.send(entry));
    return b;
  }

  private promptPanel(s: Snapshot, v: MiningView): HTMLElement {
    const name = (p: number) => this.name(p);
    const p = el("section", "mn-panel mn-prompt");
    p.setAttribute("aria-label", "Your decision");
    if (s.to_act) p.classList.add("mn-act");
    const pr = promptFor(s, name);
    p.append(el("h2", undefined, pr.head));
    if (pr.detail) p.append(el("p", undefined, pr.detail));
    if (this.pending) p.append(el("p", undefined, "Sending…"));
    if (!s.to_act) return p;
    const row = el("div", "mn-actions");
    const chooserOpen = this.choice !== null || (this.surveyOpen && ofType(s.legal, "survey").length > 0);
    let hot = chooserOpen ? 99 : 1;
    this.nextHotkey = 99;
    const surveys = ofType(s.legal, "survey");
    const windowed = v.phase === "pirate-window" || v.phase === "meteor-window";
    // in a reaction window the incident to play comes first; elsewhere incidents are played from their cards
    const rowEntries = [
      ...(windowed ? ofType(s.legal, "discard") : []),
      ...s.legal.filter((e) => {
        const t = e.action.type;
        return targetSquare(e) === null && !["declare", "survey", "discard", "steal"].includes(t);
      }),
    ];
    for (const e of rowEntries) {
      const t = e.action.type;
      const cls = t === "pass" && (v.phase === "replace" || v.phase === "bid-up-replace") ? "mn-warn" : t === "pass" ? "" : "mn-primary";
      const key = `act-${t}-${String(e.action["bribe"] ?? e.action["item"] ?? e.action["incident"] ?? "")}`;
      row.append(this.button(e, entryLabel(e, v, name, s.legal), key, cls, hot++));
    }
    if (surveys.length) {
      const b = el("button", "mn-btn mn-primary");
      b.type = "button";
      b.dataset["key"] = "survey-open";
      b.dataset["action"] = "survey-open";
      if (hot <= 9) {
        b.dataset["hotkey"] = String(hot);
        b.append(el("kbd", undefined, String(hot)));
      }
      hot++;
      b.append(document.createTextNode("Satellite survey…"));
      b.disabled = this.pending;
      b.addEventListener("click", () => { this.surveyOpen = !this.surveyOpen; this.renderSide(); this.focusFirst(".mn-choose button"); });
      row.append(b);
    }
    const chance = s.legal.map((e) => noteOf(e, "reveal")?.chance).find((x) => typeof x === "number");
    if (typeof chance === "number") {
      p.append(el("p", undefined, `Each tile shows its chance to count: ${Math.round(chance * 100)}% for any tile you have not seen; tiles you know say fits or no.`));
    }
    if (ofType(s.legal, "declare").length) p.append(el("p", undefined, "Pick a contract card below (the ones you can already complete from tiles you know are marked ✓ known)."));
    const steals = ofType(s.legal, "steal");
    if (steals.length) p.append(this.stealChooser(v, steals));
    if (row.childElementCount) p.append(row);
    this.nextHotkey = hot; // the contract cards continue the numbering
    if (this.surveyOpen && surveys.length) {
      const box = el("div", "mn-choose");
      box.append(el("p", undefined, "Pay which bribe counter? (−2 points at the end; then pick three tiles in one row or column)"));
      const r2 = el("div", "mn-actions");
      surveys.forEach((e, i) => r2.append(this.button(e, entryLabel(e, v, name).replace("Survey with ", ""), `survey-${String(e.action["bribe"])}`, "", i + 1)));
      box.append(r2);
      p.append(box);
    }
    if (this.choice) {
      const box = el("div", "mn-choose");
      box.append(el("p", undefined, this.choice.title));
      const r2 = el("div", "mn-actions");
      this.choice.entries.forEach((e, i) => {
        const label = e.action.type === "sabotage" ? `${this.name(Number(e.action["victim"]))}'s rocket` : moveLabel(e, name);
        r2.append(this.button(e, label, `choice-${i}`, "mn-primary", i + 1));
      });
      const cancel = el("button", "mn-btn", "Cancel");
      cancel.type = "button";
      cancel.addEventListener("click", () => { this.choice = null; this.renderSide(); });
      r2.append(cancel);
      box.append(r2);
      p.append(box);
    }
    if (this.selected !== null) {
      p.append(el("p", undefined, `Selected: your rocket on ${squareName(this.selected)}. Click a highlighted square to move it (Escape cancels).`));
    }
    return p;
  }

  /** The Alien Encounter's steal: one row per opponent, each item a button with its chip. */
  private stealChooser(v: MiningView, steals: LegalEntry[]): HTMLElement {
    const box = el("div", "mn-choose mn-steal");
    const byVictim = new Map<number, LegalEntry[]>();
    for (const e of steals) {
      const id = String(e.action["item"]);
      const b = v.bribes.find((x) => x.id === id);
      const owner = b ? b.holder : v.hands.findIndex((h) => h.some((t) => t.id === id));
      byVictim.set(owner, [...(byVictim.get(owner) ?? []), e]);
    }
    for (const [victim, list] of byVictim) {
      const r = el("div", "mn-row");
      r.append(el("span", "mn-lbl", `${this.name(victim)}:`));
      for (const e of list) {
        const id = String(e.action["item"]);
        const b = v.bribes.find((x) => x.id === id);
        const t = v.hands[victim]?.find((x) => x.id === id);
        const kind = b ? b.mineral : t?.kind ?? "";
        const btn = this.button(e, kindName(kind), `steal-${id}`);
        btn.prepend(chip(kind));
        btn.setAttribute("aria-label", entryLabel(e, v, (q) => this.name(q)));
        r.append(btn);
      }
      box.append(r);
    }
    return box;
  }
}

const RECENT_MS = 1600;
const BOARD_PHASES = new Set(["survey", "scan", "reveal", "bid-up-reveal", "alien-move", "reveal-choice", "sabotage-target", "sabotage-move", "moving"]);

/** The squares the events name (revealed, moved to or from, bumped, looked at, the alien's), for their rings. */
export function touchedSquares(events: LogEntry[]): Set<number> {
  const out = new Set<number>();
  for (const { event: e } of events) {
    for (const k of ["square", "dest", "frm"]) {
      const v = e[k];
      if (typeof v === "number" && v !== STATION) out.add(v);
    }
    if (Array.isArray(e["squares"])) for (const v of e["squares"]) if (typeof v === "number") out.add(v);
  }
  return out;
}

/** The short label drawn on a target square from its note: whether a tile you know counts. (The chance of an
 *  unknown tile is the same for every square, so the prompt says it once.) */
function noteLabel(e: LegalEntry): string | null {
  const n = noteOf(e, "reveal");
  if (!n) return null;
  if (typeof n.fits === "boolean") return n.fits ? "fits" : "no";
  return null;
}
