/**
 * The mining screen's pure logic (no DOM, no canvas): the view's types, which legal entries a click on a square
 * or a control stands for, the words of the prompt for each decision, why a refused click was refused, the
 * running match of an attempt and the standings. Everything here reads the snapshot the server sent; nothing
 * decides a rule (what may be submitted is always one of `snapshot.legal`).
 */
import type { LegalEntry, LogEntry, Snapshot } from "../shell/screen";
import type { Attempt, Notes, TileFace, View as MiningView } from "../generated/mining";
import { notesReader } from "../shell/notes";

export const GRID = 7;
export const STATION = 24;
export const MINERALS = ["alphatite", "betamite", "gammatite", "deltamite", "omnidium"] as const;

/** The view and the board (the static component data), generated from the Python side's shapes
 *  (`deltav.games.mining.visibility`: web/src/generated/mining.ts). */
export type { Attempt, Bribe, Contract, HandTile, TileFace } from "../generated/mining";
export type { Board as MiningComponents, View as MiningView } from "../generated/mining";
/** The engine's notes on legal entries, by action type (annotate.py: web/src/generated/mining.ts). */
export type { Notes };
/** The engine's note on a legal entry whose action is a `type`, if any. */
export const noteOf = notesReader<Notes>();

export interface Square {
  square: number;
  status: "station" | "empty" | "face_down" | "face_up" | "revealed";
  tile: TileFace | null;
  rockets: number[];
  looked_by: number[];
  public: boolean;
}
/** The view's field as one record per square, from its columns. */
export function squaresOf(v: MiningView): Square[] {
  const lookers: number[][] = v.status.map(() => []);
  v.looked.forEach((squares, p) => { for (const s of squares) lookers[s]?.push(p); });
  const pub = new Set(v.public);
  return v.status.map((status, s) => ({
    square: s, status, tile: v.tiles[s] ?? null, rockets: v.rockets.map((r) => r[s] ?? 0),
    looked_by: lookers[s] ?? [], public: pub.has(s),
  }));
}
export const asView = (s: Snapshot): MiningView => s.view as unknown as MiningView;

export const rowCol = (sq: number): [number, number] => [Math.floor(sq / GRID), sq % GRID];
/** The engine's square names: "r3 c4" (1-based), the station by name. */
export const squareName = (sq: number): string => {
  if (sq === STATION) return "the station";
  const [r, c] = rowCol(sq);
  return `r${r + 1} c${c + 1}`;
};

const KIND_NAMES: Record<string, string> = {
  alphatite: "Alphatite", betamite: "Betamite", gammatite: "Gammatite", deltamite: "Deltamite",
  omnidium: "Omnidium", alien_encounter: "Alien Encounter", mineral_scan: "Mineral Scan", sabotage: "Sabotage",
  rocket_acquisition: "Rocket Acquisition", pirate_attack: "Pirate Attack", meteor_storm: "Meteor Storm",
};
export const kindName = (k: string): string => KIND_NAMES[k] ?? k;
/** A contract as the engine's texts name it: its card's label and what it needs ("contract C01 (Alphatite,
 *  Deltamite)"), so a prompt says what was matched, not only a label. */
export function contractWords(v: { contracts: { id: string; minerals: string[] }[] }, id: string): string {
  const c = v.contracts.find((x) => x.id === id);
  return c ? `contract ${id} (${c.minerals.map(kindName).join(", ")})` : `contract ${id}`;
}
export const isMineral = (k: string): boolean => (MINERALS as readonly string[]).includes(k);
/** "an Alphatite", "a Betamite". */
export const article = (word: string): string => (/^[AEIOU]/i.test(word) ? `an ${word}` : `a ${word}`);
export const tileName = (t: { kind: string; value: number }): string =>
  isMineral(t.kind) ? `${kindName(t.kind)} ${t.value}` : kindName(t.kind);

