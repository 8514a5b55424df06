/**
 * Input tied to its decision (COMMON spec 6): no key or click meant for one decision may act on a later one.
 *
 * - The shell tells the gate each time the screen rendered a snapshot (`rendered`): its step, and the time the
 *   current decision (a new step) was first drawn.
 * - Every key press and pointer press is stamped with the step on screen when it happened (capture listeners on
 *   the window, ahead of every other listener); a submission made while that input is being handled carries
 *   that step (`stepForSubmit`), a submission made while the screen renders carries the rendered step, and the
 *   shell refuses it locally, in words, when a newer snapshot came in since (the server refuses stale steps too).
 *   A click or a drag counts from its press: a press on the old board released on the new one is stale.
 * - Key events older than the rendering of the viewer's current decision (queued while the page was busy
 *   drawing it) are dropped, and so are the auto-repeats of a key held down since before it.
 * - `acknowledge(title, lines)` shows a "what happened" card that takes every key and click until Continue
 *   (Enter, Space or a click on it); a key pressed before the card appeared never continues it. A screen calls
 *   it when an automatic resolution precedes the player's next decision. Cards queue: one at a time.
 *
 * Owns these rules and the card's DOM; it knows no game and sends nothing (match.ts submits).
 */
import { el, inTextField } from "./dom";

interface Card {
  title: string;
  lines: string[];
  resolve: () => void;
}

export class InputGate {
  /** The step of the snapshot the screen rendered last (-1 before any). */
  renderedStep = -1;
  /** `performance.now()` when the current decision (the rendered step) was first drawn. */
  decisionAt = 0;
  private pressStep: number | null = null;
  private inputStep: number | null = null;
  private rendering = false;
  private held = new Map<string, number>();
  private cards: Card[] = [];
  private layer: HTMLElement | null = null;
  private shownAt = 0;
  private returnFocus: HTMLElement | null = null;
  private idleWaiters: (() => void)[] = [];
  private modalOpen: () => boolean = () => false;
  private modalKey: (e: KeyboardEvent) => void = () => undefined;

  constructor(private readonly root: HTMLElement) {
    const opts = { capture: true };
    window.addEventListener("keydown", (e) => this.keydown(e), opts);
    window.addEventListener("keyup", (e) => {
      this.held.delete(e.code || e.key);
      if (this.layer) e.stopImmediatePropagation();
    }, opts);
    for (const type of ["pointerdown", "mousedown", "touchstart"] as const) {
      window.addEventListener(type, (e) => {
        if (this.blocks(e)) return;
        if (type === "pointerdown") this.press();
      }, opts);
    }
    for (const type of ["pointerup", "mouseup", "touchend", "click", "dblclick", "contextmenu"] as const) {
      window.addEventListener(type, (e) => {
        if (this.blocks(e)) return;
        this.stamp(this.pressStep ?? this.renderedStep);
        // a click ends the gesture: a later click the page makes by itself is judged by the rendered step
        if (type === "click") setTimeout(() => (this.pressStep = null), 0);
      }, opts);
    }
  }

  /** The screen drew the snapshot of `step` (call around `screen.update`, with the update inside `run`);
   *  `decides`: the viewer has a decision to make there. */
  rendered(step: number, decides: boolean, run: () => void): void {
    const fresh = step !== this.renderedStep;
    this.renderedStep = step;
    this.rendering = true;
    try {
      run();
    } finally {
      this.rendering = false;
      // a key pressed before this moment was pressed while an older position was on screen; it must not act on
      // the decision drawn now (a position without a decision of this viewer takes such keys: nothing to spoil,
      // and a held key keeps panning the board while the others move)
      if (fresh && decides) this.decisionAt = performance.now();
    }
  }

  /** A new match (a rematch) starts from nothing. */
  reset(): void {
    this.renderedStep = -1;
    this.decisionAt = performance.now();
    this.pressStep = this.inputStep = null;
  }

  /** The step a submission made now was meant for: the screen's own (`explicit`), the rendered one while the
   *  screen renders, else the step on screen when the input being handled happened. */
  stepForSubmit(explicit?: number): number {
    if (explicit !== undefined) return explicit;
    if (this.rendering) return this.renderedStep;
    return this.inputStep ?? this.renderedStep;
  }

  /** While `open()` holds (a shell dialog is up), every key goes to `handler` and to the dialog's own focused
   *  control, never to the screen or the shell's shortcuts. */
  setModal(open: () => boolean, handler: (e: KeyboardEvent) => void): void {
    this.modalOpen = open;
    this.modalKey = handler;
  }

