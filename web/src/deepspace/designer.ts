/**
 * The fleet designer of the design phase: the ready-made fleets (the engine's `use_fleet` entries and their
 * notes), a ship form with the point budget shown as you type (60 points per size level; thrust, evasion and
 * endurance cost the ship's size per level, a weapon level costs 1), saved designs in localStorage, the ships
 * already commissioned and "finish fleet".
 *
 * It decides nothing: a commissioned ship becomes the engine's sequence of design steps (`designSteps`), each
 * one matched against the legal list when its turn comes; a step the engine does not offer stops the queue with
 * the reason. Owns the designer's DOM only.
 */
import type { LegalEntry } from "../shell/screen";
import { clear, el } from "../shell/dom";
import { button } from "./widgets";
import {
  type DraftDesign,
  designBudget,
  designCost,
  designSteps,
  draftProblem,
  type DsDraft,
  type DsView,
  fromDesignJson,
  parseSavedDesigns,
  type QueuedStep,
  noteOf,
  type ShipDesignJson,
} from "./model";

const STORE = "deltav.deepspace.designs";

export interface DesignerHost {
  pointsPerSize: number;
  /** queue these steps (one ship's design, or a single step such as done or use_fleet) */
  run(steps: QueuedStep[], label: string): void;
  say(text: string, kind?: "info" | "warn" | "error"): void;
  busy(): boolean;
}

export function loadSaved(): DraftDesign[] {
  try {
    return parseSavedDesigns(localStorage.getItem(STORE));
  } catch {
    return [];
  }
}

function storeSaved(list: DraftDesign[]): void {
  try {
    localStorage.setItem(STORE, JSON.stringify(list));
  } catch {
    /* storage full or disabled: the design is simply not kept */
  }
}

/** The steps still to take for a ship whose draft the engine already holds (after a reload mid-design). */
export function remainingSteps(d: DraftDesign, draft: DsDraft): QueuedStep[] {
  const all = designSteps(d);
  const done: Record<DsDraft["stage"], number> = {
    size: 0, thrust: 1, evasion: 2, endurance: 3, weapon: 4 + 2 * draft.weapons.length,
    damage: 5 + 2 * draft.weapons.length,
  };
  return all.slice(done[draft.stage]);
}

export class Designer {
  readonly root = el("div", { class: "ds-panel ds-modal ds-wide", role: "dialog", "aria-label": "Fleet designer", "data-testid": "ds-designer" });
  private form: DraftDesign = { name: "Cruiser", size: 2, thrust: 3, evasion: 10, endurance: 10, weapons: [[25, 31]] };
  private view: DsView | null = null;
  private legal: LegalEntry[] = [];

  constructor(private readonly host: DesignerHost) {}

  update(view: DsView, legal: LegalEntry[], toAct: boolean): void {
    this.view = view;
    this.legal = legal;
    const draft = view.mine?.draft;
    if (draft && draft.stage !== "size" && draft.size > 0) {
      this.form.size = draft.size;
    }
    this.render(toAct);
  }

  private free(): number {
    const v = this.view;
    if (!v || v.you === null) return 0;
    const levels = v.players[v.you]?.size_levels ?? 0;
    const used = (v.mine?.designs ?? []).reduce((s, d) => s + d.size, 0);
    return levels - used;
  }

