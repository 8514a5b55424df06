/**
 * The tactical help overlay's game section: the mission, turn phases, movement, the map symbols (drawn with the
 * board's own colours), the Gun Combat Results Table, damage, the ship table with each class's notes, ordnance,
 * win conditions and every control of the screen. Every number comes from the board document's `tables` (the
 * engine's data, tables.py) and the scenario; the words follow the rules text (the reference's help). DOM and
 * small canvases only, no rules.
 */
import { SIDE } from "./palette";
import { el } from "../shell/dom";
import type { Tables } from "../generated/tactical";

/** The reference tables of the board document (`deltav.games.tactical.tables.TablesJson`, generated). */
export type { Tables } from "../generated/tactical";


function table(head: string[], rows: (string | number)[][], caption: string, cls = ""): HTMLTableElement {
  const t = el("table", `tac-help-table ${cls}`.trim());
  t.append(el("caption", "", caption));
  const tr = el("tr");
  for (const h of head) tr.append(el("th", "", h));
  const thead = el("thead");
  thead.append(tr);
  t.append(thead);
  const body = el("tbody");
  for (const r of rows) {
    const row = el("tr");
    r.forEach((c, i) => row.append(el(i === 0 ? "th" : "td", "", String(c))));
    body.append(row);
  }
  t.append(body);
  return t;
}

function section(title: string, ...items: (HTMLElement | string)[]): HTMLElement {
  const s = el("section", "tac-help-section");
  s.append(el("h3", "", title));
  for (const it of items) s.append(typeof it === "string" ? el("p", "", it) : it);
  return s;
}

function list(items: [string, string][]): HTMLElement {
  const dl = el("dl", "tac-help-keys");
  for (const [k, v] of items) {
    dl.append(el("dt", "", k), el("dd", "", v));
  }
  return dl;
}

const LABELS: Record<string, string> = { "-": "–" };

/** A ship class's notes, in the help text's words, from the ship table's flags. */
export function shipNotes(s: Tables["ships"][number]): string {
  const notes: string[] = [];
  if (s.type === "liner") notes.push("passenger ship");
  if (s.type === "tanker" || (!s.warship && (s.cargo ?? 0) === 0 && (s.fuel ?? 0) >= 50)) notes.push("fuel carrier");
  if (s.carries_base) notes.push(s.defensive ? "carries orbital bases" : "armed; carries orbital bases");
  if (s.immobile) notes.push("stationary");
  if (s.warship && !s.immobile) notes.push("warship: may overload and launch torpedoes");
  if (s.fires_disabled === "any") notes.push("fires when disabled");
  if (s.fires_disabled === "d1") notes.push("fires at D1");
  if (s.sealed_fuel) notes.push("sealed fuel: can't transfer");
  if (s.defensive) notes.push("defensive only");
  return notes.join("; ");
}

const CLASS: Record<string, string> = { orbitalBase: "orbital base" };

/** One symbol of the map legend, drawn on a small canvas with the board's own colours. */
function swatch(draw: (c: CanvasRenderingContext2D) => void, label: string): HTMLCanvasElement {
  const c = el("canvas", "tac-swatch");
  c.width = 72;
  c.height = 48;
  c.setAttribute("role", "img");
  c.setAttribute("aria-label", label);
  const ctx = c.getContext("2d");
  if (ctx) {
    ctx.scale(2, 2);
    ctx.fillStyle = "#070b16";
    ctx.fillRect(0, 0, 36, 24);
    ctx.lineCap = "round";
    draw(ctx);
  }
  return c;
}

function hex(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.beginPath();
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    if (i === 0) ctx.moveTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
    else ctx.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
  }
  ctx.closePath();
}

function arrow(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number, colour: string, dash: number[] = []): void {
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 1.6;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1, y1);
  ctx.stroke();
  ctx.setLineDash([]);
  const a = Math.atan2(y1 - y0, x1 - x0);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - 5 * Math.cos(a - 0.45), y1 - 5 * Math.sin(a - 0.45));
  ctx.lineTo(x1 - 5 * Math.cos(a + 0.45), y1 - 5 * Math.sin(a + 0.45));
  ctx.closePath();
  ctx.fill();
}

function shipGlyph(ctx: CanvasRenderingContext2D, x: number, y: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(x, y - 6);
  ctx.lineTo(x + 4.5, y + 4);
  ctx.lineTo(x, y + 2);
  ctx.lineTo(x - 4.5, y + 4);
  ctx.closePath();
  ctx.fill();
}