/** The rulebook's text of each incident (what a player holding it may do). */
export const INCIDENT_TEXT: Record<string, string> = {
  mineral_scan: "Discard on your turn: look secretly at every tile under your rockets, then at as many more tiles as you have rockets in play.",
  sabotage: "Discard on your turn: send one opponent's rocket back to its shipyard; you may move one of your rockets onto that square.",
  rocket_acquisition: "Discard on your turn: place a rocket from your shipyard on the station.",
  pirate_attack: "Discard on an opponent's turn, before their action: they take no action this turn.",
  meteor_storm: "Discard on an opponent's turn, before their contract attempt: they may not try a contract this turn.",
  alien_encounter: "Stays face-up in play. The revealer may move the alien and steal one incident or unspent bribe counter. The fifth one ends the game.",
};

/** How this view shows a face-down tile that is not public: "you saw" (the viewer looked at it), "Ann saw"
 *  (a seat's view shown to someone else: a replay), or "face down" (no viewer: the full view of a finished
 *  match, where every tile's face is shown). */
export function seenLabel(snap: Snapshot, name: (s: number) => string): string {
  const v = asView(snap);
  if (v.viewer === null) return "face down";
  return snap.seat === v.viewer ? "you saw" : `${name(v.viewer)} saw`;
}

/** The legal entries of one type. */
export const ofType = (legal: LegalEntry[], ...types: string[]): LegalEntry[] =>
  legal.filter((e) => types.includes(e.action.type));

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);

/** The square a square-targeted legal entry acts on (null for the others). `move` acts on its destination,
 *  `sabotage-move` on its source. */
export function targetSquare(e: LegalEntry): number | null {
  const a = e.action;
  switch (a.type) {
    case "look": case "reveal": case "move-alien": case "reveal-incident": case "sabotage":
      return num(a.square);
    case "move":
      return num(a.to);
    case "sabotage-move":
      return num(a.frm);
    default:
      return null;
  }
}

/** The phases where a click on a square picks a legal entry targeting that square directly. */
const DIRECT = new Set(["survey", "scan", "reveal", "bid-up-reveal", "alien-move", "reveal-choice", "sabotage-target",
  "sabotage-move"]);

/** Squares that are a rocket's source in the legal moves (`move.frm`). */
export function moveSources(legal: LegalEntry[]): Set<number> {
  return new Set(ofType(legal, "move").map((e) => num(e.action.frm)).filter((x): x is number => x !== null));
}

/** The move entries from `frm` to `to` (several when the mover must pick whose rocket to bump). */
export const movesBetween = (legal: LegalEntry[], frm: number, to: number): LegalEntry[] =>
  ofType(legal, "move").filter((e) => e.action.frm === frm && e.action.to === to);

/** What a click on a square means now: entries it could stand for (a chooser when more than one), a rocket
 *  selected as a move's source, or a refusal in words. `selected` is the chosen source of a move. */
export type Click =
  | { kind: "submit"; entries: LegalEntry[] }
  | { kind: "select"; square: number }
  | { kind: "deselect" }
  | { kind: "refuse"; why: string };

export function clickSquare(snap: Snapshot, sq: number, selected: number | null,
  name: (s: number) => string = (s) => `Player ${s + 1}`): Click {
  const v = asView(snap);
  if (snap.status === "over") return { kind: "refuse", why: "The game is over." };
  if (snap.seat === null) return { kind: "refuse", why: "You are watching: spectators cannot act." };
  if (!snap.to_act) return { kind: "refuse", why: waitingText(snap, name) };
  const legal = snap.legal;
  if (DIRECT.has(v.phase)) {
    const hits = legal.filter((e) => targetSquare(e) === sq);
    if (hits.length) return { kind: "submit", entries: hits };
    return { kind: "refuse", why: whyNotSquare(v, snap.seat, sq) };
  }
  if (v.phase === "action" || v.phase === "moving") {
    const sources = moveSources(legal);
    if (selected !== null) {
      if (sq === selected) return { kind: "deselect" };
      const hits = movesBetween(legal, selected, sq);
      if (hits.length) return { kind: "submit", entries: hits };
      if (sources.has(sq)) return { kind: "select", square: sq };
      return { kind: "refuse", why: whyNoMove(v, snap.seat, selected, sq) };
    }
    if (sources.has(sq)) return { kind: "select", square: sq };
    return { kind: "refuse", why: whyNoSource(v, snap.seat, sq, legal) };
  }
  return { kind: "refuse", why: `Nothing on the board to pick now: ${promptFor(snap, name).detail}` };
}

