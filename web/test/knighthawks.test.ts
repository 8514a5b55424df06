// The Knight Hawks screen model: grouping the legal list into controls, step targets on the map, the combat
// report's wording of every roll, the phase banner. Pure logic, no DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import type { LegalEntry, LogEntry } from "../src/shell/screen";
import {
  abbr, groupLegal, hullBoxes, type KHView, phaseText, repairName, reportLine, seekerName, shipsWithChoices, sideOf, stepAt,
  stepTarget, type KHShip,
} from "../src/knighthawks/model";

const ship = (over: Partial<KHShip> = {}): KHShip => ({
  id: "dd", name: "destroyer 1", class: "destroyer", kind: "ship", owner: 0, evasive: false, points: 50, hex: [0, 0],
  facing: 0, speed: 2, hp: 50, damage: 0, adf_max: 3, adf: 3, mr_max: 3, mr: 3, dcr_max: 75,
  weapons: [["LC", -1, -1, 0], ["T", 2, 2, 0]], defenses: [["RH", 1, 1, 0], ["ICM", 5, 5, 0]], screen: null, masking: 0,
  damaged_systems: { short: false, ccs: false, nav: false, dc: false, fire: false }, status: "active", docked: null,
  orbit: null, evading: false, unrepairable: [], path: [[0, 0]], navdir: 0, dock_turns: 0, ...over,
});

const view = (over: Partial<KHView> = {}): KHView => ({
  game: "knighthawks", options: {}, after: "", laid: [], dropped: {}, activated: [], orbit_new: {}, result: null,
  map: { radius: 10, planets: [] }, sides: ["UPF", "Sathar"], victory: { kind: "battle" }, turn_limit: 12, first: 0,
  turn: 2, half: 0, mover: 0, stage: "move", fire_mode: "", ships: [ship(), ship({ id: "hc", name: "heavy cruiser", class: "heavy_cruiser", owner: 1 })],
  mines: [], hidden_mines: 0, plots: {}, plotting: null, screened: [], declared: [], attacks: [], repair_player: 0,
  allocations: [], scores: [0, 0], viewer: 0, ...over,
});

const L = (action: LegalEntry["action"], note?: Record<string, unknown>): LegalEntry =>
  note ? { action, text: action.type, note } : { action, text: action.type };

test("the legal list is grouped into the controls, every member an index into it", () => {
  const legal = [
    L({ type: "screen", ship: "dd", screen: "MS" }),
    L({ type: "course", ship: "dd", speed: 1, facing: 0 }, { breakup: 0, per_point: 0 }),
    L({ type: "course", ship: "dd", speed: 2, facing: 0 }, { breakup: 0, per_point: 0 }),
    L({ type: "course", ship: "ff", speed: 3, facing: 1 }),
    L({ type: "activate", seeker: "trap-1" }),
    L({ type: "end_movement" }),
  ];
  const c = groupLegal(legal);
  assert.deepEqual(c.courses.get("dd")!.map((x) => x.index), [1, 2]);
  assert.equal(c.courses.get("ff")![0]!.index, 3);
  assert.equal(c.screens.get("dd")![0]!.entry, legal[0]);
  assert.equal(c.activates.length, 1);
  assert.equal(c.endMovement!.index, 5);
  assert.deepEqual(shipsWithChoices(c), ["dd", "ff"]);
  const f = groupLegal([L({ type: "assign", ship: "dd", weapon: 1, target: "hc" }), L({ type: "assign", ship: "dd", weapon: 0, target: "hc" }), L({ type: "fire" })]);
  assert.deepEqual([...f.assigns.get("dd")!.keys()], [1, 0]);
  assert.equal(f.fire!.index, 2);
  const r = groupLegal([L({ type: "repair", ship: "dd", target: "adf", points: 10 }), L({ type: "repair", ship: "dd", target: "adf", points: 20 }), L({ type: "end_repair" })]);
  assert.equal(r.repairs.get("dd")!.get("adf")!.length, 2);
  assert.equal(r.endRepair!.index, 2);
  assert.equal(groupLegal([L({ type: "mystery" })]).other.length, 1);
});

test("each seeker's button and map marker say which seeker it is, as the engine words it", () => {
  const v = view();
  const dropped = (seeker: string, turn: number): LegalEntry => ({
    action: { type: "activate", seeker, layer: "dd", turn }, text: `Activate the seeker destroyer 1 dropped on turn ${turn}`,
  });
  const a = seekerName(v, dropped("trap-4ae817", 1), 0);
  const b = seekerName(v, dropped("trap-e4f354", 3), 1);
  assert.deepEqual(a, { long: "activate the seeker destroyer 1 dropped on turn 1", short: "destroyer 1, turn 1" });
  assert.deepEqual(b, { long: "activate the seeker destroyer 1 dropped on turn 3", short: "destroyer 1, turn 3" });
  const placed: LegalEntry = { action: { type: "activate", seeker: "trap-2", layer: null, turn: null },
    text: "Activate seeker 2 (placed before the battle)" };
  assert.deepEqual(seekerName(v, placed, 0), { long: "activate seeker 2 (placed before the battle)", short: "seeker 2" });
});