  private render(toAct: boolean): void {
    const v = this.view;
    if (!v || v.you === null) return;
    const root = this.root;
    const focusId = (document.activeElement as HTMLElement | null)?.id ?? "";
    clear(root);
    const me = v.players[v.you]!;
    const designs = v.mine?.designs ?? [];
    const free = this.free();
    root.append(el("h2", { text: "Design your fleet" }));
    root.append(el("p", { class: "ds-dim" },
      `${me.size_levels} size levels to divide among your ships; each ship has ${this.host.pointsPerSize} design points per size level. `
      + "Thrust, evasion and endurance cost the ship's size per level; a weapon's targeting and damage cost 1 per level. "
      + "Your designs are secret until they show in battle."));
    const cols = el("div", { class: "ds-cols" });
    root.append(cols);

    // left: the fleet so far, ready-made fleets, saved designs
    const left = el("div");
    cols.append(left);
    left.append(el("h3", { text: `Your fleet: ${me.size_levels - free} of ${me.size_levels} size levels used` }));
    if (designs.length) left.append(sheet(designs));
    else left.append(el("p", { class: "ds-dim", text: "No ship yet." }));
    const fleets = this.legal.filter((e) => e.action.type === "use_fleet");
    if (fleets.length) {
      left.append(el("h3", { text: "Ready-made fleets" }));
      for (const e of fleets) {
        const n = noteOf(e, "use_fleet");
        const card = el("div", { class: "ds-fleetcard" });
        card.append(el("div", {}, el("strong", { text: n?.title ?? String(e.action.fleet) }),
          el("span", { class: "ds-dim", text: ` · ${n?.size_levels ?? "?"} levels` })));
        if (n?.ships) card.append(sheet(n.ships));
        card.append(el("div", { class: "ds-row" }, button("Adopt this fleet", () => this.host.run([e.action], `adopting ${n?.title ?? "the fleet"}`),
          { disabled: !toAct || this.host.busy(), testid: `ds-adopt-${String(e.action.fleet)}` })));
        left.append(card);
      }
    }
    const saved = loadSaved();
    left.append(el("h3", { text: "Saved designs (this browser)" }));
    if (!saved.length) left.append(el("p", { class: "ds-dim", text: "None yet: design a ship and press Save design." }));
    for (const [i, d] of saved.entries()) {
      const fits = d.size <= free && designCost(d) <= designBudget(d, this.host.pointsPerSize);
      const row = el("div", { class: "ds-row" },
        el("span", { class: "ds-num", text: `${d.name}: size ${d.size}, T${d.thrust} E${d.evasion} En${d.endurance}, ${d.weapons.length} weapon${d.weapons.length === 1 ? "" : "s"}` }));
      row.append(button("Load", () => {
        this.form = structuredClone(d);
        this.render(toAct);
      }, { title: fits ? "Put this design in the form" : "Too big for the size levels left, but you can edit it", testid: `ds-load-${i}` }));
      row.append(button("Delete", () => {
        const list = loadSaved();
        list.splice(i, 1);
        storeSaved(list);
        this.render(toAct);
      }));
      left.append(row);
    }

    // right: the ship form
    const right = el("div");
    cols.append(right);
    const draft = v.mine?.draft;
    const midway = draft && draft.stage !== "size";
    right.append(el("h3", { text: midway ? `Ship under design (size ${draft.size}): finish it` : "New ship" }));
    const f = this.form;
    const num = (id: string, label: string, value: number, hint: string, set: (n: number) => void, locked = false): HTMLElement => {
      const input = el("input", { id, type: "number", min: 0, step: 1, value, inputmode: "numeric", "aria-label": label });
      if (locked) input.disabled = true;
      input.addEventListener("input", () => {
        const n = Number(input.value);
        set(Number.isFinite(n) ? Math.floor(n) : 0);
        this.refreshBudget(budget, problem, commit);
      });
      return el("label", { class: "ds-field" }, el("span", { text: label }), input, el("span", { class: "ds-dim", id: `${id}-hint`, text: hint }));
    };
    const nameInput = el("input", { id: "ds-f-name", type: "text", value: f.name, maxlength: 40, "aria-label": "Design name", title: "The name your saved design is kept under" });
    nameInput.addEventListener("input", () => (f.name = nameInput.value || "Ship"));
    right.append(el("label", { class: "ds-field" }, el("span", { text: "Name" }), nameInput, el("span")));
    right.append(num("ds-f-size", "Size", f.size, `levels left: ${free}`, (n) => (f.size = n), !!midway));
    right.append(num("ds-f-thrust", "Thrust", f.thrust, "", (n) => (f.thrust = n), !!midway && draft!.stage !== "thrust"));
    right.append(num("ds-f-evasion", "Evasion", f.evasion, "", (n) => (f.evasion = n), !!midway && !["thrust", "evasion"].includes(draft!.stage)));
    right.append(num("ds-f-endurance", "Endurance", f.endurance, "", (n) => (f.endurance = n), !!midway && ["weapon", "damage"].includes(draft!.stage)));
    right.append(el("div", { class: "ds-weapon ds-dim" }, el("span", { text: "" }), el("span", { text: "targeting" }), el("span", { text: "damage" }), el("span")));
    f.weapons.forEach((w, i) => {
      const t = el("input", { id: `ds-f-w${i}t`, type: "number", min: 0, value: w[0], "aria-label": `Weapon ${i + 1} targeting` });
      const d = el("input", { id: `ds-f-w${i}d`, type: "number", min: 0, value: w[1], "aria-label": `Weapon ${i + 1} damage` });
      t.addEventListener("input", () => { w[0] = Math.floor(Number(t.value) || 0); this.refreshBudget(budget, problem, commit); });
      d.addEventListener("input", () => { w[1] = Math.floor(Number(d.value) || 0); this.refreshBudget(budget, problem, commit); });
      const rm = button("×", () => { f.weapons.splice(i, 1); this.render(toAct); }, { title: `Remove weapon ${i + 1}` });
      right.append(el("div", { class: "ds-weapon" }, el("span", { text: `Weapon ${i + 1}` }), t, d, rm));
    });
    right.append(el("div", { class: "ds-row" }, button("+ weapon", () => { f.weapons.push([10, 10]); this.render(toAct); }, { testid: "ds-add-weapon" })));
    const budget = el("div", { "data-testid": "ds-budget" });
    const problem = el("p", { class: "ds-problem", role: "status" });
    const commit = button(midway ? "Finish this ship" : "Commission ship", () => this.commission(), { cls: "ds-primary", testid: "ds-commission" });
    right.append(budget, problem);
    const saveBtn = button("Save design", () => {
      const list = loadSaved().filter((d) => d.name !== f.name);
      list.unshift(structuredClone(f));
      storeSaved(list.slice(0, 50));
      this.host.say(`Saved the design ${f.name} in this browser.`);
      this.render(toAct);
    }, { testid: "ds-save-design" });
    right.append(el("div", { class: "ds-row" }, commit, saveBtn));
    const done = this.legal.find((e) => e.action.type === "done");
    root.append(el("div", { class: "ds-row" },
      button("Finish fleet", () => done && this.host.run([done.action], "finishing the fleet"), {
        cls: done ? "ds-primary" : "", disabled: !done || !toAct || this.host.busy(), testid: "ds-finish-fleet",
        title: done ? "Your fleet is complete" : `Use all ${me.size_levels} size levels first (${free} left)`,
      }),
      el("span", { class: "ds-dim", text: done ? "All size levels used: your fleet is ready." : free > 0 ? `${free} size level${free === 1 ? "" : "s"} left to use.` : "" })));
    this.refreshBudget(budget, problem, commit);
    commit.disabled = commit.disabled || !toAct || this.host.busy();
    if (focusId) document.getElementById(focusId)?.focus();
  }