function whyNotSquare(v: MiningView, me: number, sq: number): string {
  const s = squaresOf(v)[sq];
  if (!s) return "There is no such square.";
  if (sq === STATION) return "The station holds no tile.";
  if (s.status === "empty") return `${squareName(sq)} is empty: its tile was collected.`;
  if (v.alien === sq && v.phase !== "sabotage-target" && v.phase !== "sabotage-move") {
    return v.phase === "alien-move" ? "The alien is already there; move it somewhere else."
      : `The alien is on ${squareName(sq)}: nobody may look at or reveal that tile.`;
  }
  const others = s.rockets.some((n, q) => q !== me && n > 0);
  switch (v.phase) {
    case "survey":
      if (others) return `An opponent's rocket is on ${squareName(sq)}: you may not survey it.`;
      if (v.picks.includes(sq)) return `You already looked at ${squareName(sq)} in this survey.`;
      if (s.status !== "face_down") return `${squareName(sq)} is not a face-down tile.`;
      return "A survey's three tiles must lie in one row or one column.";
    case "scan":
      if (v.picks.includes(sq)) return `You already looked at ${squareName(sq)} in this scan.`;
      if (others) return `An opponent's rocket is on ${squareName(sq)}: you may not look there.`;
      return `${squareName(sq)} is not a face-down tile you may look at.`;
    case "reveal": case "bid-up-reveal":
      if (others) return `An opponent's rocket is on ${squareName(sq)}: you may not reveal it.`;
      if (s.status === "revealed") return `${squareName(sq)} is already revealed in this attempt.`;
      return `${squareName(sq)} is not a face-down tile you may reveal.`;
    case "reveal-choice":
      return "You may reveal only an incident you just saw under one of your own rockets; or keep it secret.";
    case "sabotage-target":
      return others ? "That rocket cannot be sabotaged." : `No opponent's rocket is on ${squareName(sq)}.`;
    case "sabotage-move":
      return s.rockets[me] ? `Your rocket on ${squareName(sq)} cannot move (the alien holds it).`
        : `You have no rocket on ${squareName(sq)} to move onto the sabotaged square.`;
    case "alien-move":
      return `The alien must go onto a tile (not the station, not an empty square).`;
    default:
      return "That square is not a choice now.";
  }
}

function whyNoSource(v: MiningView, me: number, sq: number, legal: LegalEntry[]): string {
  const s = squaresOf(v)[sq];
  if (!s) return "There is no such square.";
  if (!ofType(legal, "move").length) return v.pirated ? "A Pirate Attack took your action this turn." : "No rocket can move now.";
  if (!s.rockets[me]) {
    return sq === STATION ? "None of your rockets is on the station." :
      `You have no rocket on ${squareName(sq)}. Pick one of your rockets first (or the station), then its destination.`;
  }
  if (v.alien === sq) return `The alien holds your rocket on ${squareName(sq)}: it cannot move while the alien is there.`;
  if (v.moved && v.moved.includes(sq)) return `The rocket on ${squareName(sq)} has already moved this action (each rocket moves once).`;
  return `Your rocket on ${squareName(sq)} has no legal move.`;
}

function whyNoMove(v: MiningView, me: number, frm: number, to: number): string {
  const s = squaresOf(v)[to];
  if (!s) return "There is no such square.";
  if (s.status === "empty") return `${squareName(to)} is empty: rockets go onto asteroid tiles or the station.`;
  if (frm !== STATION && to !== STATION && v.options["asteroid_to_asteroid"] !== true) {
    return "Rockets fly from the station to an asteroid or from an asteroid back to the station, never asteroid to asteroid.";
  }
  if (v.moved && v.moved.includes(frm)) return "That rocket has already moved this action.";
  void me;
  return `Your rocket cannot move from ${squareName(frm)} to ${squareName(to)} now.`;
}