test("a step's map target is the hex the ship would face after entering the next hex", () => {
  const steps = groupLegal([
    L({ type: "step", turn: 0 }, { hex: [1, 0], facing: 0, end: "" }),
    L({ type: "step", turn: 1 }, { hex: [1, 0], facing: 1, end: "" }),
    L({ type: "step", turn: -1 }, { hex: [1, 0], facing: 5, end: "" }),
  ]).steps;
  assert.deepEqual(stepTarget(steps[0]!), { entered: [1, 0], facing: 0, aim: [2, 0] });
  assert.deepEqual(stepTarget(steps[1]!)!.aim, [2, -1]);
  assert.equal(stepAt(steps, [1, 1])!.entry.action.turn, -1);
  assert.equal(stepAt(steps, [1, 0]), null); // three choices: the entered hex alone says nothing
  const only = groupLegal([L({ type: "step", turn: 1 }, { hex: [1, 0], facing: 1, end: "" })]).steps;
  assert.equal(stepAt(only, [1, 0])!.entry.action.turn, 1); // a forced step: the entered hex takes it
  assert.equal(stepTarget(groupLegal([L({ type: "step", turn: 0 })]).steps[0]!), null);
});

test("the combat report shows the engine's sentence of each combat event, coloured by what happened", () => {
  const E = (event: Record<string, unknown>, text = "the engine's words") => ({ step: 1, event: event as LogEntry["event"], text });
  assert.deepEqual(reportLine(E({ type: "attack", source: "dd", weapon: "LC", target: "hc", hit: true }, "Destroyer 1 fires ...: HIT")),
    { text: "Destroyer 1 fires ...: HIT", kind: "hit" });
  assert.equal(reportLine(E({ type: "attack", hit: false }))!.kind, "miss");
  assert.equal(reportLine(E({ type: "damage" }))!.kind, "damage");
  assert.equal(reportLine(E({ type: "breakup_check", broke: true }))!.kind, "bad");
  assert.equal(reportLine(E({ type: "breakup_check", broke: false }))!.kind, "info");
  assert.equal(reportLine(E({ type: "fired", player: 1, attacks: [] }))!.kind, "miss");
  assert.equal(reportLine(E({ type: "repair_roll", outcome: "repaired" }))!.kind, "hit");
  assert.equal(reportLine(E({ type: "turn_started", turn: 1, player: 0 }))!.kind, "turn");
  assert.equal(reportLine(E({ type: "plotted" })), null);
  assert.equal(reportLine(E({ type: "moved" })), null);
});

test("the phase banner, sides, hull boxes, names", () => {
  assert.equal(phaseText(view(), 0, true), "Turn 2 of 12: your movement: plot your ships");
  assert.equal(phaseText(view({ stage: "declare", fire_mode: "def", mover: 1 }), 0, true), "Turn 2 of 12: your defensive fire: choose weapons and targets");
  assert.equal(phaseText(view({ mover: 1 }), 0, false), "Turn 2 of 12: Sathar moving");
  assert.equal(phaseText(view({ mover: 1 }), 0, false, (p) => ["You", "Hard bot"][p]!), "Turn 2 of 12: Hard bot (Sathar) moving");
  assert.equal(phaseText(view({ stage: "declare", fire_mode: "def", mover: 1 }), null, false, (p) => ["Ann", "Bo"][p]!),
    "Turn 2 of 12: defensive fire of Ann (UPF)");
  assert.equal(phaseText(view(), null, false), "Turn 2 of 12: UPF moving");
  assert.equal(sideOf(1, 1), "own");
  assert.equal(sideOf(1, null), "enemy");
  assert.deepEqual(hullBoxes(4, 1), [true, false, false, false]);
  assert.equal(abbr("heavy_cruiser"), "HC");
  assert.equal(abbr("odd_thing"), "ODD");
  assert.equal(repairName("w1", ship()), "torpedo");
  assert.equal(repairName("d0", ship()), "reflective hull");
  assert.equal(repairName("adf", ship()), "1 ADF point");
});

test("a fleet option's counts read and write the option's value (setup's picker of ship classes)", async () => {
  const { parseCounts, joinCounts } = await import("../src/lobby/setup");
  const counts = parseCounts("destroyer, 2*fighter,fighter");
  assert.deepEqual([...counts], [["destroyer", 1], ["fighter", 3]]);
  counts.set("frigate", 2);
  counts.set("destroyer", 0);
  assert.equal(joinCounts(["fighter", "frigate", "destroyer"], counts), "3*fighter,2*frigate");
});