function octagon(ctx: CanvasRenderingContext2D, x: number, y: number, r: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  for (let i = 0; i < 8; i++) {
    const a = Math.PI / 8 + (Math.PI / 4) * i;
    if (i === 0) ctx.moveTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
    else ctx.lineTo(x + Math.cos(a) * r, y + Math.sin(a) * r);
  }
  ctx.closePath();
  ctx.fill();
}

/** The Map Symbols legend of the reference's help, plus what this screen adds (previews, warnings, dice). */
function mapSymbols(): HTMLElement {
  const rows: [HTMLCanvasElement, string, string][] = [
    [swatch((c) => { hex(c, 18, 12, 10); c.strokeStyle = "rgba(150,175,220,.5)"; c.lineWidth = 1; c.stroke(); }, "hex"), "Hex grid", "the playfield."],
    [swatch((c) => { arrow(c, 8, 12, 26, 12, "rgba(244,232,190,.95)"); }, "gravity arrow"), "Gravity", "a ship entering this hex is pulled one hex this way on its next move. Solid = full gravity; dashed and hollow = a moon's weak gravity (may be ignored once)."],
    [swatch((c) => { const g = c.createRadialGradient(15, 9, 2, 18, 12, 10); g.addColorStop(0, "#f0a07a"); g.addColorStop(1, "#5c1f12"); c.fillStyle = g; c.beginPath(); c.arc(18, 12, 9, 0, Math.PI * 2); c.fill(); }, "body"), "Body", "sun, planet or moon: touching it anywhere but a base is a crash."],
    [swatch((c) => { shipGlyph(c, 11, 12, SIDE.own); shipGlyph(c, 25, 12, SIDE.enemy); }, "ships"), "Ships", "cyan = yours, orange = the enemy's (a spectator sees the first player cyan). Octagon = orbital base. A tag names the class (FR frigate, CV corvette...), a letter when a side has several, D2 when disabled, ▼ when landed."],
    [swatch((c) => { shipGlyph(c, 8, 12, SIDE.own); arrow(c, 10, 12, 30, 12, SIDE.own, [3, 2]); }, "velocity"), "Velocity", "dashed: where the ship coasts next without burning."],
    [swatch((c) => { c.strokeStyle = "rgba(62,224,255,.55)"; c.lineWidth = 2; c.beginPath(); c.moveTo(4, 18); c.lineTo(18, 10); c.lineTo(32, 8); c.stroke(); }, "trail"), "Trail", "recent movement; fades over time (dotted for ordnance)."],
    [swatch((c) => { octagon(c, 8, 12, 5, SIDE.own); octagon(c, 18, 12, 5, SIDE.enemy); octagon(c, 28, 12, 5, SIDE.neutral); }, "bases"), "Base", "cyan = yours, orange = the enemy's, green = neutral. Landing at a friendly base resupplies."],
    [swatch((c) => { c.strokeStyle = "rgba(62,224,255,.6)"; c.setLineDash([2, 3]); c.beginPath(); c.arc(18, 12, 9, 0, Math.PI * 2); c.stroke(); c.setLineDash([]); }, "sensor ring"), "Sensor ring", "detection range around your selected ship."],
    [swatch((c) => { hex(c, 18, 12, 10); c.fillStyle = "rgba(255,90,60,.25)"; c.fill(); c.strokeStyle = "rgba(255,110,70,.8)"; c.setLineDash([3, 2]); c.stroke(); c.setLineDash([]); }, "threat zone"), "Threat zone", "an enemy base's planetary defense fires into these hexes."],
    [swatch((c) => { hex(c, 18, 12, 8); c.strokeStyle = "rgba(255,255,255,.6)"; c.setLineDash([2, 2]); c.stroke(); c.setLineDash([]); arrow(c, 24, 12, 34, 12, "rgba(255,236,160,.9)"); c.fillStyle = "#000"; c.beginPath(); c.arc(29, 5, 4, 0, Math.PI * 2); c.fill(); c.fillStyle = "#ffe066"; c.font = "700 6px system-ui"; c.textAlign = "center"; c.fillText("1", 29, 7); }, "burn arrows"), "Burn arrows", "around the dashed drift hex, with their keys 1-6: a burn moves the course one hex that way. Red: it crashes; amber: a warning (ram, ordnance, base fire)."],
    [swatch((c) => { arrow(c, 4, 16, 18, 16, "rgba(200,210,230,.7)", [3, 3]); arrow(c, 18, 16, 24, 6, "#ffe066"); c.strokeStyle = "#fff"; c.lineWidth = 2; c.beginPath(); c.moveTo(4, 16); c.lineTo(24, 6); c.stroke(); }, "course preview"), "Course preview", "v (dashed) + burn (yellow) = the new course (white; green when it lands, red when it crashes); violet arrows: gravity it queues for the next move."],
    [swatch((c) => { hex(c, 18, 12, 9); c.fillStyle = "rgba(255,140,40,.34)"; c.fill(); c.strokeStyle = "rgba(255,154,60,.8)"; c.stroke(); }, "enemy reach"), "Enemy reach", "orange hexes: where each enemy ship in sight could end its next move (solid: coasting; dashed: with burns). R hides it."],
    [swatch((c) => { c.fillStyle = "rgba(120,16,30,.92)"; c.strokeStyle = "#ff5d6e"; c.beginPath(); c.roundRect(2, 5, 32, 14, 4); c.fill(); c.stroke(); c.fillStyle = "#fff"; c.font = "700 7px system-ui"; c.textAlign = "center"; c.fillText("⚄ 5 · D2", 18, 14.5); }, "dice"), "Dice", "each die rolled against a ship lately, at the ship hit: the roll, its modifiers and the result (miss, D1-D5 disabled turns, ELIMINATED)."],
    [swatch((c) => { c.strokeStyle = "rgba(120,255,190,.85)"; c.setLineDash([4, 3]); c.lineWidth = 1.6; c.beginPath(); c.moveTo(4, 18); c.lineTo(30, 6); c.stroke(); c.setLineDash([]); c.fillStyle = "#000"; c.beginPath(); c.arc(30, 6, 4, 0, Math.PI * 2); c.fill(); c.fillStyle = "#78ffbe"; c.font = "700 6px system-ui"; c.textAlign = "center"; c.fillText("2", 30, 8); }, "assistant path"), "Assistant path", "the planner's course, turn by turn (P plans, B applies its first burn)."],
  ];
  const box = el("div", "tac-legend");
  for (const [sw, name, text] of rows) {
    const row = el("div", "tac-legend-row");
    const words = el("p");
    words.append(el("strong", "", name), ` — ${text}`);
    row.append(sw, words);
    box.append(row);
  }
  return box;
}