/** The words of a bump choice: "bump Ben's rocket" (`bump` names the opponent). */
export function moveLabel(e: LegalEntry, name: (s: number) => string): string {
  const a = e.action;
  const freeze = (noteOf(e, "move") ?? noteOf(e, "sabotage-move"))?.freezes === true ? " (the alien is there: it will be stuck)" : "";
  const bump = num(a.bump);
  const to = a.type === "sabotage-move" ? "the sabotaged square" : squareName(num(a.to) ?? -1);
  const from = squareName(num(a.frm) ?? -1);
  if (bump !== null) return `Move a rocket from ${from} to ${to}, bumping ${name(bump)}'s rocket (both go back to the shipyards)${freeze}`;
  return `Move a rocket from ${from} to ${to}${freeze}`;
}

/** Who the table waits for, in words. */
export function waitingText(snap: Snapshot, name: (s: number) => string): string {
  if (snap.status === "over") return "The game is over.";
  const d = snap.deciding[0];
  if (!d) return "Waiting.";
  return `${snap.seat === null ? "Watching" : "Waiting"}: ${name(d.seat)} ${phaseWords(asView(snap).phase)}.`;
}

const PHASE_WORDS: Record<string, string> = {
  "pirate-window": "may play a Pirate Attack",
  action: "takes an action",
  moving: "is moving rockets",
  survey: "is surveying a row or column",
  scan: "is using a Mineral Scan",
  "reveal-choice": "may reveal an incident",
  "sabotage-target": "picks a rocket to sabotage",
  "sabotage-move": "may move onto the sabotaged square",
  "alien-move": "may move the alien",
  "alien-steal": "may steal from an opponent",
  "meteor-window": "may play a Meteor Storm",
  attempt: "declares a contract",
  reveal: "is revealing tiles",
  replace: "may bribe a mineral replacement",
  "bid-up-window": "may bid up the contract",
  "bid-up-reveal": "must answer the bid-up",
  "bid-up-replace": "may bribe to answer the bid-up",
  over: "the game is over",
};
export const phaseWords = (phase: string): string => PHASE_WORDS[phase] ?? phase;

