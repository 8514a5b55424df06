/**
 * Axial hex maths for a flat-top grid: the browser's copy of deltav.core.hexgrid (same conventions, same
 * arithmetic, checked against fixtures generated from the Python module: web/fixtures/hex.json).
 *
 * Coordinates are [q, r] (cube s = -q - r). Directions E, NE, NW, W, SW, SE = 0..5, screen y grows downward
 * (north is negative r). `line` is the engine's nudged line (cube lerp of endpoints moved by (+e, +e, -2e),
 * rounded half up like Math.floor(x + 0.5), never banker's rounding); `analyzeLine` is the exact integer
 * analysis (definite hexes and hexside-grazing pairs).
 *
 * This module owns geometry only: no terrain, no rules, no drawing.
 */

export type Hex = readonly [number, number];

export const DIRECTIONS: readonly Hex[] = [
  [1, 0],
  [1, -1],
  [0, -1],
  [-1, 0],
  [-1, 1],
  [0, 1],
];
export const DIRECTION_NAMES: readonly string[] = ["E", "NE", "NW", "W", "SW", "SE"];
export const SQRT3 = Math.sqrt(3.0);
const EPS = 1e-6;

const mod6 = (d: number): number => ((d % 6) + 6) % 6;

export function add(a: Hex, b: Hex): Hex {
  return [a[0] + b[0], a[1] + b[1]];
}

export function sub(a: Hex, b: Hex): Hex {
  return [a[0] - b[0], a[1] - b[1]];
}

export function scale(a: Hex, k: number): Hex {
  return [a[0] * k + 0, a[1] * k + 0]; // + 0 turns -0 into 0, as Python's integers have no -0
}

export function equals(a: Hex, b: Hex): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

/** The hex norm of an offset or velocity: max(|dq|, |dr|, |dq + dr|). */
export function length(v: Hex): number {
  return Math.max(Math.abs(v[0]), Math.abs(v[1]), Math.abs(v[0] + v[1]));
}

export function distance(a: Hex, b: Hex): number {
  return length(sub(a, b));
}

export function direction(d: number): Hex {
  return DIRECTIONS[mod6(d)]!;
}

export function opposite(d: number): number {
  return (mod6(d) + 3) % 6;
}

export function neighbour(h: Hex, d: number): Hex {
  return add(h, direction(d));
}

export function neighbours(h: Hex): Hex[] {
  return DIRECTIONS.map((d) => add(h, d));
}

/** The hexes at exactly `radius` from `center`: from the corner `radius` steps SW, walking E, NE, NW, W, SW, SE. */
export function ring(center: Hex, radius: number): Hex[] {
  if (radius < 0 || !Number.isInteger(radius)) throw new RangeError("radius must be an integer >= 0");
  if (radius === 0) return [center];
  const out: Hex[] = [];
  let q = center[0] + DIRECTIONS[4]![0] * radius;
  let r = center[1] + DIRECTIONS[4]![1] * radius;
  for (let d = 0; d < 6; d++) {
    const [dq, dr] = DIRECTIONS[d]!;
    for (let i = 0; i < radius; i++) {
      out.push([q, r]);
      q += dq;
      r += dr;
    }
  }
  return out;
}

/** Every hex within `radius` of `center`, centre first, then ring by ring. */
export function spiral(center: Hex, radius: number): Hex[] {
  const out: Hex[] = [center];
  for (let k = 1; k <= radius; k++) out.push(...ring(center, k));
  return out;
}

/** Rotate an offset by `steps` sixths of a turn counter-clockwise on screen (E -> NE -> NW ...). */
export function rotate(v: Hex, steps: number): Hex {
  let [q, r] = v;
  for (let i = 0; i < mod6(steps); i++) [q, r] = [q + r, 0 - q];
  return [q, r];
}

/** The direction index of a unit offset, or null if `v` is not one of the six unit offsets. */
export function directionOf(v: Hex): number | null {
  const i = DIRECTIONS.findIndex((d) => equals(d, v));
  return i < 0 ? null : i;
}

/** Round to nearest with .5 going up: exactly the engine's floor(x + 0.5). */
export function roundHalfUp(x: number): number {
  return Math.floor(x + 0.5);
}

/** The hex [q, r] containing the fractional cube point (q, r, s): round each half up, then repair the
 * component with the largest rounding error (q first, then r, else s). */
export function cubeRound(q: number, r: number, s: number): Hex {
  let rq = roundHalfUp(q);
  let rr = roundHalfUp(r);
  const rs = roundHalfUp(s);
  const eq = Math.abs(rq - q);
  const er = Math.abs(rr - r);
  const es = Math.abs(rs - s);
  if (eq > er && eq > es) rq = -rr - rs;
  else if (er > es) rr = -rq - rs;
  return [rq + 0, rr + 0]; // + 0 turns -0 into 0
}

