// The tactical screen's pure logic: matching choices to legal entries, burn arrows around the drift hex, the
// key map of the help text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DIRECTIONS, pixel } from "../src/shell/hex";
import type { LegalEntry } from "../src/shell/screen";
import { arrowAt, burnArrows, COAST, hasLandVariant, keyIntent, matchOrder, nextWeak, noteOf, pressBurn, shipsToOrder, weakVariants } from "../src/tactical/model";

// a ship at (0,0) moving (1,0): drift hex (1,0); burns 0..4 legal (4 crashes), 5 not offered; one overload pair;
// burn 2 has a landing variant and an ignorable weak hex variant.
function order(ship: string, burn: number | null, overload: number | null = null, land = false, weak: string[] = []): LegalEntry {
  const dest = burn === null ? [1, 0] : [1 + DIRECTIONS[burn]![0] + (overload === null ? 0 : DIRECTIONS[overload]![0]),
    DIRECTIONS[burn]![1] + (overload === null ? 0 : DIRECTIONS[overload]![1])];
  return {
    action: { type: "order", ship, burn, overload, land, weak },
    text: "order",
    note: { destination: `${dest[0]},${dest[1]}`, outcome: burn === 4 ? "crash" : land ? "landing" : "normal", off_map: false, escapes: false },
  };
}

const LEGAL: LegalEntry[] = [
  order("a", null), order("a", 0), order("a", 1), order("a", 2), order("a", 3), order("a", 4),
  order("a", 0, 1), order("a", 2, null, true), order("a", 2, null, false, ["3,-1"]),
  order("b", null),
  { action: { type: "end_astrogation" }, text: "end" },
];

test("ships with orders to give, in list order", () => {
  assert.deepEqual(shipsToOrder(LEGAL), ["a", "b"]);
});

test("a choice matches exactly one legal entry, never an invented one", () => {
  assert.equal(matchOrder(LEGAL, "a", COAST), LEGAL[0]);
  assert.equal(matchOrder(LEGAL, "a", { burn: 0, overload: 1, land: false, weak: [] }), LEGAL[6]);
  assert.equal(matchOrder(LEGAL, "a", { burn: 2, overload: null, land: true, weak: [] }), LEGAL[7]);
  assert.equal(matchOrder(LEGAL, "a", { burn: 2, overload: null, land: false, weak: ["3,-1"] }), LEGAL[8]);
  assert.equal(matchOrder(LEGAL, "a", { burn: 2, overload: null, land: false, weak: [] }), LEGAL[3]);
  assert.equal(matchOrder(LEGAL, "a", { burn: 5, overload: null, land: false, weak: [] }), null);
  assert.equal(matchOrder(LEGAL, "a", { burn: 1, overload: 4, land: false, weak: [] }), null);
  assert.equal(matchOrder(LEGAL, "b", { burn: 0, overload: null, land: false, weak: [] }), null);
  assert.ok(hasLandVariant(LEGAL, "a", 2) && !hasLandVariant(LEGAL, "a", 1));
});

test("burn arrows sit around the drift hex, offered only where the legal list has the burn", () => {
  const { drift, arrows } = burnArrows(LEGAL, "a");
  assert.deepEqual(drift, [1, 0]);
  assert.equal(arrows.length, 6);
  for (const a of arrows) {
    assert.deepEqual(a.at, [1 + DIRECTIONS[a.dir]![0], DIRECTIONS[a.dir]![1]]);
  }
  assert.deepEqual(arrows.map((a) => a.legal), [true, true, true, true, true, false]);
  assert.deepEqual(arrows.map((a) => a.crash), [false, false, false, false, true, false]);
  // a click near arrow 1's hex picks it; a click on the drift hex itself or near the unoffered arrow picks none
  const [x1, y1] = pixel(arrows[1]!.at);
  assert.equal(arrowAt(arrows, [x1 + 0.2, y1 - 0.1], (h) => pixel(h)), 1);
  assert.equal(arrowAt(arrows, pixel([1, 0]), (h) => pixel(h)), null);
  assert.equal(arrowAt(arrows, pixel(arrows[5]!.at), (h) => pixel(h)), null);
  assert.equal(burnArrows(LEGAL, "nobody").drift, null);
});

test("burn keys: pick, re-press clears, shift toggles the overload", () => {
  let c = pressBurn(COAST, 0, false);
  assert.deepEqual(c, { burn: 0, overload: null, land: false, weak: [] });
  c = pressBurn(c, 1, true);
  assert.deepEqual([c.burn, c.overload], [0, 1]);
  c = pressBurn(c, 1, true);
  assert.deepEqual([c.burn, c.overload], [0, null]);
  assert.deepEqual(pressBurn(c, 0, false), COAST);
  assert.deepEqual(pressBurn(COAST, 3, true), { burn: 3, overload: null, land: false, weak: [] });
});

