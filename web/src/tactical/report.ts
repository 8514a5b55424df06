/**
 * What just happened, read from the events this viewer received: every die rolled on a damage table (a gun
 * attack and its counterattack, planetary defense, a ram, a mine, a torpedo, a nuke, asteroids), with who rolled
 * it, the roll, the modifiers and the result, and whether the ship was destroyed. The screen shows these on the
 * map at the ship hit and in the panel, so the result of an attack is where the player looks. Pure functions over
 * the log entries (no DOM).
 *
 * Owns the reading of damage events only; the words for ships come from words.ts, the rules from the engine.
 */
import type { LogEntry } from "../shell/screen";

export type Source = "gun" | "counter" | "planetary_defense" | "ram" | "mine" | "torpedo" | "nuke" | "asteroid" | "anti_nuke" | string;

/** One die on a damage table and what it did. */
export interface Outcome {
  step: number;
  source: Source;
  /** The ship (or, for anti-nuke fire, the nuke) the die was rolled against. */
  target: string;
  /** The ships that fired (an attack's group, a counterattack's ships); empty for ordnance, rams, rocks, bases. */
  by: string[];
  odds: string | null;
  roll: number;
  modifier: number;
  /** "-", "D1".."D5" or "E". */
  result: string;
  /** The target's disabled turns after the roll. */
  disabled: number;
  destroyed: boolean;
}

/** The outcomes of these events, in order; an attack's own roll before its counterattack's (the engine resolves
 *  the counterattack first, but a reader follows the attack, then the answer). */
export function outcomes(events: readonly LogEntry[]): Outcome[] {
  const out = rawOutcomes(events);
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]!;
    const b = out[i + 1]!;
    if (a.source === "counter" && b.source === "gun" && a.step === b.step && a.by.includes(b.target)) {
      out[i] = b;
      out[i + 1] = a;
      i++;
    }
  }
  return out;
}

function rawOutcomes(events: readonly LogEntry[]): Outcome[] {
  const out: Outcome[] = [];
  let attackers: string[] = [];
  let counter: string[] = [];
  for (const e of events) {
    const ev = e.event;
    if (ev.type === "attack_declared") attackers = ((ev["attackers"] as string[]) ?? []).map(String);
    else if (ev.type === "counterattack") counter = ((ev["ships"] as string[]) ?? []).map(String);
    else if (ev.type === "damage_roll") {
      const source = String(ev["source"]);
      out.push({
        step: e.step,
        source,
        target: String(ev["target"]),
        by: source === "gun" || source === "anti_nuke" ? attackers : source === "counter" ? counter : [],
        odds: (ev["odds"] as string | null) ?? null,
        roll: Number(ev["roll"]),
        modifier: Number(ev["modifier"] ?? 0),
        result: String(ev["result"]),
        disabled: Number(ev["disabled"] ?? 0),
        destroyed: false,
      });
    } else if (ev.type === "ship_destroyed") {
      const id = String(ev["ship"]);
      for (let i = out.length - 1; i >= 0; i--) {
        if (out[i]!.target === id) {
          out[i]!.destroyed = true;
          break;
        }
      }
    } else if (ev.type === "ordnance_removed" && ev["reason"] === "shot") {
      const id = String(ev["ordnance"]);
      for (let i = out.length - 1; i >= 0; i--) {
        if (out[i]!.target === id) {
          out[i]!.destroyed = true;
          break;
        }
      }
    }
  }
  return out;
}

/** The result in words: "no effect", "disabled 2 turns (3 in all)", "eliminated". */
export function resultWords(o: Outcome): string {
  if (o.destroyed || o.result === "E") return o.source === "anti_nuke" ? "shot down" : "eliminated";
  if (o.result === "-") return "no effect";
  const n = Number(o.result.slice(1));
  const total = o.disabled;
  return `disabled ${n} turn${n === 1 ? "" : "s"}${total > n ? ` (${total} in all)` : ""}`;
}

/** The die in words: "rolled 4, −3 → 1" or "rolled 5". */
export function rollWords(o: Outcome): string {
  if (!o.modifier) return `rolled ${o.roll}`;
  const m = o.modifier > 0 ? `+${o.modifier}` : `−${-o.modifier}`;
  const total = o.roll + o.modifier;
  return `rolled ${o.roll} ${m} = ${total < 0 ? `−${-total}` : total}`;
}

/** The short tag drawn on the map at the ship hit: "4−3 · no effect", "6 · D2", "E". */
export function mapTag(o: Outcome): string {
  const die = o.modifier ? `${o.roll}${o.modifier > 0 ? "+" : "−"}${Math.abs(o.modifier)}` : String(o.roll);
  const res = o.destroyed || o.result === "E" ? (o.source === "anti_nuke" ? "shot down" : "ELIMINATED") : o.result === "-" ? "miss" : o.result;
  return `⚄ ${die} · ${res}`;
}

/** What rolled the die, as a noun phrase without the ship names (the screen adds them). */
export const SOURCE_WORDS: Record<string, string> = {
  gun: "gun attack", counter: "counterattack", planetary_defense: "planetary defense", ram: "ram", mine: "mine",
  torpedo: "torpedo", nuke: "nuke", asteroid: "asteroid hazard", anti_nuke: "fire at a nuke",
};
