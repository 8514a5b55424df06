// Deep Space Combat client logic (web/src/deepspace/model.ts, designer.ts): pure, no DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import { remainingSteps } from "../src/deepspace/designer";
import {
  designCost,
  designName,
  designSteps,
  draftProblem,
  findEntry,
  type DsBoard,
  type DsShip,
  type DsView,
  indexStep,
  Namer,
  nearestVelocity,
  nudge,
  parseSavedDesigns,
  StepQueue,
  WITH,
  velocityLabel,
} from "../src/deepspace/model";
import type { LegalEntry } from "../src/shell/screen";

const vel = (ship: string, dq: number, dr: number, cost: number): LegalEntry => ({
  action: { type: "velocity", ship, dq, dr }, text: "", note: { cost, dest: [dq, dr] },
});

/** The legal velocities of a ship at rest with thrust 1 (as the engine lists them: 7 of them) plus withdraw. */
function restThrust1(): LegalEntry[] {
  const out: LegalEntry[] = [];
  for (const [dq, dr] of [[-1, 0], [-1, 1], [0, -1], [0, 0], [0, 1], [1, -1], [1, 0]] as const) {
    out.push(vel("s0-0", dq, dr, dq === 0 && dr === 0 ? 0 : 1));
  }
  out.push({ action: { type: "withdraw", ship: "s0-0" }, text: "" });
  return out;
}

test("velocity labels match the engine's movement.label", () => {
  const cases: [[number, number], string][] = [
    [[0, -1], "1A"], [[2, -5], "3A+2B"], [[1, 0], "1C"], [[-1, 1], "1E"], [[-2, -1], "2F+1A"],
    [[3, 1], "3C+1D"], [[0, 0], "rest"], [[-3, 3], "3E"], [[4, -4], "4B"], [[1, 2], "1C+2D"],
  ];
  for (const [v, want] of cases) assert.equal(velocityLabel(v), want, `${v}`);
});

test("a step's entries are indexed by what the screen does with them", () => {
  const idx = indexStep(restThrust1());
  assert.equal(idx.kind, "velocity");
  assert.equal(idx.ship, "s0-0");
  assert.equal(idx.byKey.size, 7);
  assert.ok(idx.withdraw);
  const fire = indexStep([
    { action: { type: "fire", ship: "s0-0", weapon: 1, target: null }, text: "" },
    { action: { type: "fire", ship: "s0-0", weapon: 1, target: "s1-0" }, text: "", note: { p_hit: 0.5 } },
  ]);
  assert.equal(fire.kind, "fire");
  assert.equal(fire.weapon, 1);
  assert.ok(fire.hold);
  assert.deepEqual([...fire.targets.keys()], ["s1-0"]);
  assert.equal(indexStep([{ action: { type: "done" }, text: "" }]).kind, "done");
  assert.equal(indexStep([{ action: { type: "auto_allocate", ship: "s0-1" }, text: "" }]).kind, "allocate");
  assert.equal(indexStep([{ action: { type: "place", ship: "s0-1", q: 2, r: 3 }, text: "" }]).byKey.has("2,3"), true);
  assert.equal(indexStep([{ action: { type: "new_ship", size: 2 }, text: "" }]).kind, "design");
  // a finished fleet's only step is done: the designer's, never a deployment's confirmation
  assert.equal(indexStep([{ action: { type: "done" }, text: "" }], "design").kind, "design");
});

test("a dragged handle snaps to the nearest legal velocity; out of reach snaps to the edge", () => {
  const idx = indexStep(restThrust1());
  assert.deepEqual(nearestVelocity(idx, [10, 10], [11, 10]), [1, 0]);
  assert.deepEqual(nearestVelocity(idx, [10, 10], [10, 10]), [0, 0]);
  const far = nearestVelocity(idx, [10, 10], [15, 10]);
  assert.ok(far && Math.max(Math.abs(far[0]), Math.abs(far[1]), Math.abs(far[0] + far[1])) === 1);
  assert.equal(nearestVelocity(indexStep([]), [0, 0], [1, 1]), null);
});

test("keys 1-6 nudge along the rulebook directions A-F, only to legal velocities", () => {
  const idx = indexStep(restThrust1());
  assert.deepEqual(nudge(idx, [0, 0], 0), [0, -1]); // A is up
  assert.deepEqual(nudge(idx, [0, 0], 2), [1, 0]); // C
  assert.equal(nudge(idx, [0, -1], 0), null); // two hexes up: beyond thrust 1
});