export function buildHelp(tables: Tables | null, scenario: { name: string; summary: string; players: { home: string; target: string; escape_wins: boolean }[]; checkpoints: string[] } | null,
  seatName: (seat: number) => string = (i) => `Player ${i + 1}`): HTMLElement {
  const root = el("div", "tac-help");
  if (scenario) {
    root.append(section(`Mission: ${scenario.name}`, scenario.summary || "",
      ...scenario.players.map((p, i) => `${seatName(i)}: from ${p.home}${p.target ? `, land on ${p.target}` : ""}${p.escape_wins ? ", escape off the north edge" : ""}.`),
      ...(scenario.checkpoints.length ? [`Grand Tour: pass through the gravity of ${scenario.checkpoints.join(", ")}, then land at home.`] : [])));
  }
  root.append(section("How to play", "Tactical hex-based space combat. Plot burns, ride gravity, and outfly the enemy."));
  root.append(section("Turn phases",
    list([["1 Astrogation", "plot fuel burns for your ships"], ["2 Ordnance", "launch mines, torpedoes or nukes (one item per ship)"],
      ["3 Movement", "ships move; gravity entered last turn applies now"], ["4 Combat", "gun attacks, counterattacks, planetary defense"],
      ["5 Transfers", "(some scenarios) fuel or cargo between ships in one hex on one course"]]),
    "Both players complete their full turn sequence before a new game turn begins."));
  root.append(section("Movement and fuel",
    "Ships keep their velocity: they drift the same way every turn unless you burn. A burn costs 1 fuel and shifts the velocity by one hex: pick an arrow around the dashed drift hex (click, tap, or 1-6). Warships may overload: 2 fuel for a two-hex change in one turn, once between resupplies (Shift+1-6, or the Overload button then a second direction). Out of fuel, a ship still drifts. A ship that ends more than two hexes off the map is lost.",
    "Gravity hexes deflect a ship one hex toward their body on its next move. A moon's weak gravity (Luna, Io, Callisto, Ganymede) may be ignored for one hex (V); the second of two in a row is mandatory. Orbit is a speed-1 course looping through the gravity ring.",
    "Landing at a planetary base: from orbit (speed 1 in its gravity) with one burn (G). At an asteroid base or a bare body: stopped (speed 0) in its hex. A friendly base resupplies: fuel, ordnance, damage cleared. Any other contact with a body is a crash."));
  root.append(section("Map symbols", mapSymbols()));
  if (tables) {
    const g = tables.gun_combat;
    root.append(section("Gun Combat Results Table",
      table(["Die", ...g.columns], g.rows.map((r) => [r.roll, ...r.results.map((x) => LABELS[x] ?? x)]), "Odds of attack against defence strength; roll 1d6"),
      `Range: −1 per hex from the attacker's closest approach to the target. Velocity: −1 per hex of relative speed above ${tables.modifiers.velocity_free}. Heroism: +${tables.modifiers.heroism_bonus}. The defender's ships in its hex on its course counterattack first, before taking damage. Planetary defense and fire at nukes: ${tables.modifiers.planetary_defense_odds}.`));
    root.append(section("Damage",
      `Dn: disabled n turns: a disabled ship drifts and cannot burn, attack or launch. Damage adds up and ${tables.modifiers.elimination_threshold} or more turns eliminate; each ship repairs ${tables.modifiers.repair_per_turn} turn at the end of its own turn; E: eliminated. Dreadnaughts fire even when disabled; orbital bases fire at D1 only. A resupply at a friendly base clears damage.`,
      table(["Source", "1", "2", "3", "4", "5", "6"], Object.entries(tables.other_damage).map(([k, v]) => [k, ...v.map((x) => LABELS[x] ?? x)]), "Other damage (raw die)")));
    root.append(section("Ships",
      table(["Type", "Combat", "Fuel", "Cargo", "Cost", "Notes"], tables.ships.map((s) => [
        CLASS[s.type] ?? s.type, `${s.combat}${s.defensive ? " D" : ""}`, s.fuel === null ? "∞" : s.fuel, s.cargo === null ? "∞" : s.cargo, s.cost, shipNotes(s)]),
      "D: defensive only (never attacks or counterattacks). Cost in MC (MegaCredits).", "tac-ship-table")));
    const m = tables.ordnance.mass;
    root.append(section("Ordnance",
      list([["Mine (N)", `mass ${m.mine}; inherits the launcher's velocity, which must then burn to leave the hex; damages every ship that passes through; cannot be shot down`],
        ["Torpedo (T)", `mass ${m.torpedo}; warships only; may boost up to ${tables.ordnance.torpedo_boost_max} hexes one way at launch (1-6, again for 2); hits one target, flies on if it misses`],
        ["Nuke (K)", `mass ${m.nuke}; destroys everything in the hex where it goes off; guns and planetary defense may shoot it at ${tables.modifiers.anti_nuke_odds}; ${tables.ordnance.non_warship_nuke_limit} per resupply for a non-warship`]]),
      `One item per ship per turn. Ordnance lives ${tables.ordnance.lifetime} moves and follows gravity. Detection: ${tables.detection.ship_range} hexes from a ship, ${tables.detection.base_range} from a base.`));
  }
  root.append(section("Win conditions",
    list([["Fleet wiped out", "eliminate every enemy ship (most combat scenarios)"], ["Land on target", "reach and land on the scenario's planet (Bi-Planetary, Blockade Runner)"],
      ["Escort", "land on the target with passengers aboard (Convoy, Evacuation)"], ["Escape", "the fugitives' transport flees past the north edge; the enforcers win by capturing or destroying it"],
      ["Grand Tour", "pass by every checkpoint, then land at home first (no combat)"], ["Surrender", "the rules' surrender of every ship you control (Surrender ships…): they cannot attack and may be looted, and the game goes on unless the surrender ruling ends it; to give up the match, Resign"]])));
  root.append(section("Controls",
    list([["Click / tap ship, Tab", "select a ship (Shift+Tab back); a ship under an arrow is selected, not burned to"],
      ["Click / tap arrow, 1-6", "burn that way (the pad in the panel points the same way)"], ["Shift+1-6, O or Overload", "overload: a second burn direction"],
      ["0", "clear the burn (coast)"], ["Z, Backspace or Undo", "take back the last burn change before you confirm"], ["G", "land (when the burn can land)"], ["V", "ignore weak gravity"],
      ["Enter", "confirm the turn / attack / launch or skip; a second Enter confirms a course with a warning"],
      ["Esc", "cancel the overload, clear the target, deselect"], ["N T K", "mine, torpedo, nuke; 1-6 torpedo boost"], ["[ ]", "previous / next target"],
      ["{ }", "attack with all, or one attacker"], ["R", "show or hide the enemy reach"], ["P", "assistant: plan a course to the hovered hex or your objective"],
      ["B", "apply the plan's first burn"], ["I", "hint (games against a bot)"], ["E", "focus the nearest enemy"], ["H", "centre on your fleet"],
      ["Home", "whole map"], ["WASD / arrows, + -", "pan, zoom; drag, wheel, pinch"], ["L M ?", "log, sound, this help"],
      ["Gamepad", "A confirm, B cancel, LB/RB ship, D-pad targets/attackers, X log, Y enemy, Start help, Back mute"]])));
  return root;
}
