/**
 * The tactical help overlay's game section: turn phases, movement, the Gun Combat Results Table, damage, the
 * ship table, ordnance, win conditions and controls. Every number comes from the board document's `tables`
 * (the engine's data, tables.py) and the scenario; the words follow the rules text. DOM only, no rules.
 */
export interface Tables {
  gun_combat: { columns: string[]; rows: { roll: string; results: string[] }[] };
  modifiers: { velocity_free: number; heroism_bonus: number; elimination_threshold: number; repair_per_turn: number;
    anti_nuke_odds: string; planetary_defense_odds: string; base_fire_range: number };
  other_damage: Record<string, string[]>;
  ships: { type: string; combat: number; defensive: boolean; fuel: number | null; cargo: number | null; cost: number;
    warship: boolean; torpedoes: boolean; fires_disabled: string }[];
  ordnance: { mass: Record<string, number>; lifetime: number; torpedo_boost_max: number; non_warship_nuke_limit: number };
  detection: { ship_range: number; base_range: number };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function table(head: string[], rows: (string | number)[][], caption: string): HTMLTableElement {
  const t = el("table", undefined, "tac-help-table");
  t.append(el("caption", caption));
  const tr = el("tr");
  for (const h of head) tr.append(el("th", h));
  const thead = el("thead");
  thead.append(tr);
  t.append(thead);
  const body = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    r.forEach((c, i) => row.append(el(i === 0 ? "th" : "td", String(c))));
    body.append(row);
  }
  t.append(body);
  return t;
}

function section(title: string, ...items: (HTMLElement | string)[]): HTMLElement {
  const s = el("section", undefined, "tac-help-section");
  s.append(el("h3", title));
  for (const it of items) s.append(typeof it === "string" ? el("p", it) : it);
  return s;
}

function list(items: [string, string][]): HTMLElement {
  const dl = el("dl", undefined, "tac-help-keys");
  for (const [k, v] of items) {
    dl.append(el("dt", k), el("dd", v));
  }
  return dl;
}

const LABELS: Record<string, string> = { "-": "–" };

export function buildHelp(tables: Tables | null, scenario: { name: string; summary: string; players: { home: string; target: string; escape_wins: boolean }[]; checkpoints: string[] } | null): HTMLElement {
  const root = el("div", undefined, "tac-help");
  if (scenario) {
    root.append(section(`Mission: ${scenario.name}`, scenario.summary || "",
      ...scenario.players.map((p, i) => `Player ${i + 1}: from ${p.home}${p.target ? `, land on ${p.target}` : ""}${p.escape_wins ? ", escape off the north edge" : ""}.`),
      ...(scenario.checkpoints.length ? [`Grand Tour: pass through the gravity of ${scenario.checkpoints.join(", ")}, then land at home.`] : [])));
  }
  root.append(section("Turn phases",
    list([["1 Astrogation", "plot fuel burns for your ships"], ["2 Ordnance", "launch mines, torpedoes or nukes (one item per ship)"],
      ["3 Movement", "ships move; gravity entered last turn applies now"], ["4 Combat", "gun attacks, counterattacks, planetary defense"],
      ["5 Transfers", "(some scenarios) fuel or cargo between ships in one hex on one course"]])));
  root.append(section("Movement and fuel",
    "Ships keep their velocity. A burn costs 1 fuel and shifts the velocity by one hex: pick an arrow around the dashed drift hex. Warships may overload (2 fuel, two hexes) once between resupplies. Gravity hexes deflect a ship one hex toward their body on its next move; a moon's weak gravity may be ignored once. Landing on a planetary base: from orbit (speed 1 in its gravity) with one burn. Touching a body anywhere else is a crash; ending more than two hexes off the map loses the ship."));
  if (tables) {
    const g = tables.gun_combat;
    root.append(section("Gun Combat Results Table",
      table(["Die", ...g.columns], g.rows.map((r) => [r.roll, ...r.results.map((x) => LABELS[x] ?? x)]), "Odds of attack against defence strength; roll 1d6"),
      `Range: −1 per hex from the attacker's closest approach to the target. Velocity: −1 per hex of relative speed above ${tables.modifiers.velocity_free}. Heroism: +${tables.modifiers.heroism_bonus}. The defender's ships in its hex on its course counterattack first. Planetary defense and fire at nukes: ${tables.modifiers.planetary_defense_odds}.`));
    root.append(section("Damage",
      `Dn: disabled n turns (no burns, no attacks); damage adds up and ${tables.modifiers.elimination_threshold} turns eliminate; ${tables.modifiers.repair_per_turn} turn repairs each turn; E: eliminated. A resupply at a friendly base clears damage.`,
      table(["Source", "1", "2", "3", "4", "5", "6"], Object.entries(tables.other_damage).map(([k, v]) => [k, ...v.map((x) => LABELS[x] ?? x)]), "Other damage (raw die)")));
    root.append(section("Ships",
      table(["Type", "Combat", "Fuel", "Cargo", "Cost"], tables.ships.map((s) => [
        s.type, `${s.combat}${s.defensive ? " D" : ""}`, s.fuel === null ? "∞" : s.fuel, s.cargo === null ? "∞" : s.cargo, s.cost]),
      "D: defensive only (never attacks)")));
    const m = tables.ordnance.mass;
    root.append(section("Ordnance",
      list([["Mine (N)", `mass ${m.mine}; damages every ship it meets`], ["Torpedo (T)", `mass ${m.torpedo}; warships; may boost ${tables.ordnance.torpedo_boost_max} hexes one way (1-6)`],
        ["Nuke (K)", `mass ${m.nuke}; destroys everything in its hex; ${tables.ordnance.non_warship_nuke_limit} per resupply for a non-warship`]]),
      `Ordnance lives ${tables.ordnance.lifetime} moves and follows gravity. Detection: ${tables.detection.ship_range} hexes from a ship, ${tables.detection.base_range} from a base.`));
  }
  root.append(section("Win conditions",
    "Land on your target (with colonists where the scenario says), finish the Grand Tour, escape, or eliminate the enemy fleet. The enemy may surrender."));
  root.append(section("Controls",
    list([["Click ship / Tab", "select a ship (Shift+Tab back)"], ["Click arrow / 1-6", "burn"], ["Shift+1-6", "overload"],
      ["0", "clear the burn"], ["G", "land (when the burn can land)"], ["V", "ignore weak gravity"], ["Enter", "confirm the turn / attack / skip"],
      ["Esc", "deselect, clear the target"], ["N T K", "mine, torpedo, nuke; 1-6 torpedo boost"], ["[ ]", "previous / next target"],
      ["{ }", "attack with all, or one attacker"], ["P", "assistant: plan a course to the hovered hex or your objective"],
      ["B", "apply the plan's first burn"], ["I", "hint (games against a bot)"], ["E", "focus the nearest enemy"], ["H", "centre on your fleet"],
      ["Home", "whole map"], ["WASD / arrows, + -", "pan, zoom; drag, wheel, pinch"], ["L M ?", "log, sound, this help"],
      ["Gamepad", "A confirm, B cancel, LB/RB ship, D-pad targets/attackers, X log, Y enemy, Start help, Back mute"]])));
  return root;
}
