/**
 * The first-game guide of the mining screen (`MiningScreen.guide()`, shown by the shell's guide frame): what a turn
 * is, what to click, what wins. Three steps wait for the player (fly a rocket out, try a contract, look at a tile)
 * and end on their own when a snapshot shows it done; the others go on with Next. Pure data and predicates over snapshots.
 */
import type { GuideStep, Snapshot } from "../shell/screen";
import { STATION, type MiningView, asView } from "./model";

/** One step of the guide: the shell's `GuideStep` (`web/src/shell/guide.ts`). */
export type MiningGuideStep = GuideStep;

const mine = (s: Snapshot): { v: MiningView; me: number } | null => {
  const v = asView(s);
  return s.seat === null ? null : { v, me: s.seat };
};

/** The snapshot's log holds an event of `type` by the player. */
const did = (s: Snapshot, me: number, type: string): boolean =>
  s.log.some((e) => e.event.type === type && e.event["player"] === me);

/** The player flew a rocket out: one stands on an asteroid, or the log shows a move of theirs (a bump sends the
 *  rocket home at once, and the step is still done). */
export function rocketOut(s: Snapshot): boolean {
  const m = mine(s);
  if (!m || s.status === "over") return true;
  return (m.v.rockets[m.me] ?? []).some((n, sq) => sq !== STATION && n > 0) || did(s, m.me, "rocket-moved");
}

/** The player declared a contract this turn (or the turn passed to someone else). */
export function triedContract(s: Snapshot): boolean {
  const m = mine(s);
  if (!m || s.status === "over") return true;
  return m.v.current_player !== m.me || m.v.attempt !== null;
}

/** The player knows a face-down tile nobody else was shown (looked at it secretly). */
export function sawATile(s: Snapshot): boolean {
  const m = mine(s);
  if (!m || s.status === "over") return true;
  const pub = new Set(m.v.public);
  return m.v.status.some((st, sq) => st === "face_down" && m.v.tiles[sq] !== null && !pub.has(sq)) || did(s, m.me, "tile-seen");
}

export function miningGuide(): MiningGuideStep[] {
  return [
    {
      title: "Delta V: asteroid mining",
      text: "48 asteroid tiles lie face down around the space station. Most are minerals worth 1 to 5 points; some are incidents. You win by fulfilling contracts with the tiles you remember.",
      anchor: ".mn-board",
    },
    {
      title: "A turn: one action, then one contract",
      text: "On your turn you take ONE action (move rockets, prospect, a satellite survey or buy a rocket), then try ONE contract. This box always says what you may do now.",
      anchor: ".mn-prompt",
    },
    {
      title: "Fly a rocket out",
      text: "Click your rocket on the station (or tap it), then one of the highlighted tiles; or drag it there. Landing on an opponent's rocket sends both home. Try it now.",
      anchor: ".mn-board",
      until: rocketOut,
    },
    {
      title: "Contracts",
      text: "After the action comes the contract: click an open card (try one now), then reveal its minerals one tile at a time. Each tile shows its chance to count; a tile you know says fits or no. One wrong tile fails the attempt, unless you bribe.",
      anchor: ".mn-contracts",
      until: triedContract,
    },
    {
      title: "Look secretly",
      text: "Prospect (P) looks at every tile under your rockets. What you saw stays on the field for you alone (\"you saw\"); the others only see a dot of your colour where you looked. Try it when it is your turn again.",
      anchor: ".mn-prompt",
      until: sawATile,
    },
    {
      title: "Bribe counters",
      text: "Your five counters pay for a satellite survey (look at three tiles in a row or column), a mineral replacement (a wrong tile counts as the counter's mineral) or a bid-up of an opponent's contract. Each spent counter costs 2 points at the end.",
      anchor: ".mn-sheet",
    },
    {
      title: "What wins",
      text: "The game ends when the last contract is fulfilled, when the fifth Alien Encounter is revealed, or when no free tile is left. The most points wins: tile values minus 2 per spent counter; ties go to contracts, then unspent counters. Press ? for the whole help (the guide is there too).",
      anchor: ".mn-sheet",
    },
  ];
}
