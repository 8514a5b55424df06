// The client's hex maths against the engine: every answer in fixtures/hex.json (generated from
// deltav.core.hexgrid by fixtures/make_hex_fixtures.py) must come out of src/shell/hex.ts exactly.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as hex from "../src/shell/hex";

type H = [number, number];
interface Fixtures {
  format: string;
  directions: H[];
  direction_names: string[];
  neighbours: { hex: H; out: H[] }[];
  distance: { a: H; b: H; out: number }[];
  rotate: { v: H; steps: number; out: H }[];
  ring: { center: H; radius: number; out: H[] }[];
  spiral: { center: H; radius: number; out: H[] }[];
  pixel: { hex: H; size: number; out: [number, number] }[];
  from_pixel: { x: number; y: number; size: number; out: H }[];
  line: { a: H; b: H; sign: 1 | -1; out: H[] }[];
  analyze_line: { a: H; b: H; steps: H[][]; definite: H[]; ambiguous: [H, H][] }[];
  key: { hex: H; out: string }[];
}

const fixturePath = process.env.DELTAV_HEX_FIXTURES ?? new URL("../fixtures/hex.json", import.meta.url);
const fx: Fixtures = JSON.parse(readFileSync(fixturePath, "utf8"));

test("fixture file format", () => {
  assert.equal(fx.format, "deltav-hex-fixtures/1");
});

test("directions and names", () => {
  assert.deepEqual(hex.DIRECTIONS, fx.directions);
  assert.deepEqual(hex.DIRECTION_NAMES, fx.direction_names);
  for (let d = 0; d < 6; d++) {
    assert.equal(hex.directionOf(hex.direction(d)), d);
    assert.deepEqual(hex.direction(d + 6), hex.direction(d));
    assert.deepEqual(hex.direction(hex.opposite(d)), hex.scale(hex.direction(d), -1));
  }
  assert.equal(hex.directionOf([2, 0]), null);
});

test("neighbours", () => {
  assert.ok(fx.neighbours.length > 50);
  for (const c of fx.neighbours) {
    assert.deepEqual(hex.neighbours(c.hex), c.out, `neighbours of ${c.hex}`);
    c.out.forEach((n, d) => assert.deepEqual(hex.neighbour(c.hex, d), n));
  }
});

test("distance", () => {
  for (const c of fx.distance) assert.equal(hex.distance(c.a, c.b), c.out, `distance ${c.a} ${c.b}`);
});

test("rotate", () => {
  for (const c of fx.rotate) assert.deepEqual(hex.rotate(c.v, c.steps), c.out, `rotate ${c.v} by ${c.steps}`);
});

test("ring and spiral", () => {
  for (const c of fx.ring) assert.deepEqual(hex.ring(c.center, c.radius), c.out, `ring ${c.center} ${c.radius}`);
  for (const c of fx.spiral) assert.deepEqual(hex.spiral(c.center, c.radius), c.out);
  assert.throws(() => hex.ring([0, 0], -1), RangeError);
});

test("hex to pixel is bit-identical to the engine", () => {
  for (const c of fx.pixel) assert.deepEqual(hex.pixel(c.hex, c.size), c.out, `pixel ${c.hex} size ${c.size}`);
});

test("pixel to hex, including hexsides and corners", () => {
  assert.ok(fx.from_pixel.length > 1000);
  for (const c of fx.from_pixel) {
    assert.deepEqual(hex.fromPixel(c.x * c.size, c.y * c.size, c.size), c.out, `fromPixel ${c.x},${c.y} size ${c.size}`);
  }
});

test("pixel and fromPixel round-trip", () => {
  for (const c of fx.neighbours) assert.deepEqual(hex.fromPixel(...hex.pixel(c.hex, 28), 28), c.hex);
});

test("the nudged line, both signs", () => {
  assert.ok(fx.line.length > 300);
  for (const c of fx.line) assert.deepEqual(hex.line(c.a, c.b, c.sign), c.out, `line ${c.a} -> ${c.b} sign ${c.sign}`);
});

test("exact line analysis", () => {
  for (const c of fx.analyze_line) {
    const an = hex.analyzeLine(c.a, c.b);
    const where = `analyzeLine ${c.a} -> ${c.b}`;
    assert.deepEqual(an.steps, c.steps, where);
    assert.deepEqual(an.definite, c.definite, where);
    assert.deepEqual(an.ambiguous, c.ambiguous, where);
  }
  assert.ok(fx.analyze_line.some((c) => c.ambiguous.length > 0), "fixtures include grazing lines");
});

test("keys", () => {
  for (const c of fx.key) {
    assert.equal(hex.key(c.hex), c.out);
    assert.deepEqual(hex.parseKey(c.out), c.hex);
  }
  assert.throws(() => hex.parseKey("1,2,3"), SyntaxError);
  assert.throws(() => hex.parseKey("a,b"), SyntaxError);
});
