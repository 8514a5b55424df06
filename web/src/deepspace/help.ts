/**
 * The help overlay's Deep Space Combat section: a rules summary (after shared/rules/deep-space-combat.txt), the
 * hit-chance table from the engine's board document (`hit_table`, exact 2d6 odds), the ready-made fleets, and
 * the screen's controls.
 *
 * Owns the help content only (text nodes; nothing from the network is parsed as HTML).
 */
import { el } from "../shell/dom";
import type { DsBoard } from "./model";

export function helpSection(board: DsBoard | null, seat: (p: number) => string = (p) => `Player ${p + 1}`): HTMLElement {
  const root = el("section", { class: "ds-help", "aria-label": "Deep Space Combat help" });
  root.append(el("h2", { text: "Deep Space Combat" }));
  root.append(el("p", {
    text: "Fleets designed under a point budget fight in open space. Each round every side plots in secret and at "
      + "once: each ship's new velocity and each weapon's target. Then the plots are revealed, ships move, every weapon "
      + "fires at once, the defenders allocate the damage, and ships may self-destruct.",
  }));
  const rules = el("ul");
  const li = (t: string): void => void rules.append(el("li", { text: t }));
  li(`Fleets: the players agree on each side's size levels (the set-up's "size levels", equal or not; empty: the scenario's) and divide them among their ships.`);
  li(`Design: a ship of size S has ${board?.points_per_size ?? 60} × S points. Thrust, evasion and endurance cost S points per level; each weapon's targeting and damage cost 1 point per level. The name you give a design is yours: the others see "ship 1", "ship 2".`);
  li("Movement: a ship's new position is its position plus its new velocity. Changing velocity costs thrust: the change of speed, a 60° turn costs the current speed, more than 60° twice the speed (the hex distance between the old and new velocity).");
  li("Attack: it hits when 2d6 × Targeting − range ≥ 2d6 × the target's Evasion (range after movement; range 0 is the same hex).");
  li("Damage: 2d6 × Damage − 2d6 × Endurance hit points (never below 0). The defender places them: a ship stat loses a level per S hit points, a weapon stat one per hit point. All stats at zero: destroyed, and drawn as a crossed wreck where it died.");
  li("Self-destruct: a ship may explode in the destruction phase with Damage equal to its remaining stat levels against every other ship in its hex.");
  li(`Withdrawal: a ship farther than ${board?.withdrawal_radius ?? 30} hexes from every enemy may leave the battle.`);
  li("Victory: with two fleets, the side left on the field; with three or more, or at the round limit, the best campaign points (hit points inflicted on enemies − hit points received). The result shows the points and the match in numbers.");
  root.append(rules);
  if (board) {
    const ht = board.hit_table;
    root.append(el("h3", { text: "Chance to hit (targeting vs evasion, by range)" }));
    const t = el("table");
    t.append(el("tr", {}, el("th", { text: "T vs E" }), ...ht.ranges.map((r) => el("th", { text: `range ${r}` }))));
    ht.pairs.forEach(([tg, ev], i) => {
      t.append(el("tr", {}, el("td", { text: `${tg} vs ${ev}` }), ...(ht.p[i] ?? []).map((p) => el("td", { text: `${Math.round(p * 1000) / 10}%` }))));
    });
    root.append(t);
    root.append(el("h3", { text: "Thrust cost at speed 4 (rulebook examples)" }));
    const tc = el("table");
    tc.append(el("tr", {}, el("th", { text: "change" }), el("th", { text: "thrust" })));
    for (const [what, cost] of [["speed 4 → 8, same heading", "4"], ["stop from speed 8", "8"], ["turn 60° at speed 4", "4"], ["turn 120° or more at speed 4", "8"]] as const) {
      tc.append(el("tr", {}, el("td", { text: what }), el("td", { text: cost })));
    }
    root.append(tc);
    root.append(el("h3", { text: `Scenario: ${board.scenario.title}` }));
    root.append(el("p", { text: board.scenario.summary }));
    const fleetTitle = (id: string): string => board.fleets.find((f) => f.id === id)?.title ?? id;
    root.append(el("p", { class: "ds-dim", text: `Round limit ${board.scenario.round_limit}. Fleets, seat by seat: ${board.scenario.players.map((p, i) => `${seat(i)}: ${p.size_levels} size levels, ${p.fleet === "design" ? "designed in play" : fleetTitle(p.fleet)}`).join("; ")}.` }));
  }
  root.append(el("h3", { text: "Controls" }));
  const c = el("ul");
  for (const t of [
    "Plot a velocity: drag the white handle at the end of the ship's arrow, or click a lit hex; the thrust it costs and where the ship ends are shown. Keys 1-6 nudge it one hex toward A-F (A is up, then clockwise), 0 keeps the current velocity, Enter confirms, X withdraws (when allowed).",
    "Aim: click an enemy ship (its ring shows the chance to hit) or a line of the target list; [ and ] cycle targets, Enter fires, 0 holds fire.",
    "End plotting: Enter (or the button) once every ship is plotted. Your plot is secret until every fleet has plotted.",
    "Damage: the dialog lists each stat with the legal amounts; A applies the default allocation. Self-destruct: Y detonates, N stands down, Shift+N stands down every ship.",
    "Deploy: click a lit hex of your zone ([ ] and Enter from the keyboard).",
    "Names: players by their seat names (as on the chips and in the log); ships by their design and a number (\"Frigate 2\"), a fleet designed in play as \"ship 1\", \"ship 2\" (you also see your design names).",
    "After each round's fire (and any explosion) a card says what happened to your ships: Continue (Enter, Space or a click) before the next order. The status line says what each decision asks.",
    "The first-game guide (from this help) walks through a round; its steps that ask for an order wait until you give it.",
    "A replay shows everyone's view: every fleet's designs and the orders each gave, drawn in its colour.",
    "View: drag to pan, wheel or pinch to zoom, WASD or arrows to pan, + and - to zoom, H shows every ship, C centres on the ship you are plotting.",
  ]) c.append(el("li", { text: t }));
  root.append(c);
  return root;
}