test("the key map of the help text", () => {
  const k = (key: string, shiftKey = false, code?: string, phase = "astrogation") => keyIntent({ key, shiftKey, ...(code ? { code } : {}) }, phase);
  assert.deepEqual(k("1"), { kind: "burn", dir: 0, overload: false });
  assert.deepEqual(k("6"), { kind: "burn", dir: 5, overload: false });
  assert.deepEqual(k("!", true, "Digit1"), { kind: "burn", dir: 0, overload: true });
  assert.deepEqual(k("&", true, "Digit3"), { kind: "burn", dir: 2, overload: true }); // another layout's symbol
  assert.deepEqual(k("0"), { kind: "clear" });
  assert.equal(k("7"), null);
  assert.deepEqual(k("Tab"), { kind: "next-ship", back: false });
  assert.deepEqual(k("Tab", true), { kind: "next-ship", back: true });
  assert.deepEqual(k("Enter"), { kind: "confirm" });
  assert.deepEqual(k("Escape"), { kind: "cancel" });
  assert.deepEqual(k("t", false, undefined, "ordnance"), { kind: "launch", ordnance: "torpedo" });
  assert.deepEqual(k("N", false, undefined, "ordnance"), { kind: "launch", ordnance: "mine" });
  assert.deepEqual(k("k", false, undefined, "ordnance"), { kind: "launch", ordnance: "nuke" });
  assert.equal(k("t"), null); // not in astrogation
  assert.deepEqual(k("3", false, undefined, "ordnance"), { kind: "boost", dir: 2 });
  assert.deepEqual(k("[", false, undefined, "combat"), { kind: "target", step: -1 });
  assert.deepEqual(k("]", false, undefined, "combat"), { kind: "target", step: 1 });
  assert.deepEqual(k("{", true, undefined, "combat"), { kind: "attacker", step: -1 });
  assert.deepEqual(k("}", true, undefined, "combat"), { kind: "attacker", step: 1 });
  assert.deepEqual(k("e"), { kind: "focus-enemy" });
  assert.deepEqual(k("H"), { kind: "centre-fleet" });
  // the shell's keys and the camera's are not taken
  for (const key of ["l", "m", "?", "w", "a", "s", "d", "+", "-"]) assert.equal(k(key), null, key);
});

test("V steps through the weak-gravity hexes one at a time, as the legal list offers them, then back to none", () => {
  const legal: LegalEntry[] = [
    order("a", 1), order("a", 1, null, false, ["5,2"]), order("a", 1, null, false, ["2,4"]),
    order("a", 1, null, false, ["2,4", "5,2"]), order("a", 0), order("a", 2), order("a", 2, null, false, ["3,-1"]),
  ];
  const c = { ...COAST, burn: 1 };
  assert.deepEqual(weakVariants(legal, "a", c), [[], ["2,4"], ["5,2"], ["2,4", "5,2"]]);
  assert.deepEqual(nextWeak(legal, "a", c), ["2,4"]);
  assert.deepEqual(nextWeak(legal, "a", { ...c, weak: ["2,4"] }), ["5,2"]);
  assert.deepEqual(nextWeak(legal, "a", { ...c, weak: ["5,2"] }), ["2,4", "5,2"]);
  assert.deepEqual(nextWeak(legal, "a", { ...c, weak: ["5,2", "2,4"] }), []);
  assert.equal(nextWeak(legal, "a", { ...COAST, burn: 0 }), null); // no weak hex on this course
  assert.deepEqual(nextWeak(legal, "a", { ...COAST, burn: 2 }), ["3,-1"]);
  assert.deepEqual(nextWeak(legal, "a", { ...COAST, burn: 2, weak: ["3,-1"] }), []);
});

test("noteOf reads a legal entry's note as the generated shape of its action type, and nothing else", () => {
  const buy = { action: { type: "buy", item: "corvette" }, text: "Buy a corvette", note: { cost: 40, credits_left: 60 } };
  const order = { action: { type: "order", ship: "p0s0", burn: null }, text: "Coast" };
  assert.deepEqual(noteOf(buy, "buy"), { cost: 40, credits_left: 60 });
  assert.equal(noteOf(buy, "order"), undefined); // another action type: not that note
  assert.equal(noteOf(order, "order"), undefined); // an entry without a note
  assert.equal(noteOf(undefined, "buy"), undefined);
});