/** Centre of hex `h` in pixels for a flat-top grid of hex radius `size` (y grows downward). */
export function pixel(h: Hex, size = 1.0): [number, number] {
  const [q, r] = h;
  return [size * 1.5 * q, size * ((SQRT3 / 2) * q + SQRT3 * r)];
}

/** The hex under pixel (x, y): the inverse of `pixel`. */
export function fromPixel(x: number, y: number, size = 1.0): Hex {
  const q = ((2.0 / 3.0) * x) / size;
  const r = ((-1.0 / 3.0) * x + (SQRT3 / 3.0) * y) / size;
  return cubeRound(q, r, -q - r);
}

/** The six corners of hex `h` (flat-top: the first corner due east of the centre), in pixels. */
export function corners(h: Hex, size = 1.0): [number, number][] {
  const [cx, cy] = pixel(h, size);
  const out: [number, number][] = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    out.push([cx + size * Math.cos(a), cy + size * Math.sin(a)]);
  }
  return out;
}

/** The engine's line from `a` to `b` (distance + 1 hexes): a cube lerp between endpoints nudged by
 * sign * (+1e-6, +1e-6, -2e-6). sign = 1 is the primary trace, -1 the alternate. */
export function line(a: Hex, b: Hex, sign: 1 | -1 = 1): Hex[] {
  const dq = b[0] - a[0];
  const dr = b[1] - a[1];
  const n = Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
  if (n === 0) return [[a[0], a[1]]];
  const e = EPS * sign;
  const out: Hex[] = [];
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const [oq, or] = cubeRound(e + dq * t, e + dr * t, -2 * e + (-dq - dr) * t);
    out.push([a[0] + oq, a[1] + or]);
  }
  return out;
}

/** Exact analysis of a line between hex centres: for each step the nearest hexes (one: definite; two: the
 * point lies on their shared hexside), the definite hexes in order and the grazed pairs. */
export interface LineAnalysis {
  steps: Hex[][];
  definite: Hex[];
  ambiguous: [Hex, Hex][];
}

const cmpHex = (a: Hex, b: Hex): number => a[0] - b[0] || a[1] - b[1];

/** floor(a / b) for integers with b > 0, as Python's //. */
const floorDiv = (a: number, b: number): number => Math.floor(a / b);

function nearestHexes(x: number, y: number, n: number): Hex[] {
  const z = -x - y;
  let cx = floorDiv(2 * x + n, 2 * n);
  let cy = floorDiv(2 * y + n, 2 * n);
  const cz = floorDiv(2 * z + n, 2 * n);
  const ex = Math.abs(cx * n - x);
  const ey = Math.abs(cy * n - y);
  const ez = Math.abs(cz * n - z);
  if (ex > ey && ex > ez) cx = -cy - cz;
  else if (ey > ez) cy = -cx - cz;
  let best: Hex[] = [];
  let bestD = Infinity;
  const candidates: Hex[] = [[cx, cy], ...DIRECTIONS.map(([dq, dr]): Hex => [cx + dq, cy + dr])];
  for (const [hq, hr] of candidates) {
    const hs = -hq - hr;
    const d = (hq * n - x) ** 2 + (hr * n - y) ** 2 + (hs * n - z) ** 2;
    if (d < bestD) {
      bestD = d;
      best = [[hq, hr]];
    } else if (d === bestD) {
      best.push([hq, hr]);
    }
  }
  return best.sort(cmpHex);
}

export function analyzeLine(a: Hex, b: Hex): LineAnalysis {
  const dq = b[0] - a[0];
  const dr = b[1] - a[1];
  const n = Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
  const shift = (h: Hex): Hex => [a[0] + h[0], a[1] + h[1]];
  const steps: Hex[][] =
    n === 0 ? [[[0, 0]]] : Array.from({ length: n + 1 }, (_, i) => nearestHexes(dq * i, dr * i, n));
  const abs = steps.map((s) => s.map(shift));
  return {
    steps: abs,
    definite: abs.filter((s) => s.length === 1).map((s) => s[0]!),
    ambiguous: abs.filter((s) => s.length === 2).map((s): [Hex, Hex] => [s[0]!, s[1]!]),
  };
}

/** The string key "q,r" used in JSON forms. */
export function key(h: Hex): string {
  return `${h[0]},${h[1]}`;
}

/** Inverse of `key`; throws on anything but two comma-separated integers. */
export function parseKey(text: string): Hex {
  const parts = text.split(",");
  if (parts.length !== 2 || !parts.every((p) => /^\s*[-+]?\d+\s*$/.test(p))) {
    throw new SyntaxError(`hex key must be 'q,r', got ${JSON.stringify(text)}`);
  }
  return [parseInt(parts[0]!, 10), parseInt(parts[1]!, 10)];
}