/** The words of a list: "a", "a or b", "a, b or c". */
export function orList(items: string[], joiner = "or"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${joiner} ${items[items.length - 1]}`;
}

/** The prompt of the decision for this viewer: a headline and a line of detail, written from what the legal
 *  entries offer (never from what the phase usually offers). */
export function promptFor(snap: Snapshot, name: (s: number) => string): { head: string; detail: string } {
  const v = asView(snap);
  if (snap.status === "over" || v.phase === "over") {
    const r = v.result ?? (snap.result as MiningView["result"]);
    if (!r) return { head: "Game over", detail: "" };
    const who = r.winners.length ? r.winners.map(name).join(" and ") : "nobody";
    const me = snap.seat;
    const mine = me !== null && r.winners.includes(me);
    const head = r.winners.length === 1 ? (mine ? "You win!" : `${who} wins`)
      : r.winners.length ? (mine ? `You share the win with ${r.winners.filter((x) => x !== me).map(name).join(" and ")}` : `${who} share the win`)
      : "A draw";
    return { head: `Game over: ${head}`, detail: r.reason ? `The game ended: ${r.reason}.` : "" };
  }
  if (!snap.to_act) return { head: waitingText(snap, name), detail: `Turn ${v.turn}: ${name(v.current_player)}'s turn.` };
  const cur = name(v.current_player);
  const att = v.attempt;
  const legal = snap.legal;
  const has = (t: string) => legal.some((e) => e.action.type === t);
  const discards = ofType(legal, "discard");
  const playable = discards.length ? ` You may first play ${orList(uniq(discards.map((e) => handKind(v, e.action.incident)).map(kindName)))} from your hand.` : "";
  switch (v.phase) {
    case "pirate-window":
      return { head: `Play your Pirate Attack on ${cur}?`, detail: `${cur} is about to take an action. A Pirate Attack takes it away.` };
    case "meteor-window":
      return { head: `Play your Meteor Storm on ${cur}?`, detail: `${cur} is about to try a contract. A Meteor Storm cancels the attempt.` };
    case "action": {
      if (v.pirated) return { head: "Pirates! No action this turn", detail: `Pass to go on to your contract attempt.${playable}` };
      const offers: string[] = [];
      if (has("move")) offers.push("move rockets (click a rocket, then a square; or drag)");
      if (has("prospect")) offers.push("prospect under your rockets");
      if (has("survey")) offers.push("survey a row or column with a bribe counter");
      if (has("buy-rocket")) offers.push("buy a rocket");
      return { head: "Your turn: take one action", detail: `${capital(orList(offers))}.${playable}` };
    }
    case "moving":
      return { head: "Move more rockets or stop", detail: "Each rocket moves once. Click a rocket, then where it goes; End moves when done." };
    case "survey": {
      const left = 3 - v.picks.length;
      const stop = has("end-looks") ? " You may stop here: this line has no more tiles you may look at." : "";
      return { head: `Survey: look at ${left} more tile${left === 1 ? "" : "s"}`,
        detail: `The tiles must lie in one row or one column. Click them on the board.${stop}` };
    }
    case "scan":
      return { head: `Mineral Scan: ${v.scan_left} look${v.scan_left === 1 ? "" : "s"} left`, detail: "Click any highlighted face-down tile to look at it secretly, or stop looking." };
    case "reveal-choice": {
      const reveals = ofType(legal, "reveal-incident");
      if (!reveals.length) {
        return { head: "Nothing to reveal: continue",
          detail: "You saw no incident under your rockets (what you saw is marked \"you saw\" on the field). Continue: the others are not told what you saw." };
      }
      const seen = reveals.map((e) => {
        const sq = num(e.action["square"]) ?? -1;
        const t = v.tiles[sq];
        return `${t ? article(kindName(t.kind)) : "an incident"} on ${squareName(sq)}`;
      });
      return { head: reveals.length === 1 ? "Reveal the incident?" : "Reveal an incident?",
        detail: `You saw ${orList(seen, "and")} under your rocket${reveals.length === 1 ? "" : "s"}: click ${reveals.length === 1 ? "it" : "one"} to reveal and resolve it (one per look), or keep it secret.` };
    }
    case "sabotage-target":
      return { head: "Sabotage: pick an opponent's rocket", detail: "Click a square with an opponent's rocket; it goes back to its shipyard." };
    case "sabotage-move":
      return { head: "Move a rocket onto the sabotaged square?", detail: `Click one of your rockets to move it to ${squareName(v.sabotage_square ?? -1)}, or don't move.` };
    case "alien-move":
      return v.alien === null
        ? { head: "Place the alien", detail: "Click any tile (not the station) to put the alien there: rockets on its tile cannot move while it stays. Or keep it off the field." }
        : { head: "Move the alien", detail: `The alien is on ${squareName(v.alien)}. Click another tile (not the station): rockets there cannot move while it stays. Or leave it where it is.` };
    case "alien-steal":
      return { head: "Steal from an opponent", detail: "Take one incident tile or unspent bribe counter from an opponent, or steal nothing." };
    case "attempt": {
      if (v.stormed) return { head: "Meteor Storm! No contract this turn", detail: `End your turn.${playable}` };
      if (!has("declare")) return { head: "No contract to try", detail: `No open contract can be tried now: end your turn.${playable}` };
      const optional = has("pass") ? " Or end your turn without one." : "";
      return { head: "Declare a contract", detail: `Pick an open contract card, then reveal its minerals one tile at a time.${optional}${playable}` };
    }
    case "reveal": {
      const c = att ? v.contracts.find((x) => x.id === att.contract) : undefined;
      const left = c && att ? c.minerals.length - att.matched.length : 0;
      return { head: `Reveal a tile for ${att ? contractWords(v, att.contract) : "the contract"}`, detail: `${left} mineral${left === 1 ? "" : "s"} still to match. Click a face-down tile to flip it for everyone.` };
    }
    case "replace": {
      const t = att?.mismatch != null ? v.tiles[att.mismatch] : null;
      return { head: "Mismatch! Bribe a replacement?", detail: `Spend a bribe counter (2 points off your score at the end) so the revealed ${t ? tileName(t) : "tile"} counts as the counter's mineral (its value stays), or give up the attempt.` };
    }
    case "bid-up-window":
      return { head: `Bid up ${cur}'s contract?`, detail: `${cur} has matched ${att ? contractWords(v, att.contract) : "a contract"}. Spend a counter of one of its minerals: ${cur} must then reveal that mineral too or fail. If they fail, your counter stays unspent; if they succeed, it is spent (−2 points for you).` };
    case "bid-up-reveal": {
      const m = att?.bid ? bribeMineral(v, att.bid.bribe) : "";
      return { head: `Bid-up: reveal ${article(kindName(m))}`, detail: `${name(att?.bid?.bidder ?? 0)} bid up. Reveal ${article(kindName(m))} (or Omnidium) tile to keep the contract.` };
    }
    case "bid-up-replace":
      return { head: "The bid-up tile does not match", detail: "Spend your own counter of the bid mineral to replace it (2 points off your score at the end), or lose the contract." };
    default:
      return { head: capital(phaseWords(v.phase)), detail: "" };
  }
}

