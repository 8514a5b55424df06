/**
 * A tiny seeded generator (mulberry32) for decoration only: star fields, rock shapes. Same seed, same picture.
 * Never used for anything a rule depends on (the engine owns all dice).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed from integers (hex coordinates, a layer number). */
export function hashInts(...xs: number[]): number {
  let h = 0x811c9dc5;
  for (const x of xs) {
    h ^= x & 0xffff;
    h = Math.imul(h, 0x01000193);
    h ^= (x >>> 16) & 0xffff;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
