/**
 * The dialogs over a ship's stats: damage allocation (the ship's record sheet with the hit points to place, one
 * control per stat offering exactly the engine's legal amounts with what each removes, and the default
 * allocation's preview from its note) and the self-destruct declaration (the explosion's Damage level and the
 * ships sharing the hex, from the note).
 *
 * Owns these two dialogs' DOM only; every button submits one legal entry.
 */
import type { LegalEntry } from "../shell/screen";
import { el } from "../shell/dom";
import { button } from "./widgets";
import { type DsShip, type DsView, type Namer, noteOf } from "./model";

export interface DialogHost {
  submit(e: LegalEntry): void;
  busy(): boolean;
  /** the same answer for this ship and every later one of the player's in this phase (a queue of legal steps) */
  forAll(kind: "auto" | "stand_down"): void;
  /** how many of the player's ships are still to decide in this phase, this one included */
  left: number;
  /** how the page names ships */
  names: Namer;
}

const STAT_LABEL: Record<string, string> = { thrust: "Thrust", evasion: "Evasion", endurance: "Endurance" };

function statText(stat: string, weapon: unknown): string {
  if (weapon === null || weapon === undefined) return STAT_LABEL[stat] ?? stat;
  return `Weapon ${Number(weapon) + 1} ${stat}`;
}

export function planText(plan: unknown): string {
  if (!Array.isArray(plan) || !plan.length) return "nothing to remove";
  return plan
    .map((p) => {
      const [stat, w, hp, levels] = p as [string, number | null, number, number];
      return `${statText(stat, w)} −${levels} (${hp} hp)`;
    })
    .join(", ");
}

export function allocationDialog(view: DsView, ship: DsShip, legal: LegalEntry[], host: DialogHost): HTMLElement {
  const root = el("div", { class: "ds-panel ds-side-dialog", role: "dialog", "aria-label": "Allocate damage", "data-testid": "ds-allocate" });
  const pending = ship.pending ?? 0;
  const phaseWord = view.step === "blast" ? "the explosion" : "enemy fire";
  root.append(el("h2", { text: `${host.names.Ship(ship)} took ${pending} hit point${pending === 1 ? "" : "s"}` }));
  root.append(el("p", { class: "ds-dim ds-explain" },
    `You choose where the damage from ${phaseWord} goes. A ship stat (thrust, evasion, endurance) loses one level per ${ship.size} hit points (its size); `
    + "a weapon stat loses one level per hit point. A ship whose stats are all zero is destroyed."));
  const auto = legal.find((e) => e.action.type === "auto_allocate");
  if (auto) {
    root.append(el("div", { class: "ds-row" },
      button("Default allocation", () => host.submit(auto), { cls: "ds-primary", kbd: "A", disabled: host.busy(), testid: "ds-auto" }),
      host.left > 1 ? button(`Default for all ${host.left} damaged ships`, () => host.forAll("auto"), { disabled: host.busy(), testid: "ds-auto-all" }) : null,
      el("span", { class: "ds-dim", text: planText(noteOf(auto, "auto_allocate")?.plan) })));
  }
  const plan = noteOf(auto, "auto_allocate")?.plan;
  if (Array.isArray(plan)) {
    const removed = new Map<string, number>();
    for (const p of plan) removed.set(`${p[0]}|${String(p[1])}`, p[3]);
    const everything = [["thrust", null, ship.thrust ?? 0], ["evasion", null, ship.evasion ?? 0], ["endurance", null, ship.endurance ?? 0],
      ...(ship.weapons ?? []).flatMap(([tg, dm], i) => [["targeting", i, tg], ["damage", i, dm]])] as [string, number | null, number][];
    if (everything.every(([st, w, lv]) => lv <= 0 || removed.get(`${st}|${String(w)}`) === lv)) {
      root.append(el("p", { class: "ds-problem", text: "These hit points are more than everything the ship has left: it is destroyed whatever you choose." }));
    }
  }
  const rows = new Map<string, LegalEntry[]>();
  for (const e of legal) {
    if (e.action.type !== "allocate") continue;
    const k = `${String(e.action.stat)}|${String(e.action.weapon)}`;
    const list = rows.get(k) ?? [];
    list.push(e);
    rows.set(k, list);
  }
  const t = el("table", { class: "ds-sheet" });
  t.append(el("tr", {}, el("th", { text: "stat" }), el("th", { class: "ds-r", text: "level" }), el("th", { text: "hit points here" }), el("th")));
  const levels: [string, number | null, number][] = [
    ["thrust", null, ship.thrust ?? 0], ["evasion", null, ship.evasion ?? 0], ["endurance", null, ship.endurance ?? 0],
  ];
  (ship.weapons ?? []).forEach(([tg, dm], i) => {
    levels.push(["targeting", i, tg], ["damage", i, dm]);
  });
  for (const [stat, w, level] of levels) {
    const opts = rows.get(`${stat}|${String(w)}`) ?? [];
    const tr = el("tr", { class: "ds-alloc-row" }, el("td", { text: statText(stat, w) }), el("td", { class: "ds-r ds-num", text: String(level) }));
    if (!opts.length) {
      tr.append(el("td", { class: "ds-dim", text: level <= 0 ? "no level left" : "cannot take these hit points" }), el("td"));
    } else {
      const sel = el("select", { "aria-label": `Hit points on ${statText(stat, w)}`, "data-testid": `ds-alloc-${stat}-${String(w)}` });
      for (const [i, e] of opts.entries()) {
        const lv = noteOf(e, "allocate")?.levels ?? 0;
        const lost = noteOf(e, "allocate")?.lost ?? 0;
        sel.append(el("option", { value: i, text: `${String(e.action.hp)} hp: −${lv} level${lv === 1 ? "" : "s"}${lost ? `, ${lost} lost` : ""}` }));
      }
      sel.value = String(opts.length - 1); // the most this stat can take: usually what a player wants
      const apply = button("Place", () => {
        const e = opts[Number(sel.value)];
        if (e) host.submit(e);
      }, { disabled: host.busy(), testid: `ds-place-${stat}-${String(w)}` });
      tr.append(el("td", {}, sel), el("td", {}, apply));
    }
    t.append(tr);
  }
  root.append(t);
  return root;
}