const uniq = <T>(xs: T[]): T[] => [...new Set(xs)];
const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const handKind = (v: MiningView, id: unknown): string => v.hands.flat().find((h) => h.id === id)?.kind ?? "an incident";
/** The mineral a bribe counter shows (from the view's counters, never parsed from its id). */
export const bribeMineral = (v: MiningView, id: unknown): string => v.bribes.find((b) => b.id === id)?.mineral ?? "";

/** The status line of a decision (said once each time the decision changes, so it never describes an older
 *  one): the prompt's headline for the seat to act, whom the table waits for otherwise, the verdict at the end. */
export function statusFor(snap: Snapshot, name: (s: number) => string): string {
  if (snap.status === "over" || asView(snap).phase === "over") return promptFor(snap, name).head;
  if (!snap.to_act) return waitingText(snap, name);
  return promptFor(snap, name).head;
}

/** The short phase banner text. */
export function bannerFor(snap: Snapshot, name: (s: number) => string): string {
  const v = asView(snap);
  if (snap.status === "over") return "Game over";
  const who = snap.to_act ? "You" : name(v.deciding[0] ?? v.current_player);
  return `Turn ${v.turn} · ${snap.to_act ? promptFor(snap, name).head : `${who} ${phaseWords(v.phase)}`}`;
}

/** The button label of a non-board legal entry (discards and steals get their item's name). */
export function entryLabel(e: LegalEntry, v: MiningView, name: (s: number) => string, legal: LegalEntry[] = []): string {
  const a = e.action;
  const bribe = (id: unknown) => v.bribes.find((b) => b.id === id);
  switch (a.type) {
    case "prospect": return "Prospect";
    case "buy-rocket": return "Buy a rocket";
    case "end-moves": return "End moves";
    case "end-looks": return "Stop looking";
    case "survey": return `Survey with ${kindName(bribe(a.bribe)?.mineral ?? "")} counter`;
    case "replace": return `Spend ${kindName(bribe(a.bribe)?.mineral ?? "")} counter`;
    case "bid-up": return `Bid up with ${kindName(bribe(a.bribe)?.mineral ?? "")}`;
    case "declare": return `Declare ${String(a.contract)}`;
    case "discard": {
      const t = v.hands.flat().find((h) => h.id === a.incident);
      return `Play ${t ? kindName(t.kind) : String(a.incident)}`;
    }
    case "steal": {
      const id = String(a.item);
      const b = bribe(id);
      if (b) return `Steal ${name(b.holder)}'s ${kindName(b.mineral)} counter`;
      for (let p = 0; p < v.hands.length; p++) {
        const t = v.hands[p]?.find((h) => h.id === id);
        if (t) return `Steal ${name(p)}'s ${kindName(t.kind)}`;
      }
      return `Steal ${id}`;
    }
    case "pass": return passLabel(v, legal);
    default: return e.text;
  }
}

