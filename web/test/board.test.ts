// The board document reader and the camera: pure logic, no DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Camera } from "../src/shell/camera";
import { BoardError, BoardIndex, parseBoard } from "../src/tactical/boardData";

const doc = (): Record<string, unknown> => ({
  format: "deltav-tactical-board/1",
  bounds: { minQ: -2, maxQ: 2, minR: -2, maxR: 2 },
  off_map_margin: 1,
  size: { columns: 5, rows: 5, hexes: 25 },
  bodies: [{ name: "Rock", kind: "planet", center: [0, 0], surface_radius: 0, surface: [[0, 0]], gravity: "full", destructive: false }],
  gravity: [{ hex: [1, 0], dir: 3, body: "Rock", strength: "full" }],
  bases: [{ hex: [1, 0], owner: "Rock", kind: "planetary", station: false, controlled_by: [1], fire_zone: [[1, 0]] }],
  asteroids: [[2, -2]],
  scenario: { id: "t", name: "T", summary: "", players: [{ home: "Rock", target: "", escape_wins: false }], checkpoints: [], escape_edge: "none", planetary_defense: true },
});

test("a good board parses and indexes", () => {
  const b = parseBoard(doc());
  const idx = new BoardIndex(b);
  assert.equal(idx.surface.get("0,0")?.name, "Rock");
  assert.equal(idx.gravity.get("1,0")?.dir, 3);
  assert.deepEqual(idx.base.get("1,0")?.controlled_by, [1]);
  assert.ok(idx.asteroid.has("2,-2"));
  assert.ok(idx.inBounds([2, 2]) && !idx.inBounds([3, 0]) && idx.inBounds([3, 0], 1));
});

test("a bad board names the field", () => {
  const cases: [(d: any) => void, string][] = [
    [(d) => (d.format = "x"), "format"],
    [(d) => (d.bounds.minQ = "a"), "bounds.minQ"],
    [(d) => (d.bounds.minQ = 5), "bounds"],
    [(d) => (d.bodies[0].kind = "comet"), "bodies[0].kind"],
    [(d) => (d.gravity[0].dir = 6), "gravity[0].dir"],
    [(d) => (d.gravity[0].body = "Nope"), "gravity[0].body"],
    [(d) => (d.bases[0].hex = [1]), "bases[0].hex"],
    [(d) => (d.asteroids = {}), "asteroids"],
  ];
  for (const [spoil, field] of cases) {
    const d = doc();
    spoil(d);
    assert.throws(() => parseBoard(d), (e: unknown) => e instanceof BoardError && e.field === field, field);
  }
});

test("camera: screen and world round-trip, zoom keeps the point under the cursor", () => {
  const c = new Camera();
  c.setViewport(800, 600);
  c.minZoom = 1;
  c.maxZoom = 100;
  c.jump(10, -5, 20);
  const [wx, wy] = c.toWorld(123, 456);
  assert.deepEqual(c.toScreen(wx, wy).map((v) => Math.round(v * 1e9) / 1e9), [123, 456]);
  c.zoomAt(2, 123, 456, false);
  assert.equal(c.zoom, 40);
  const [ax, ay] = c.toWorld(123, 456);
  assert.ok(Math.abs(ax - wx) < 1e-9 && Math.abs(ay - wy) < 1e-9);
  c.zoomAt(1000, 400, 300, false);
  assert.equal(c.zoom, 100, "zoom is clamped");
});

test("camera: easing reaches the target and limits hold the centre", () => {
  const c = new Camera();
  c.setViewport(400, 400);
  c.limits = { x: 0, y: 0, w: 10, h: 10 };
  c.jump(5, 5, 10);
  c.moveTo(50, -50);
  assert.deepEqual([c.target.x, c.target.y], [10, 0]);
  let frames = 0;
  while (c.step(16) && frames < 500) frames++;
  assert.ok(c.settled && frames < 200, `settled after ${frames} frames`);
  assert.deepEqual([c.x, c.y], [10, 0]);
});
