/**
 * The generic game screen: any game without its own screen is played here. The legal actions are a list of
 * buttons with the engine's text (click, or arrow keys / 1-9 and Enter; a filter when the list is long) and the
 * player's view is a readable collapsible tree. It only ever submits an entry of `snapshot.legal`.
 *
 * Owns this fallback screen's DOM only; the shell around it (header, log, chat, status) is match.ts's.
 */
import type { GameScreen, GuideStep, LegalEntry, LogEntry, ScreenHost, Snapshot } from "./screen";
import { el } from "./dom";

const FILTER_AT = 12; // a filter field appears above this many legal actions


/** A readable label for a JSON key: "hull_points" -> "hull points". */
function label(key: string): string {
  return key.replace(/_/g, " ");
}

function scalar(v: unknown): string {
  if (v === null) return "—";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}

/** The view as nested <details>: objects and arrays open to `openDepth`, scalars as "key: value" rows. */
export function viewTree(value: unknown, name: string, depth = 0, openDepth = 1): HTMLElement {
  if (value === null || typeof value !== "object") {
    const row = el("div", "vt-row");
    row.append(el("span", "vt-key", label(name)), el("span", "vt-val", scalar(value)));
    return row;
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [String(i + 1), v])
    : Object.entries(value as Record<string, unknown>);
  const box = el("details", "vt-node");
  box.open = depth < openDepth;
  const summary = el("summary");
  summary.append(el("span", "vt-key", label(name)));
  const count = Array.isArray(value) ? `${value.length} item${value.length === 1 ? "" : "s"}` : "";
  if (count) summary.append(el("span", "vt-count", count));
  if (entries.length === 0) summary.append(el("span", "vt-count", Array.isArray(value) ? "" : "empty"));
  box.append(summary);
  const body = el("div", "vt-body");
  for (const [k, v] of entries) body.append(viewTree(v, k, depth + 1, openDepth));
  box.append(body);
  return box;
}

export class GenericScreen implements GameScreen {
  private host!: ScreenHost;
  private actions!: HTMLElement;
  private list!: HTMLOListElement;
  private filter!: HTMLInputElement;
  private prompt!: HTMLElement;
  private tree!: HTMLElement;
  private snapshot: Snapshot | null = null;
  private busy = false;
  private focusIndex = 0;
  /** `?acknowledge=1` (debugging, the shell's tests): what happened since my last choice is shown on a card
   *  (`host.acknowledge`) before my next decision takes keys. */
  private readonly tell = new URLSearchParams(globalThis.location?.search ?? "").get("acknowledge") === "1";
  private happened: string[] = [];

