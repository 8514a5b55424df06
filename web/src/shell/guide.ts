/**
 * The first-game guide's frame (COMMON spec 5): a screen offers its steps (`GameScreen.guide()`), the shell
 * runs them here. Each step is a card with a title, a text and "3 of 8"; Next / Back / Skip (Esc skips, from
 * anywhere); a step with an `anchor` (a CSS selector) rings that element and dims the rest of the page (the page
 * stays usable); a step with `until(snapshot)` is interactive: it waits for the player to do it (its Next reads
 * "Do it to go on" and stays disabled) and moves on by itself when a snapshot satisfies it.
 *
 * The card never takes the game's keys: only Esc (skip) and the keys pressed on its own buttons.
 *
 * Owns the guide's DOM and its progress; which titles were already offered is storage.ts's.
 */
import { el } from "./dom";
import type { GuideStep, Snapshot } from "./screen";

export class Guide {
  private index = 0;
  private card: HTMLElement;
  private ring: HTMLElement;
  private timer: ReturnType<typeof setInterval>;
  private done = false;
  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key === "Escape" && !e.defaultPrevented && !this.busy()) {
      e.preventDefault();
      e.stopImmediatePropagation();
      this.close("skipped");
    }
  };
  private readonly onResize = (): void => this.place();

  /** Start the guide over `parent`; `finished` is told how it ended ("done" or "skipped"). */
  constructor(
    private readonly parent: HTMLElement,
    private readonly steps: GuideStep[],
    private readonly finished: (how: "done" | "skipped") => void = () => undefined,
    /** True while another dialog is up: its Esc is its own. */
    private readonly busy: () => boolean = () => false,
  ) {
    this.ring = el("div", "guide-ring");
    this.ring.setAttribute("aria-hidden", "true");
    this.card = el("section", "guide-card");
    this.card.setAttribute("role", "dialog");
    this.card.setAttribute("aria-modal", "false");
    this.card.setAttribute("aria-live", "polite");
    this.card.setAttribute("aria-labelledby", "guide-title");
    parent.append(this.ring, this.card);
    window.addEventListener("keydown", this.onKey, { capture: true });
    window.addEventListener("resize", this.onResize);
    // the page moves under the ring (panels open, boards refit): follow it
    this.timer = setInterval(() => this.place(), 400);
    this.render(true);
  }

  get open(): boolean {
    return !this.done;
  }

  /** The step shown now (0-based). */
  get step(): number {
    return this.index;
  }

  /** A new snapshot: an interactive step that it satisfies moves the guide on. */
  update(snapshot: Snapshot): void {
    const cur = this.steps[this.index];
    if (!this.done && cur?.until && cur.until(snapshot)) this.go(this.index + 1);
    else this.place();
  }

  close(how: "done" | "skipped" = "skipped"): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.timer);
    window.removeEventListener("keydown", this.onKey, { capture: true });
    window.removeEventListener("resize", this.onResize);
    this.card.remove();
    this.ring.remove();
    this.finished(how);
  }

  private go(i: number): void {
    if (i >= this.steps.length) {
      this.close("done");
      return;
    }
    this.index = Math.max(0, i);
    this.render(true);
  }

  private render(focus: boolean): void {
    const step = this.steps[this.index]!;
    const n = this.steps.length;
    const h = el("h2", "", step.title);
    h.id = "guide-title";
    const progress = el("p", "guide-progress", `${this.index + 1} of ${n}`);
    const text = el("p", "guide-text", step.text);
    const row = el("div", "guide-actions");
    const back = el("button", "btn small", "Back");
    back.type = "button";
    back.disabled = this.index === 0;
    back.addEventListener("click", () => this.go(this.index - 1));
    const last = this.index === n - 1;
    const next = el("button", "btn small primary guide-next", step.until ? "Do it to go on" : last ? "Done" : "Next");
    next.type = "button";
    next.disabled = step.until !== undefined;
    next.addEventListener("click", () => this.go(this.index + 1));
    const skip = el("button", "btn small guide-skip", last && !step.until ? "Close" : "Skip the guide");
    skip.type = "button";
    skip.title = "Skip the guide (Esc); the help (?) can show it again";
    skip.addEventListener("click", () => this.close(last && !step.until ? "done" : "skipped"));
    row.append(back, next, skip);
    this.card.dataset.step = String(this.index);
    this.card.classList.toggle("guide-waiting", step.until !== undefined);
    this.card.replaceChildren(progress, h, text, row);
    this.place();
    // an interactive step leaves the focus to the game: its keys do what the step asks (Enter on a focused Skip
    // would skip the guide instead); the card is read out (aria-live) and Esc still skips
    if (focus && !next.disabled) next.focus({ preventScroll: true });
    else if (focus && this.card.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
  }

  /** Ring the anchor and put the card where it hides it least. */
  private place(): void {
    if (this.done) return;
    const step = this.steps[this.index];
    const target = step?.anchor ? document.querySelector<HTMLElement>(step.anchor) : null;
    const r = target && target.offsetParent !== null ? target.getBoundingClientRect() : null;
    if (!r || r.width === 0 || r.height === 0) {
      this.ring.hidden = true;
      this.card.dataset.at = "bottom";
      return;
    }
    const pad = 4;
    this.ring.hidden = false;
    Object.assign(this.ring.style, {
      left: `${Math.max(0, r.left - pad)}px`,
      top: `${Math.max(0, r.top - pad)}px`,
      width: `${Math.min(window.innerWidth, r.width + 2 * pad)}px`,
      height: `${Math.min(window.innerHeight, r.height + 2 * pad)}px`,
    });
    // the card goes to the half of the window the anchor's middle is not in
    this.card.dataset.at = r.top + r.height / 2 > window.innerHeight / 2 ? "top" : "bottom";
  }
}
