/**
 * The ship roster sheet, drawn like the board game's ship record: hull points as a row of boxes with the
 * damage crossed off, ADF / MR / DCR (current of original), weapons and defenses with their ammunition boxes
 * and a line through destroyed systems, the damaged-systems boxes (power short, combat control, navigation,
 * damage control, electrical fire), the active screen and the masking screen. An enemy ship shows the record
 * as your side has seen it. Also the compact fleet list the sheet is chosen from.
 *
 * Owns DOM building of the sheet only; what is shown comes from the view.
 */
import { abbr, DEFENSE_NAMES, hullBoxes, type KHShip, type KHView, repairName, severe, sideName, sideOf, WEAPON_NAMES } from "./model";
import { el } from "../shell/dom";


function systemRow(code: string, count: number, max: number, status: number, names: Record<string, string>): HTMLElement {
  const row = el("li", `kh-sys${status ? " kh-lost" : ""}`);
  const name = el("span", "kh-sys-name", `${code} · ${names[code] ?? code}`);
  row.append(name);
  if (max > 0) {
    const boxes = el("span", "kh-ammo");
    boxes.setAttribute("aria-label", `${count} of ${max} left`);
    for (let i = 0; i < max; i++) boxes.append(el("i", i < count ? "on" : "off"));
    row.append(boxes);
  }
  if (status) row.append(el("span", "kh-tag bad", status === 2 ? "destroyed, unrepairable" : "destroyed"));
  return row;
}

export function shipSheet(s: KHShip, view: KHView): HTMLElement {
  const side = sideOf(s.owner, view.viewer);
  const card = el("section", `kh-sheet ${side}`);
  card.setAttribute("aria-label", `ship record: ${s.name}`);
  const head = el("header");
  head.append(el("span", "kh-abbr", abbr(s.class)), el("h3", "", s.name));
  const host = s.docked ? view.ships.find((x) => x.id === s.docked)?.name ?? "its base" : "";
  const planet = s.orbit ? view.map.planets[s.orbit[0]]?.[0] : undefined;
  const state = s.status === "destroyed" ? "destroyed" : s.status === "disengaged" ? "left the battle"
    : s.docked ? `docked at ${host}` : s.orbit ? `in orbit round ${planet ?? "a planet"}` : "";
  head.append(el("span", "kh-class", `${s.class.replace(/_/g, " ")} · ${view.sides[s.owner]}${state ? ` · ${state}` : ""}`));
  card.append(head);
  if (side === "enemy" && view.viewer !== null) {
    card.append(el("p", "kh-hint", "As your side has seen it: secret repairs do not show."));
  }
  // hull
  const hp = el("div", "kh-hull");
  const left = s.hp - s.damage;
  hp.append(el("span", "kh-label", `Hull ${left}/${s.hp}${severe(s) ? " · severely damaged" : ""}`));
  const boxes = el("div", "kh-boxes");
  boxes.setAttribute("role", "img");
  boxes.setAttribute("aria-label", `${left} of ${s.hp} hull points left`);
  const crossed = hullBoxes(s.hp, s.damage);
  crossed.forEach((x, i) => {
    const b = el("i", x ? "x" : "");
    if (i === Math.floor(s.hp / 2)) b.classList.add("half");
    boxes.append(b);
  });
  hp.append(boxes);
  card.append(hp);
  // stats
  const stats = el("dl", "kh-stats");
  const stat = (k: string, v: string, bad: boolean): void => {
    const d = el("div", bad ? "bad" : "");
    d.append(el("dt", "", k), el("dd", "", v));
    stats.append(d);
  };
  stat("ADF", `${s.adf}/${s.adf_max}`, s.adf < s.adf_max);
  stat("MR", `${s.mr}/${s.mr_max}`, s.mr < s.mr_max);
  stat("DCR", s.damaged_systems.dc ? `${s.dcr_max}, halved` : `${s.dcr_max}`, s.damaged_systems.dc);
  stat("Speed", String(s.speed), false);
  card.append(stats);
  // weapons and defenses
  const wl = el("ul", "kh-systems");
  wl.append(el("li", "kh-sys-head", "Weapons"));
  for (const [c, n, mx, st] of s.weapons) wl.append(systemRow(c, n, mx, st, WEAPON_NAMES));
  wl.append(el("li", "kh-sys-head", "Defenses"));
  for (const [c, n, mx, st] of s.defenses) {
    const r = systemRow(c, n, mx, st, DEFENSE_NAMES);
    if (s.screen === c) r.append(el("span", "kh-tag ok", s.damaged_systems.short ? "on (no power)" : "on"));
    if (c === "MS" && s.masking > 0) r.append(el("span", "kh-tag ok", s.masking >= 99 ? "out" : `out, ${s.masking} left`));
    wl.append(r);
  }
  card.append(wl);
  // damaged systems
  const ds = el("ul", "kh-damaged");
  const flags: [keyof KHShip["damaged_systems"], string][] = [
    ["short", "Power short"], ["ccs", "Combat control"], ["nav", "Navigation"], ["dc", "Damage control"],
    ["fire", "Electrical fire"],
  ];
  for (const [k, label] of flags) {
    const on = s.damaged_systems[k];
    const li = el("li", on ? "on" : "", `${on ? "☒" : "☐"} ${label}`);
    if (k === "nav" && on && s.navdir) li.textContent += ` (forced ${s.navdir > 0 ? "left" : "right"})`;
    ds.append(li);
  }
  card.append(el("span", "kh-label", "Damaged systems"), ds);
  if (s.unrepairable.length) card.append(el("p", "kh-hint", `Unrepairable in space: ${s.unrepairable.map((t) => repairName(t, s)).join(", ")}`));
  if (s.evading) card.append(el("p", "kh-hint", "Evading: its next move must turn in each hex until MR is used."));
  return card;
}

/** The compact fleet list: one button per ship (both sides, under the seat's name and fleet), with its hull bar. */
export function fleetList(view: KHView, selected: string | null, onPick: (id: string) => void, seatName?: (p: number) => string): HTMLElement {
  const wrap = el("div", "kh-fleet");
  for (const side of [0, 1]) {
    const col = el("div", `kh-fleet-side ${sideOf(side, view.viewer)}`);
    const who = view.viewer === side ? `${view.sides[side]} (you)` : sideName(view, side, seatName);
    col.append(el("span", "kh-label", who));
    for (const s of view.ships.filter((x) => x.owner === side)) {
      const b = el("button", `kh-ship-btn${s.id === selected ? " sel" : ""}${s.status !== "active" ? " gone" : ""}`);
      b.type = "button";
      b.dataset.ship = s.id;
      const bar = el("span", "kh-bar");
      const fill = el("i");
      fill.style.width = `${Math.max(0, (100 * (s.hp - s.damage)) / s.hp)}%`;
      bar.append(fill);
      b.append(el("span", "kh-abbr", abbr(s.class)), el("span", "kh-nm", s.name), bar);
      b.title = `${s.name}: ${s.hp - s.damage}/${s.hp} hull${s.status !== "active" ? `, ${s.status}` : ""}`;
      b.addEventListener("click", () => onPick(s.id));
      col.append(b);
    }
    wrap.append(col);
  }
  return wrap;
}