  private refreshBudget(budget: HTMLElement, problem: HTMLElement, commit: HTMLButtonElement): void {
    const f = this.form;
    const cost = designCost(f);
    const total = designBudget(f, this.host.pointsPerSize);
    clear(budget);
    const over = cost > total;
    budget.append(el("div", { class: "ds-num" }, el("strong", { text: `${cost} / ${total} points` }),
      el("span", { class: "ds-dim", text: over ? ` · ${cost - total} over` : ` · ${total - cost} left` })));
    const bar = el("div", { class: `ds-bar${over ? " ds-over" : ""}` }, el("span"));
    (bar.firstChild as HTMLElement).style.width = `${Math.min(100, total ? (100 * cost) / total : 0)}%`;
    budget.append(bar);
    const parts = [`ship stats ${f.size * (f.thrust + f.evasion + f.endurance)}`, `weapons ${f.weapons.reduce((s, [t, d]) => s + t + d, 0)}`];
    budget.append(el("div", { class: "ds-dim ds-num", text: parts.join(" · ") }));
    for (const [id, lv] of [["thrust", f.thrust], ["evasion", f.evasion], ["endurance", f.endurance]] as const) {
      const h = this.root.querySelector(`#ds-f-${id}-hint`);
      if (h) h.textContent = `× ${f.size} = ${lv * f.size} pts`;
    }
    const draft = this.view?.mine?.draft;
    const free = draft && draft.stage !== "size" ? f.size : this.free();
    const why = draftProblem(f, this.host.pointsPerSize, free);
    problem.textContent = why ? `Cannot commission yet: ${why}.` : "";
    commit.disabled = !!why || this.host.busy();
  }

  private commission(): void {
    const f = this.form;
    const draft = this.view?.mine?.draft;
    const why = draftProblem(f, this.host.pointsPerSize, draft && draft.stage !== "size" ? f.size : this.free());
    if (why) {
      this.host.say(`Cannot commission ${f.name}: ${why}.`, "warn");
      return;
    }
    const steps = draft && draft.stage !== "size" ? remainingSteps(f, draft) : designSteps(f);
    this.host.run(steps, `commissioning ${f.name}`);
  }
}

function sheet(ships: ShipDesignJson[]): HTMLElement {
  const t = el("table", { class: "ds-sheet" });
  t.append(el("tr", {}, ...["ship", "size", "thr", "eva", "end", "weapons (targeting/damage)"].map((h) => el("th", { text: h }))));
  for (const s of ships) {
    const d = fromDesignJson(s);
    t.append(el("tr", {},
      el("td", { text: d.name }), el("td", { class: "ds-r", text: String(d.size) }), el("td", { class: "ds-r", text: String(d.thrust) }),
      el("td", { class: "ds-r", text: String(d.evasion) }), el("td", { class: "ds-r", text: String(d.endurance) }),
      el("td", { text: d.weapons.map(([a, b]) => `${a}/${b}`).join(", ") || "none" })));
  }
  return t;
}