  /** Is a "what happened" card up (or waiting)? */
  get acknowledging(): boolean {
    return this.layer !== null;
  }

  /** Resolves when no card is up or queued. */
  idle(): Promise<void> {
    if (!this.layer) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  acknowledge(title: string, lines: string[]): Promise<void> {
    return new Promise((resolve) => {
      this.cards.push({ title, lines, resolve });
      if (!this.layer) this.showNext();
    });
  }

  // ---- inputs ----

  private press(): void {
    this.pressStep = this.renderedStep;
    this.stamp(this.renderedStep);
  }

  /** The input being dispatched was made for `step` (until the dispatch is over: a task later). */
  private stamp(step: number): void {
    this.inputStep = step;
    setTimeout(() => {
      this.inputStep = null;
    }, 0);
  }

  /** While a card is up, a press or click outside it is swallowed. */
  private blocks(e: Event): boolean {
    if (!this.layer) return false;
    const card = this.layer.querySelector(".ack-card");
    if (card && e.target instanceof Node && card.contains(e.target)) return false;
    e.stopImmediatePropagation();
    if (e.cancelable) e.preventDefault();
    if (e.type === "pointerdown" || e.type === "touchstart") this.layer.querySelector<HTMLElement>(".ack-continue")?.focus();
    return true;
  }

  private keydown(e: KeyboardEvent): void {
    const id = e.code || e.key;
    if (this.layer) {
      this.cardKey(e);
      return;
    }
    if (this.modalOpen()) {
      this.modalKey(e);
      e.stopImmediatePropagation(); // its default (a focused button's Enter, Tab) still happens
      return;
    }
    if (inTextField(e)) return;
    const since = e.repeat ? this.held.get(id) ?? 0 : e.timeStamp;
    if (!e.repeat) this.held.set(id, e.timeStamp);
    if (since < this.decisionAt || e.timeStamp < this.decisionAt) {
      // pressed while an older position was on screen: it must not act on the decision drawn since
      e.stopImmediatePropagation();
      e.preventDefault();
      return;
    }
    this.press();
  }

  private cardKey(e: KeyboardEvent): void {
    const card = this.layer!;
    e.stopImmediatePropagation();
    if (e.key === "Tab") {
      const items = [...card.querySelectorAll<HTMLElement>("button")];
      if (items.length) {
        const i = items.indexOf(document.activeElement as HTMLElement);
        items[(i + (e.shiftKey ? items.length - 1 : 1)) % items.length]!.focus();
      }
      e.preventDefault();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return; // the browser's own shortcuts
    e.preventDefault();
    if ((e.key === "Enter" || e.key === " ") && !e.repeat && e.timeStamp >= this.shownAt) this.continue();
  }

  // ---- the card ----

  private showNext(): void {
    const card = this.cards[0];
    if (!card) return;
    if (!this.layer) this.returnFocus = document.activeElement as HTMLElement | null;
    const layer = el("div", "ack-layer");
    const box = el("section", "ack-card");
    box.setAttribute("role", "alertdialog");
    box.setAttribute("aria-modal", "true");
    const h = el("h2", "", card.title);
    h.id = "ack-title";
    box.setAttribute("aria-labelledby", h.id);
    const list = el("ul", "ack-lines");
    list.id = "ack-lines";
    for (const line of card.lines) list.append(el("li", "", line));
    box.setAttribute("aria-describedby", list.id);
    const go = el("button", "btn primary ack-continue", "Continue");
    go.type = "button";
    go.title = "Continue (Enter or Space)";
    go.setAttribute("aria-keyshortcuts", "Enter Space");
    go.addEventListener("click", (e) => {
      // a click's Enter or Space comes through cardKey; here only a real click (or tap)
      if (e.detail > 0 || (e as PointerEvent).pointerType) this.continue();
    });
    const row = el("div", "dialog-actions");
    row.append(go, el("span", "dim ack-hint", "Enter or Space"));
    box.append(h, list, row);
    layer.append(box);
    this.layer?.remove();
    this.layer = layer;
    this.root.append(layer);
    this.shownAt = performance.now();
    go.focus({ preventScroll: true });
  }

  private continue(): void {
    const card = this.cards.shift();
    card?.resolve();
    if (this.cards.length) {
      this.showNext();
      return;
    }
    this.layer?.remove();
    this.layer = null;
    // the next decision starts now: nothing pressed before this moment acts on it
    this.decisionAt = Math.max(this.decisionAt, performance.now());
    const to = this.returnFocus;
    this.returnFocus = null;
    if (to?.isConnected) to.focus({ preventScroll: true });
    const waiters = this.idleWaiters.splice(0);
    for (const w of waiters) w();
  }
}
