// The tactical screen's words (words.ts) and its reading of dice (report.ts): burn arrows named as they are
// drawn on the map, velocities as a speed and a heading, ships by class with a letter when a side has several,
// places by the bodies of the board, and damage rolls with who rolled them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DIRECTIONS, pixel } from "../src/shell/hex";
import type { Board } from "../src/tactical/boardData";
import { mapTag, outcomes, resultWords, rollWords } from "../src/tactical/report";
import { burnWords, DIR_ARROW, dirKey, heading, placeIndex, placeWords, shipLabels, shipName, velocityWords } from "../src/tactical/words";

test("each burn direction is named as its arrow is drawn on the map", () => {
  const glyph: Record<string, string> = { E: "→", NE: "↗", N: "↑", NW: "↖", W: "←", SW: "↙", S: "↓", SE: "↘" };
  for (let d = 0; d < 6; d++) {
    const [x, y] = pixel(DIRECTIONS[d]!);
    // on the screen y grows downward: "up" has y < 0
    const h = heading(DIRECTIONS[d]!);
    assert.equal(glyph[h], DIR_ARROW[d], `direction ${d} drawn at (${x.toFixed(2)}, ${y.toFixed(2)}) is ${h}`);
    if (h.includes("N")) assert.ok(y < 0);
    if (h.includes("S")) assert.ok(y > 0);
  }
  assert.equal(dirKey(1), "↗ 2");
  assert.equal(burnWords(null), "coast");
  assert.equal(burnWords(5), "burn S (6)");
  assert.equal(burnWords(4, 5), "burn SW (5) + overload S (6)");
});

test("velocities in words, never a vector", () => {
  assert.equal(velocityWords([0, 0]), "stopped");
  assert.equal(velocityWords([0, 1]), "speed 1 S");
  assert.equal(velocityWords([-0, -2]), "speed 2 N");
  assert.equal(velocityWords([2, -1]), "speed 2 E");
  assert.equal(velocityWords([2, -2]), "speed 2 NE");
});

test("ships by class, lettered when a side has several of a class, owners in words", () => {
  const ships = [
    { id: "p0s0", owner: 0, type: "corvette" }, { id: "p0s1", owner: 0, type: "frigate" }, { id: "p0s2", owner: 0, type: "corvette" },
    { id: "p1s0", owner: 1, type: "corvette" }, { id: "p1s1", owner: 1, type: "orbitalBase" },
  ];
  const labels = shipLabels(ships);
  assert.deepEqual([...labels.values()], ["corvette A", "corvette B", "frigate", "corvette", "orbital base"]);
  assert.equal(labels.get("p0s2"), "corvette B");
  const seat = (p: number): string => ["Ann", "Chris"][p]!;
  assert.equal(shipName(ships[0]!, labels, 0, seat), "your corvette A");
  assert.equal(shipName(ships[3]!, labels, 0, seat), "the enemy corvette");
  assert.equal(shipName(ships[4]!, labels, null, seat), "Chris' orbital base");
});

const BOARD = {
  bodies: [
    { name: "Mars", kind: "planet", center: [-9, -5], surface_radius: 0, surface: [[-9, -5]], gravity: "full", destructive: false },
    { name: "Sol", kind: "star", center: [-2, 2], surface_radius: 2, surface: [[-2, 2]], gravity: "full", destructive: true },
  ],
  gravity: [{ hex: [-8, -5], dir: 4, body: "Mars", strength: "full" }],
  bases: [{ hex: [-8, -6], owner: "Mars", kind: "planetary", station: false, controlled_by: [0], fire_zone: [] }],
  asteroids: [[-7, -9]],
} as unknown as Board;

test("places by the bodies of the board, never as coordinates", () => {
  const idx = placeIndex(BOARD);
  assert.equal(placeWords("-9,-5", idx), "on Mars");
  assert.equal(placeWords("-8,-6", idx), "at the NE base of Mars");
  assert.equal(placeWords([-8, -5], idx), "in the gravity of Mars");
  assert.equal(placeWords("-9,-8", idx), "3 hexes N of Mars");
  assert.match(placeWords("-7,-9", idx), /^in the asteroids, \d hexes NE of Mars$/);
  for (const h of ["-9,-8", "-7,-9", "3,3"]) assert.doesNotMatch(placeWords(h, idx), /-?\d+,-?\d+/);
});

test("dice read from the events: who rolled, against whom, the result", () => {
  const ev = (step: number, event: Record<string, unknown>) => ({ step, text: "", event: event as { type: string } });
  const got = outcomes([
    ev(3, { type: "attack_declared", attackers: ["p0s0", "p0s1"], target: "p1s0", strength: 10, defense: 4, odds: "2:1" }),
    ev(3, { type: "counterattack", ships: ["p1s0"], target: "p0s0" }),
    ev(3, { type: "damage_roll", source: "counter", target: "p0s0", roll: 2, modifier: -1, odds: "1:2", result: "-", disabled: 0 }),
    ev(3, { type: "damage_roll", source: "gun", target: "p1s0", roll: 6, modifier: -2, odds: "2:1", result: "D3", disabled: 5 }),
    ev(4, { type: "damage_roll", source: "mine", target: "p1s1", roll: 6, modifier: 0, odds: null, result: "E", disabled: 0 }),
    ev(4, { type: "ship_destroyed", ship: "p1s1", hex: "1,1", cause: "mine" }),
  ]);
  assert.equal(got.length, 3);
  // the attack's roll first, then its counterattack's (the engine resolves the counterattack first)
  assert.deepEqual(got[0]!.by, ["p0s0", "p0s1"]);
  assert.deepEqual(got[1]!.by, ["p1s0"]);
  assert.equal(resultWords(got[0]!), "disabled 3 turns (5 in all)");
  assert.equal(rollWords(got[0]!), "rolled 6 −2 = 4");
  assert.equal(mapTag(got[0]!), "⚄ 6−2 · D3");
  assert.equal(resultWords(got[1]!), "no effect");
  assert.equal(rollWords(got[1]!), "rolled 2 −1 = 1");
  assert.equal(rollWords({ ...got[1]!, modifier: -3 }), "rolled 2 −3 = −1");
  assert.ok(got[2]!.destroyed && resultWords(got[2]!) === "eliminated" && got[2]!.by.length === 0);
});
