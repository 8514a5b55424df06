/**
 * The mining section of the help overlay: a summary of the rulebook, the tile mix and the contracts from the
 * engine's component data (the board's tile mix, the view's `contracts`), the incidents' texts, scoring with the
 * tie-breaks, the rulings in force, and the controls. Built from trusted strings and view data (as text nodes).
 */
import { INCIDENT_TEXT, type MiningComponents, type MiningView, isMineral, kindName } from "./model";
import { el } from "../shell/dom";


function table(head: string[], rows: string[][]): HTMLTableElement {
  const t = el("table");
  const hr = el("tr");
  for (const h of head) hr.append(el("th", "", h));
  t.append(hr);
  for (const r of rows) {
    const tr = el("tr");
    for (const c of r) tr.append(el("td", "", c));
    t.append(tr);
  }
  return t;
}

const SUMMARY = [
  "Each turn you take ONE action, then try ONE contract.",
  "Actions: move rockets (each once: station to an asteroid, or back), prospect (look secretly at every tile under your rockets), satellite survey (pay a bribe counter, look at three tiles in one row or column), or buy a rocket.",
  "A rocket ending on an opponent's rocket bumps it: both go back to their shipyards. Rockets on the alien's square cannot move.",
  "Contract: declare an open contract, then reveal tiles one at a time. A mismatch fails it, unless you spend a bribe counter of a fitting mineral (Mineral Replacement; the tile keeps its value). Omnidium is wild.",
  "When you match everything, opponents may bid up (the first clockwise wins): they spend a counter of a contract mineral and you must reveal that mineral too, or spend your own counter of it, or fail. A failed bidder keeps the counter.",
  "Revealed incidents go to your hand (usable from your next turn); an Alien Encounter stays in play: move the alien, steal an incident or unspent counter. The fifth Alien Encounter ends the game.",
  "The game also ends when the last contract is fulfilled or no face-down tile is free of rockets and the alien.",
  "Score: the values of your collected tiles minus 2 per bribe counter you spent. Ties: most contracts, then most unspent counters.",
];

/** What each part of the page does. */
const PAGE: [string, string][] = [
  ["The prompt (top right; below the field on a phone)", "what you may do now, in words written from the choices you actually have; its buttons are numbered 1 to 9"],
  ["The status line (bottom)", "the current decision, whom the table waits for, or why a click was refused"],
  ["The readout (under the field)", "the square you point at or the cursor's: what you know of its tile, who looked at it, rockets, the alien, and during a contract its chance to count"],
  ["Contract cards", "open contracts are cream cards (click one to declare it; \"✓ known\" when tiles you know complete it); won ones are grey with the winner"],
  ["Player sheets", "rockets in play and in the shipyard (frozen ones), the five bribe counters (struck through when spent, outlined in another colour when stolen), incidents in hand with what they do and a Play button when you may, collected tiles and contracts"],
  ["Standings", "points, then contracts, then unspent counters: the rulebook's order of winning"],
  ["The end", "the result dialog shows the scoring with its tie-breaks and each player's statistics; the replay shows every tile's face and each player's view on request"],
  ["The briefing and the guide", "before your first decision the scenario briefing says what a turn is and what wins; a first mining game then offers a short guide (skip it with Esc); the buttons at the top of this help show either again"],
  ["While you waited", "when another player's move changed your position (your rocket bumped or sabotaged, a counter or incident stolen, a Pirate Attack or Meteor Storm played on you, the alien landed on your rockets), a card says so before your next decision: Continue (Enter)"],
];

const CONTROLS: [string, string][] = [
  ["Click or tap a rocket, then a square", "move it (or drag it there); a bump asks whose rocket"],
  ["Click a highlighted tile", "look at it (survey, scan), reveal it (contract), move the alien there"],
  ["Arrow keys / WASD", "move the cursor over the field"],
  ["Enter or Space", "act on the square under the cursor"],
  ["1 to 9", "press the numbered buttons of the prompt"],
  ["P, B, V, E", "prospect, buy a rocket, open the survey, end moves or looks"],
  ["Escape", "cancel a selected rocket or an open choice"],
  ["Contract cards", "click an open card (or press its number) to declare it"],
  ["Tab, Shift+Tab", "reach every button and card; Enter presses it"],
];

export function miningHelp(v: MiningView | null, comps: MiningComponents | null): HTMLElement {
  const root = el("section");
  root.className = "mn-help";
  root.append(el("h2", "", "Asteroid mining: how to play"));
  const ul = el("ul");
  for (const s of SUMMARY) ul.append(el("li", "", s));
  root.append(ul);
  root.append(el("h3", "", "The page"));
  root.append(table(["part", "shows"], PAGE.map(([a, b]) => [a, b])));
  root.append(el("h3", "", "Controls"));
  root.append(table(["input", "does"], CONTROLS.map(([a, b]) => [a, b])));
  root.append(el("h3", "", "The field"));
  root.append(el("p", "", "Grey tiles are face down. A coloured chip marked \"you saw\" (dashed frame) is a tile only you looked at; \"public\" tiles (solid frame) were revealed and flipped back, so everybody knows them. In the replay of a finished match every tile shows its face (a dashed frame on those still face down). Small coloured dots show who looked at a tile (public; what they saw is not). Rockets stand in their owner's colour with a count. The green alien (a little figure at the tile's left edge) freezes rockets on its square (frosted frame); a face-up Alien Encounter tile is dark violet with a ringed planet and stays on the field. During a contract the chance that a tile counts is printed in the middle of each tile you may reveal (\"fits\" or \"no\" on a tile you know)."));
  if (comps) {
    const mix = new Map<string, number[]>();
    for (const r of comps.tile_mix) {
      const a = mix.get(r.kind) ?? [];
      for (let i = 0; i < r.count; i++) a.push(r.value);
      mix.set(r.kind, a);
    }
    root.append(el("h3", "", `Tiles (${comps.title})`));
    root.append(table(["kind", "count", "values"], [...mix].map(([k, vals]) => [
      kindName(k), String(vals.length), isMineral(k) ? vals.join(", ") : "—",
    ])));
  }
  if (v) {
    root.append(el("h3", "", "Contracts"));
    root.append(table(["contract", "minerals"], v.contracts.map((c) => [c.id, c.minerals.map(kindName).join(", ")])));
    root.append(el("h3", "", "Incidents"));
    root.append(table(["incident", "effect"], Object.entries(INCIDENT_TEXT).map(([k, t]) => [kindName(k), t])));
    root.append(el("h3", "", "Rules options in this game"));
    const opts = Object.entries(v.options).filter(([k]) => k !== "scenario" && k !== "players");
    root.append(table(["option", "value"], opts.map(([k, val]) => [k, String(val)])));
  }
  return root;
}
