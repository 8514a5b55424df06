/**
 * The Knight Hawks section of the help overlay: a rules summary, the tables from the engine's data (the board
 * document: weapons, the Advanced Combat Table, the Damage Table, the ship classes) and the controls.
 *
 * Owns the help DOM only.
 */
import { DEFENSE_NAMES, type KHBoard } from "./model";
import { el } from "../shell/dom";


function table(head: string[], rows: (string | number)[][], caption: string): HTMLTableElement {
  const t = el("table", "kh-table");
  t.append(el("caption", "", caption));
  const thead = el("thead");
  const tr = el("tr");
  for (const h of head) tr.append(el("th", "", h));
  thead.append(tr);
  const tb = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    r.forEach((c, i) => row.append(el(i === 0 ? "th" : "td", "", String(c))));
    tb.append(row);
  }
  t.append(thead, tb);
  return t;
}

const SUMMARY = [
  "Each game turn, side A moves and fights, then side B. In your movement phase you plot every ship: a new speed " +
    "within its ADF of the old one, then one hex at a time, turning at most once a hex and at most MR times in all.",
  "The map: north is up (the compass in the corner shows it and the six sides a ship can face). A ship that " +
    "moves past the dashed red edge has left the battle; in an escape scenario the green edge marked EXIT is the " +
    "way out. Planets block movement and fire; a ship entering a planet's gravity ring head-on crashes, one passing " +
    "through is pulled one hexside toward it.",
  "A severely damaged ship (more than half its hull points lost) may break apart when it changes speed or " +
    "turns: the chance is shown before you commit.",
  "Combat: the other side fires defensively first, at any hex your ships passed through; then you fire. Each " +
    "weapon fires once a phase. The chance to hit depends on the weapon, the target's defense, range and head-on " +
    "shots; a hit rolls d100 + the weapon's modifier on the Damage Table.",
  "Torpedoes, rockets, mines and seekers can be stopped by interceptor missiles (ICMs) from ships in the target's " +
    "hex; fighters and assault scouts can evade torpedoes.",
  "Screens are switched on in movement. A released masking screen lasts while the ship keeps its speed and " +
    "heading: a choice that would end it is marked and needs a second press.",
  "When every weapon that can bear has been declared they fire at once, and when all your DCR is allocated the " +
    "repairs are rolled: what happened (and the enemy's fire) is shown on a card you continue before your next " +
    "decision, so a key meant for the last one never acts on the next.",
  "After every third turn comes a repair turn: split each ship's damage control rating (DCR) into blocks; each " +
    "block repairs one thing on d100 at most its size (90 or more fails, 99-00 can never be repaired in space).",
];

const CONTROLS: [string, string][] = [
  ["Click a ship / Tab", "select a ship (Shift+Tab: the previous one)"],
  ["0-9", "movement: plot that speed for the selected ship"],
  ["R", "movement: the next facing for a stopped ship"],
  ["1 2 3 or click an arrowed hex", "while plotting: turn left, go straight, turn right after the next hex"],
  ["Enter", "end movement / declare the chosen shot / allocate the chosen repair"],
  ["[ ]", "fire: previous / next weapon; repair: previous / next target"],
  ["{ }", "fire: previous / next target; repair: smaller / larger block"],
  ["click an enemy ship", "fire: aim the chosen weapon at it"],
  ["F", "fire the declared weapons (or hold fire) / end the repair allocation"],
  ["Enter, Space", "continue past a card of what happened"],
  ["0-9, V", "incoming missile: fire that many ICMs; V toggles evasion"],
  ["C", "centre on the selected ship"],
  ["Z / H", "frame the ships in play / show the whole map"],
  ["?", "this help; its First-game guide and Scenario briefing buttons show them again"],
  ["drag, wheel, WASD, + -", "pan and zoom the map"],
];

export function helpSection(board: KHBoard | null): HTMLElement {
  const root = el("div", "kh-help");
  root.append(el("h4", "", "The Advanced Game in brief"));
  for (const p of SUMMARY) root.append(el("p", "", p));
  root.append(el("h3", "", "Controls"));
  const dl = el("dl", "kh-keys");
  for (const [k, v] of CONTROLS) dl.append(el("dt", "", k), el("dd", "", v));
  root.append(dl);
  if (!board) return root;
  const w = board.weapons;
  root.append(el("h3", "", "Weapons"));
  root.append(table(
    ["code", "weapon", "range", "traits", "DTM", "damage", "ICM"],
    Object.entries(w).map(([c, x]) => [
      c, x.name, x.fired ? x.range : "laid",
      [x.ff ? "FF" : "", x.rd ? "RD" : "", x.mpo ? "MPO" : "", x.ltd ? "LTD" : ""].filter(Boolean).join(" ") || "-",
      x.dtm >= 0 ? `+${x.dtm}` : x.dtm, `${x.hdr[0]}d${x.hdr[1]}${x.hdr[2] ? `+${x.hdr[2]}` : ""}`, x.icm || "-",
    ]),
    "FF forward firing (+10% head-on), RD range diffusion (-5% a hex), MPO one shot per phase, LTD limited ammunition",
  ));
  root.append(el("h3", "", "Advanced Combat Table (% to hit)"));
  root.append(table(
    ["weapon", ...board.columns.map((c) => (c === "none" ? "none" : c))],
    Object.entries(board.combat_table).map(([c, row]) => [c, ...row]),
    board.columns.map((c) => `${c}: ${DEFENSE_NAMES[c] ?? c}`).join(" · "),
  ));
  root.append(el("h3", "", "Damage Table (d100 + DTM)"));
  root.append(table(
    ["roll", "result"],
    board.damage_table.map((r) => [
      r.low === r.high ? `${r.low}` : `${r.low} to ${r.high}`,
      `${r.result}${r.double ? " (double)" : ""}${r.amount ? ` (${r.amount})` : ""}${r.priority.length ? `: ${r.priority.join(", ")}` : ""}`,
    ]),
    "hull: roll the weapon's damage dice; weapon / defense: the first listed type the ship carries",
  ));
  root.append(el("h3", "", "Ships"));
  root.append(table(
    ["class", "HP", "ADF", "MR", "DCR", "weapons", "defenses"],
    Object.values(board.classes).map((k) => [
      k.name, k.hp, k.adf, k.mr, k.dcr, k.weapons.map(([c, n]) => (n > 1 ? `${c}×${n}` : c)).join(" "),
      k.defenses.map(([c, n]) => (n > 1 ? `${c}×${n}` : c)).join(" "),
    ]),
    "",
  ));
  return root;
}