test("the designer's budget arithmetic and its explanations", () => {
  const d = { name: "Frigate", size: 4, thrust: 4, evasion: 10, endurance: 10, weapons: [[30, 40], [30, 44]] as [number, number][] };
  assert.equal(designCost(d), 4 * 24 + 144);
  assert.equal(draftProblem(d, 60, 12), null);
  assert.match(draftProblem({ ...d, endurance: 30 }, 60, 12) ?? "", /costs 320 points, over the budget of 240/);
  assert.match(draftProblem(d, 60, 3) ?? "", /more than the 3 size levels left/);
  assert.match(draftProblem({ ...d, weapons: [[0, 0]] }, 60, 12) ?? "", /weapon needs at least one level/);
  assert.match(draftProblem({ ...d, thrust: -1 }, 60, 12) ?? "", /whole number/);
  assert.match(draftProblem({ ...d, thrust: 0, evasion: 0, endurance: 0, weapons: [] }, 60, 12) ?? "", /stat above zero/);
  const steps = designSteps(d);
  assert.deepEqual(steps[0], { type: "new_ship", size: 4 });
  assert.deepEqual(steps.at(-1), { type: "end_ship", [WITH]: { name: "Frigate" } });
  assert.equal(steps.length, 4 + 4 + 1);
  // after a reload mid-design the remaining steps continue from the engine's stage
  const draft = { size: 4, thrust: 4, evasion: 10, endurance: 10, weapons: [[30, 40]] as [number, number][], stage: "damage" as const, targeting: 30 };
  assert.deepEqual(remainingSteps(d, draft), [{ type: "weapon_damage", level: 44 }, { type: "end_ship", [WITH]: { name: "Frigate" } }]);
  assert.deepEqual(remainingSteps(d, { ...draft, stage: "evasion", weapons: [] }).slice(0, 1), [{ type: "set_stat", stat: "evasion", level: 10 }]);
});

test("saved designs from localStorage are validated, never trusted", () => {
  assert.deepEqual(parseSavedDesigns(null), []);
  assert.deepEqual(parseSavedDesigns("not json"), []);
  assert.deepEqual(parseSavedDesigns('{"a": 1}'), []);
  const good = { name: "A", size: 1, thrust: 1, evasion: 1, endurance: 1, weapons: [[1, 1]] };
  const got = parseSavedDesigns(JSON.stringify([good, { ...good, size: -1 }, { ...good, weapons: [[1]] }, { ...good, thrust: 1.5 }, 7]));
  assert.deepEqual(got, [good]);
});

test("queued steps submit only legal entries and stop with the reason", () => {
  const q = new StepQueue();
  q.set([{ type: "new_ship", size: 2 }, { type: "set_stat", stat: "thrust", level: 9 }], "commissioning A");
  const legal1: LegalEntry[] = [{ action: { type: "new_ship", size: 1 }, text: "" }, { action: { type: "new_ship", size: 2 }, text: "" }];
  const a = q.next(legal1);
  assert.ok(a && "entry" in a && a.entry.action.size === 2);
  const legal2: LegalEntry[] = [0, 1, 2].map((n) => ({ action: { type: "set_stat", stat: "thrust", level: n }, text: "" }));
  const b = q.next(legal2);
  assert.ok(b && "problem" in b && /level 9/.test(b.problem));
  assert.equal(q.length, 0);
  assert.equal(q.next(legal2), null);
  assert.equal(findEntry(legal2, { type: "set_stat", level: 1 })?.action.level, 1);
});

test("a queued end_ship is matched without its name and sent with it", () => {
  const q = new StepQueue();
  q.set([{ type: "end_ship", [WITH]: { name: "Lancer" } }], "commissioning Lancer");
  const got = q.next([{ action: { type: "end_ship" }, text: "commission the ship" }, { action: { type: "weapon_targeting", level: 0 }, text: "" }]);
  assert.ok(got && "entry" in got);
  assert.deepEqual(got.entry.action, { type: "end_ship", name: "Lancer" });
});

test("a design's name is cleaned as the engine takes it", () => {
  assert.equal(designName("  Lancer Mk 2 "), "Lancer Mk 2");
  assert.equal(designName("a\nb\tc"), "a b c");
  assert.equal(designName("   "), "Ship");
  assert.equal(designName("x".repeat(50)).length, 40);
  assert.equal(Array.from(designName("🚀".repeat(45))).length, 40); // whole characters, never half a pair
});

test("ships are named as the match's texts name them", () => {
  const ship = (id: string, owner: number, extra: Partial<DsShip> = {}): DsShip => ({
    id, owner, size: 2, status: "active", pos: [0, 0], vel: [0, 0], hp_taken: 0, incoming: 0,
    seen: { thrust: 0, weapons: 0, damage: [] }, ...extra,
  });
  const view = { you: 0, ships: [ship("s0-0", 0, { name: "Lancer" }), ship("s0-1", 0), ship("s1-1", 1)] } as unknown as DsView;
  const board = { scenario: { players: [{ ships: null }, { ships: ["Raider 1", "Raider 2"] }] } } as unknown as DsBoard;
  const n = new Namer(view, board, (p) => ["Ann", "Hard bot"][p]!);
  assert.equal(n.label(view.ships[0]!), "ship 1 (Lancer)"); // a designing side: the owner also sees the name
  assert.equal(n.ship(view.ships[1]!), "your ship 2");
  assert.equal(n.Ship(view.ships[2]!), "Hard bot's Raider 2");
  assert.equal(new Namer(view, null, () => "X").label(view.ships[2]!), "ship 2");
});