/** The words of a `pass`: what declining means in this decision, given what else is offered. */
export function passLabel(v: MiningView, legal: LegalEntry[] = []): string {
  switch (v.phase) {
    case "pirate-window": case "meteor-window": return "Keep it (pass)";
    case "bid-up-window": return "No bid-up";
    case "reveal-choice": return ofType(legal, "reveal-incident").length ? "Keep it secret" : "Continue";
    case "sabotage-move": return "Don't move";
    case "alien-move": return v.alien === null ? "Keep the alien off the field" : "Leave the alien where it is";
    case "alien-steal": return "Steal nothing";
    case "replace": case "bid-up-replace": return "Give up the contract";
    case "attempt": return "End the turn (no contract)";
    case "action": return "Pass (no action)";
    default: return "Pass";
  }
}

/** The standings with the rulebook's tie-breaks: points, then fulfilled contracts, then unspent counters. */
export interface Standing { seat: number; points: number; contracts: number; unspent: number; spent: number; tiles: number }
export function standings(v: MiningView): Standing[] {
  const rows: Standing[] = [];
  for (let p = 0; p < v.players; p++) {
    const held = v.bribes.filter((b) => b.holder === p);
    rows.push({
      seat: p,
      points: v.scores[p] ?? 0,
      contracts: v.contracts.filter((c) => c.owner === p).length,
      unspent: held.filter((b) => !b.spent).length,
      spent: held.filter((b) => b.spent).length,
      tiles: v.collected[p]?.length ?? 0,
    });
  }
  return rows.sort((a, b) => b.points - a.points || b.contracts - a.contracts || b.unspent - a.unspent || a.seat - b.seat);
}

/** The running match of the current attempt: each required mineral of the contract with the tile (if any)
 *  that fills it, in the contract's order; Omnidium tiles fill what is left. */
export interface Slot { mineral: string; square: number | null; tile: string | null; wild: boolean }
export function attemptSlots(v: MiningView): Slot[] {
  const att = v.attempt;
  if (!att) return [];
  const c = v.contracts.find((x) => x.id === att.contract);
  if (!c) return [];
  const slots: Slot[] = c.minerals.map((m) => ({ mineral: m, square: null, tile: null, wild: false }));
  const wild: Attempt["matched"] = [];
  for (const m of att.matched) {
    const slot = slots.find((s) => s.square === null && s.mineral === m.counted_as);
    if (slot) { slot.square = m.square; slot.tile = m.tile; } else wild.push(m);
  }
  for (const m of wild) {
    const slot = slots.find((s) => s.square === null);
    if (slot) { slot.square = m.square; slot.tile = m.tile; slot.wild = true; }
  }
  return slots;
}

/** The events since the viewer's last decision that changed the viewer's position (a rocket of theirs bumped or
 *  sabotaged, something stolen from them, a Pirate Attack or Meteor Storm played on them, the alien landed on
 *  their rockets), in the engine's words: what the shell's "what happened" card shows before their next
 *  decision. `alienOnMine` tells whether a square holds one of the viewer's rockets. */
export function happenedToMe(events: LogEntry[], me: number, alienOnMine: (sq: number) => boolean): string[] {
  const out: string[] = [];
  for (const e of events) {
    const ev = e.event;
    const p = ev["player"];
    if (p === me) continue;
    const hit =
      (ev.type === "rockets-bumped" && Array.isArray(ev["victims"]) && (ev["victims"] as unknown[]).includes(me))
      || (ev.type === "rocket-removed" && ev["victim"] === me)
      || (ev.type === "stolen" && ev["victim"] === me)
      || (ev.type === "incident-discarded" && ev["target"] === me)
      || (ev.type === "alien-moved" && typeof ev["square"] === "number" && alienOnMine(ev["square"]));
    if (hit) out.push(e.text.endsWith(".") ? e.text : `${e.text}.`);
  }
  return out;
}