  mount(root: HTMLElement, host: ScreenHost): void {
    this.host = host;
    root.classList.add("generic");
    this.actions = el("section", "generic-actions");
    this.actions.setAttribute("aria-label", "Your possible actions");
    const h = el("h2", "", "Actions");
    this.prompt = el("p", "generic-prompt");
    this.prompt.id = "generic-prompt";
    this.filter = el("input", "generic-filter");
    this.filter.type = "search";
    this.filter.placeholder = "Filter actions…";
    this.filter.setAttribute("aria-label", "Filter the actions");
    this.filter.hidden = true;
    this.filter.addEventListener("input", () => this.renderList());
    this.filter.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "Enter") {
        e.preventDefault();
        this.focusButton(0);
      }
    });
    this.list = el("ol", "generic-list");
    this.list.setAttribute("aria-describedby", "generic-prompt");
    this.actions.append(h, this.prompt, this.filter, this.list);
    const view = el("section", "generic-view");
    view.setAttribute("aria-label", "What you can see of the game");
    view.append(el("h2", "", "The game as you see it"));
    this.tree = el("div", "vt");
    view.append(this.tree);
    root.append(this.actions, view);
  }

  update(snapshot: Snapshot, newEvents: LogEntry[]): void {
    const stepChanged = this.snapshot?.step !== snapshot.step;
    const before = this.snapshot;
    this.snapshot = snapshot;
    if (this.tell && before && snapshot.seat !== null) {
      this.happened.push(...newEvents.map((e) => e.text).filter((t) => t));
      if (stepChanged && snapshot.to_act && this.happened.length && this.host.acknowledge) {
        void this.host.acknowledge("What happened", this.happened.splice(0).slice(-8));
      }
    }
    if (stepChanged) {
      this.busy = false;
      this.focusIndex = 0;
      this.filter.value = "";
    }
    this.renderPrompt();
    this.renderList();
    const open = new Set<string>();
    this.tree.querySelectorAll<HTMLDetailsElement>("details[data-path]").forEach((d) => {
      if (d.open) open.add(d.dataset.path ?? "");
    });
    this.tree.replaceChildren(viewTree(snapshot.view, "view", 0, 1));
    this.tree.querySelector("details")?.setAttribute("open", "");
    this.tree.querySelectorAll<HTMLDetailsElement>("details").forEach((d, i) => {
      d.dataset.path = String(i);
      if (open.has(String(i))) d.open = true;
    });
  }

  phase(snapshot: Snapshot): string {
    const v = snapshot.view;
    const phase = typeof v.phase === "string" ? label(v.phase) : null;
    if (snapshot.status === "over") return "Game over";
    const who = snapshot.to_act ? "your move" : snapshot.seat === null ? "watching" : "waiting";
    return phase ? `${phase[0]!.toUpperCase()}${phase.slice(1)}: ${who}` : who[0]!.toUpperCase() + who.slice(1);
  }

  /** A short guide to the generic screen (and the frame's own test without a game's screen). */
  guide(): GuideStep[] {
    const from = this.snapshot?.step ?? -1;
    return [
      { title: "Your possible actions", anchor: ".generic-actions",
        text: "Every move the rules allow you now is a button here, in the game's own words. Click one, or press its number (1-9); ↑ and ↓ move between them." },
      { title: "The game as you see it", anchor: ".generic-view",
        text: "This is everything you may know of the game: open a branch to read it. Hidden things (another player's hand) are not here." },
      { title: "Make a move", anchor: ".generic-list",
        text: "Pick an action now (click it or press 1). The guide goes on when the game has taken it.",
        until: (s) => s.step > from || s.status === "over" },
      { title: "What happened", anchor: ".side",
        text: "The log lists every move you may see, newest last; L shows or hides it. Players can chat below it." },
      { title: "Help", anchor: "button[aria-label='Help and controls']",
        text: "Press ? for the rules summary and every key. The help can show this guide again." },
    ];
  }

  help(): HTMLElement {
    const box = el("div");
    box.append(
      el("p", "", "This game has no picture of its own yet: its legal actions are listed as buttons and the game is shown as a tree of what you may see."),
      el("p", "", "Tab or ↑/↓ moves through the actions, 1–9 picks one of the first nine, Enter or a click submits it. Type in the filter box to narrow a long list."),
    );
    return box;
  }

  key(e: KeyboardEvent): boolean {
    if (!this.snapshot?.to_act) return false;
    const buttons = this.buttons();
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const cur = buttons.indexOf(document.activeElement as HTMLButtonElement);
      const next = cur < 0 ? 0 : cur + (e.key === "ArrowDown" ? 1 : -1);
      this.focusButton(Math.max(0, Math.min(buttons.length - 1, next)));
      return true;
    }
    if (/^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const b = buttons[Number(e.key) - 1];
      if (b) {
        b.focus();
        b.click();
        return true;
      }
    }
    if (e.key === "/" && !this.filter.hidden) {
      this.filter.focus();
      return true;
    }
    return false;
  }

  private buttons(): HTMLButtonElement[] {
    return [...this.list.querySelectorAll<HTMLButtonElement>("button")];
  }

  private focusButton(i: number): void {
    const b = this.buttons()[i];
    if (b) {
      this.focusIndex = i;
      b.focus();
    }
  }

  private renderPrompt(): void {
    const s = this.snapshot!;
    if (s.status === "over") this.prompt.textContent = "The game is over.";
    else if (s.seat === null) this.prompt.textContent = "You are watching: the players' choices appear in the log.";
    else if (s.submitted) this.prompt.textContent = `You chose: ${s.submitted.text}. Waiting for the others.`;
    else if (s.to_act) this.prompt.textContent = `Your move: ${s.legal.length} possible action${s.legal.length === 1 ? "" : "s"}.`;
    else this.prompt.textContent = "Not your move: waiting for the other players.";
  }

  private renderList(): void {
    const s = this.snapshot;
    if (!s) return;
    const legal = s.to_act ? s.legal : [];
    this.filter.hidden = legal.length <= FILTER_AT;
    const words = this.filter.hidden ? [] : this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const hadFocus = this.list.contains(document.activeElement);
    const items: HTMLLIElement[] = [];
    legal.forEach((entry, i) => {
      const text = entry.text.toLowerCase();
      if (!words.every((w) => text.includes(w))) return;
      items.push(this.item(entry, i, items.length));
    });
    this.list.replaceChildren(...items);
    if (legal.length && !items.length) this.list.append(el("li", "generic-none", "No action matches the filter."));
    if (hadFocus || (s.to_act && !this.actions.contains(document.activeElement) && document.activeElement === document.body)) {
      this.focusButton(Math.min(this.focusIndex, items.length - 1));
    }
  }

  private item(entry: LegalEntry, index: number, shown: number): HTMLLIElement {
    const li = el("li");
    const b = el("button", "generic-action");
    b.type = "button";
    b.dataset.index = String(index);
    if (shown < 9) b.append(el("kbd", "", String(shown + 1)));
    b.append(el("span", "generic-text", entry.text));
    if (entry.note) {
      const note = Object.entries(entry.note)
        .filter(([, v]) => v === null || typeof v !== "object")
        .map(([k, v]) => `${label(k)} ${scalar(v)}`)
        .join(" · ");
      if (note) b.append(el("span", "generic-note", note));
    }
    b.disabled = this.busy;
    b.addEventListener("click", () => this.choose(entry));
    b.addEventListener("focus", () => (this.focusIndex = shown));
    li.append(b);
    return li;
  }

  private choose(entry: LegalEntry): void {
    if (this.busy) {
      this.host.say("Your last action is still on its way to the server.", "warn");
      return;
    }
    this.busy = true;
    this.happened = [];
    this.buttons().forEach((b) => (b.disabled = true));
    this.host.sound("confirm");
    this.host.submit(entry.action).then(
      () => {
        /* the next state message redraws the list */
      },
      () => {
        this.busy = false;
        this.buttons().forEach((b) => (b.disabled = false));
      },
    );
  }
}