export function destructDialog(view: DsView, ship: DsShip, legal: LegalEntry[], host: DialogHost): HTMLElement {
  const root = el("div", { class: "ds-panel ds-side-dialog", role: "dialog", "aria-label": "Self-destruct", "data-testid": "ds-destruct" });
  const no = legal.find((e) => e.action.type === "self_destruct" && e.action.detonate === false);
  const yes = legal.find((e) => e.action.type === "self_destruct" && e.action.detonate === true);
  root.append(el("h2", { text: `Destruction phase: ${host.names.Ship(ship)}` }));
  const n = noteOf(yes, "self_destruct");
  const inHex = (n?.in_hex ?? []).map((id) => view.ships.find((s) => s.id === id)).filter((s): s is DsShip => !!s);
  root.append(el("p", {},
    `Self-destruct: the ship explodes with a Damage level equal to its remaining stat levels (${n?.damage_level ?? "?"}); `
    + "every other ship in its hex rolls Endurance against it, and the exploding ship is destroyed. Declarations are secret and simultaneous."));
  if (inHex.length) {
    root.append(el("p", {}, "In its hex: " + inHex.map((s) => `${host.names.ship(s)}${s.owner === view.you ? " (yours!)" : ""}`).join(", ") + "."));
  } else {
    root.append(el("p", { class: "ds-dim", text: "No other ship shares its hex: an explosion would hit nothing." }));
  }
  root.append(el("div", { class: "ds-row" },
    no ? button("Stand down", () => host.submit(no), { cls: "ds-primary", kbd: "N", disabled: host.busy(), testid: "ds-stand-down" }) : null,
    no && host.left > 1 ? button(`Stand down all ${host.left}`, () => host.forAll("stand_down"), { kbd: "Shift+N", disabled: host.busy(), testid: "ds-stand-down-all" }) : null,
    yes ? button("Detonate", () => host.submit(yes), { cls: "ds-danger", kbd: "Y", disabled: host.busy(), testid: "ds-detonate" }) : null));
  return root;
}
