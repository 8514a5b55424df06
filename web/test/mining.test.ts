// The mining screen's pure logic: what a click on a square stands for, refusals in words, the running match of
// an attempt, the standings' tie-breaks and the prompts. Snapshots are built by hand in the engine's shape.
import assert from "node:assert/strict";
import { test } from "node:test";

import type { LegalEntry, LogEntry, Snapshot } from "../src/shell/screen";
import {
  STATION, attemptSlots, clickSquare, entryLabel, happenedToMe, moveSources, promptFor, squareName, squaresOf, standings, statusFor,
  type MiningView,
} from "../src/mining/model";
import { miningGuide, rocketOut, sawATile, triedContract } from "../src/mining/guide";

function view(over: Partial<MiningView> = {}): MiningView {
  const status = Array.from({ length: 49 }, (_, s) => (s === STATION ? "station" : "face_down")) as MiningView["status"];
  const tiles = Array.from({ length: 49 }, () => null);
  const rockets = [0, 1].map(() => Array.from({ length: 49 }, (_, s) => (s === STATION ? 1 : 0)));
  const bribes = [0, 1].flatMap((p) => ["alphatite", "betamite", "gammatite", "deltamite", "omnidium"].map((m) => ({
    id: `b${p}-${m}`, owner: p, mineral: m, holder: p, spent: false,
  })));
  return {
    game: "mining", viewer: 0, players: 2, first_player: 0, return_to: "none", options: { asteroid_to_asteroid: false, incident_cooldown: true },
    fingerprint: "0123456789abcdef",
    turn: 1, current_player: 0, phase: "action", deciding: [0], status, tiles, rockets, looked: [[], []], public: [], alien: null, aliens_revealed: 0,
    shipyards: [4, 4], bribes, hands: [[], []], discarded: [], collected: [[], []],
    contracts: [{ id: "C09", minerals: ["betamite", "gammatite", "deltamite"], owner: null }],
    pirated: false, stormed: false, queue: [], moved: null, picks: [], scan_left: 0, attempt: null,
    sabotage_square: null, scores: [0, 0], result: null, ...over,
  };
}

const entry = (action: LegalEntry["action"], text = "x"): LegalEntry => ({ action, text });

function snap(v: MiningView, legal: LegalEntry[], seat: number | null = 0, toAct = true): Snapshot {
  return {
    game: "mining", options: {}, seats: ["a", "b"], seat, step: 3, status: "playing",
    deciding: [{ seat: v.deciding[0] ?? 0, submitted: false }], to_act: toAct, legal, submitted: null,
    view: v as unknown as Record<string, unknown>, result: null, returns: null, summary: null, log: [], names: ["Ann", "Ben"],
  };
}

test("square names follow the engine's r/c numbering", () => {
  assert.equal(squareName(0), "r1 c1");
  assert.equal(squareName(10), "r2 c4");
  assert.equal(squareName(STATION), "the station");
});

test("a move is a source click then a destination click, matched to the legal entry", () => {
  const legal = [entry({ type: "move", frm: 24, to: 10, bump: null }), entry({ type: "prospect" })];
  const s = snap(view(), legal);
  assert.deepEqual([...moveSources(legal)], [24]);
  assert.deepEqual(clickSquare(s, 24, null), { kind: "select", square: 24 });
  const r = clickSquare(s, 10, 24);
  assert.equal(r.kind, "submit");
  assert.equal(r.kind === "submit" && r.entries[0], legal[0]);
  assert.deepEqual(clickSquare(s, 24, 24), { kind: "deselect" });
});

test("a bump offers one entry per opponent to choose from", () => {
  const legal = [entry({ type: "move", frm: 24, to: 10, bump: 1 }), entry({ type: "move", frm: 24, to: 10, bump: 2 })];
  const r = clickSquare(snap(view(), legal), 10, 24);
  assert.equal(r.kind, "submit");
  assert.equal(r.kind === "submit" && r.entries.length, 2);
});

test("refused clicks are explained in words", () => {
  const legal = [entry({ type: "move", frm: 24, to: 10, bump: null })];
  const v = view();
  const r1 = clickSquare(snap(v, legal), 3, null);
  assert.equal(r1.kind, "refuse");
  assert.match(r1.kind === "refuse" ? r1.why : "", /no rocket on r1 c4/);
  v.rockets[0]![3] = 1;
  v.status[5] = "face_down";
  const legal2 = [...legal, entry({ type: "move", frm: 3, to: 24, bump: null })];
  const r2 = clickSquare(snap(v, legal2), 5, 3);
  assert.match(r2.kind === "refuse" ? r2.why : "", /never asteroid to asteroid/);
  const frozen = view({ alien: 3 });
  frozen.rockets[0]![3] = 1;
  const r3 = clickSquare(snap(frozen, legal), 3, null);
  assert.match(r3.kind === "refuse" ? r3.why : "", /alien holds your rocket/);
  const r4 = clickSquare(snap(view(), legal, null, false), 10, null);
  assert.match(r4.kind === "refuse" ? r4.why : "", /watching/);
  const r5 = clickSquare(snap(view(), [], 0, false), 10, null);
  assert.match(r5.kind === "refuse" ? r5.why : "", /Waiting: /);
});

test("in a reveal a click picks the reveal of that square; a blocked square says why", () => {
  const v = view({ phase: "reveal", attempt: { contract: "C09", matched: [], extra: [], mismatch: null, bid: null, bid_done: false } });
  v.rockets[1]![12] = 1;
  const legal = [entry({ type: "reveal", square: 11 })];
  const r = clickSquare(snap(v, legal), 11, null);
  assert.equal(r.kind === "submit" && r.entries[0], legal[0]);
  const no = clickSquare(snap(v, legal), 12, null);
  assert.match(no.kind === "refuse" ? no.why : "", /opponent's rocket/);
});

test("the running match fills the contract's slots, Omnidium last", () => {
  const v = view({
    phase: "reveal",
    attempt: { contract: "C09", extra: [], mismatch: null, bid: null, bid_done: false, matched: [
      { square: 3, tile: "t01", counted_as: "omnidium" }, { square: 4, tile: "t02", counted_as: "gammatite" },
    ] },
  });
  const slots = attemptSlots(v);
  assert.deepEqual(slots.map((s) => [s.mineral, s.square, s.wild]), [["betamite", 3, true], ["gammatite", 4, false], ["deltamite", null, false]]);
});

test("standings break ties by contracts, then unspent counters", () => {
  const v = view({ players: 3, scores: [10, 10, 10] });
  v.bribes.push(...["alphatite", "betamite"].map((m) => ({ id: `b2-${m}`, owner: 2, mineral: m, holder: 2, spent: false })));
  v.contracts = [{ id: "C01", minerals: ["alphatite"], owner: 1 }];
  v.collected = [[], [], []];
  v.bribes[0]!.spent = true; // seat 0 has 4 unspent, seat 2 has 2
  assert.deepEqual(standings(v).map((r) => r.seat), [1, 0, 2]);
});

test("labels and prompts name the counters, incidents and players", () => {
  const v = view({ phase: "bid-up-window", current_player: 1, deciding: [0],
    attempt: { contract: "C09", matched: [], extra: [], mismatch: null, bid: null, bid_done: false } });
  const name = (s: number) => ["Ann", "Ben"][s] ?? "?";
  assert.equal(entryLabel(entry({ type: "bid-up", bribe: "b0-gammatite" }), v, name), "Bid up with Gammatite");
  assert.equal(entryLabel(entry({ type: "pass" }), v, name), "No bid-up");
  const p = promptFor(snap(v, [entry({ type: "pass" })]), name);
  assert.match(p.head, /Bid up Ben's contract/);
  v.contracts = [{ id: "C09", minerals: ["alphatite", "deltamite"], owner: null }];
  assert.match(promptFor(snap(v, [entry({ type: "pass" })]), name).detail, /Ben has matched contract C09 \(Alphatite, Deltamite\)\./);
});

test("squaresOf reads the view's columns as one record per square", () => {
  const v = view({ looked: [[10], [10, 11]], public: [11] });
  v.tiles[11] = { id: "t03", kind: "betamite", value: 2 };
  v.rockets[1]![10] = 2;
  const sq = squaresOf(v);
  assert.equal(sq.length, 49);
  assert.deepEqual(sq[10], { square: 10, status: "face_down", tile: null, rockets: [0, 2], looked_by: [0, 1], public: false });
  assert.deepEqual(sq[11]?.tile, { id: "t03", kind: "betamite", value: 2 });
  assert.equal(sq[11]?.public, true);
  assert.equal(sq[STATION]?.status, "station");
});

test("the prompt follows what is offered: a reveal choice with nothing to reveal, the alien off the field", () => {
  const name = (s: number) => ["Ann", "Ben"][s] ?? "?";
  const v = view({ phase: "reveal-choice", picks: [10] });
  v.tiles[10] = { id: "t03", kind: "betamite", value: 2 };
  const nothing = promptFor(snap(v, [entry({ type: "pass" })]), name);
  assert.doesNotMatch(`${nothing.head} ${nothing.detail}`, /You saw an incident|Reveal an incident/);
  assert.equal(entryLabel(entry({ type: "pass" }), v, name, [entry({ type: "pass" })]), "Continue");
  v.tiles[11] = { id: "t40", kind: "sabotage", value: 0 };
  const legal = [entry({ type: "reveal-incident", square: 11 }), entry({ type: "pass" })];
  assert.match(promptFor(snap(v, legal), name).detail, /a Sabotage on r2 c5/);
  assert.equal(entryLabel(entry({ type: "pass" }), v, name, legal), "Keep it secret");
  const first = view({ phase: "alien-move", alien: null });
  assert.equal(entryLabel(entry({ type: "pass" }), first, name), "Keep the alien off the field");
  assert.equal(entryLabel(entry({ type: "pass" }), view({ phase: "alien-move", alien: 3 }), name), "Leave the alien where it is");
  const action = promptFor(snap(view(), [entry({ type: "prospect" }), entry({ type: "buy-rocket" })]), name);
  assert.equal(action.detail, "Prospect under your rockets or buy a rocket.");
});

test("the status line names the current decision, whom the table waits for, or the verdict", () => {
  const name = (s: number) => ["Ann", "Ben"][s] ?? "?";
  assert.equal(statusFor(snap(view({ phase: "attempt" }), [entry({ type: "declare", contract: "C09" })]), name), "Declare a contract");
  assert.equal(statusFor(snap(view({ deciding: [1], current_player: 1 }), [], 0, false), name), "Waiting: Ben takes an action.");
  const over = snap(view({ phase: "over", result: { winners: [1], reason: "the last contract was fulfilled", scores: [3, 9] } }), []);
  over.status = "over";
  assert.equal(statusFor(over, name), "Game over: Ben wins");
});

test("the guide's interactive steps end when the snapshot shows them done", () => {
  const steps = miningGuide();
  assert.ok(steps.length >= 5 && steps.every((s) => s.title && s.text));
  const fly = steps.find((s) => s.until === rocketOut);
  const look = steps.find((s) => s.until === sawATile);
  assert.ok(fly && look);
  const v = view();
  assert.equal(rocketOut(snap(v, [])), false);
  const bumped = snap(v, []);
  bumped.log = [{ step: 4, event: { type: "rocket-moved", player: 0, frm: 24, dest: 0 }, text: "Ann moves a rocket" }];
  assert.equal(rocketOut(bumped), true); // flown out and bumped home at once: done all the same
  v.rockets[0]![10] = 1;
  assert.equal(rocketOut(snap(v, [])), true);
  assert.equal(sawATile(snap(v, [])), false);
  v.tiles[10] = { id: "t03", kind: "betamite", value: 2 };
  assert.equal(sawATile(snap(v, [])), true);
  v.public = [10]; // known to all after a failed attempt: not a secret look
  assert.equal(sawATile(snap(v, [])), false);
  assert.ok(steps.some((s) => s.until === triedContract));
  assert.equal(triedContract(snap(view({ phase: "attempt" }), [])), false);
  assert.equal(triedContract(snap(view({ phase: "reveal", attempt: { contract: "C09", matched: [], extra: [], mismatch: null, bid: null, bid_done: false } }), [])), true);
  assert.equal(triedContract(snap(view({ current_player: 1, deciding: [1] }), [], 0, false)), true);
});

test("what happened to you while you waited: your rockets bumped or sabotaged, thefts, incidents played on you", () => {
  const log = (event: Record<string, unknown>, text: string) => ({ step: 1, event: event as LogEntry["event"], text });
  const events = [
    log({ type: "rocket-moved", player: 1, frm: 24, dest: 10 }, "Ben moves a rocket from the station to r2 c4"),
    log({ type: "rockets-bumped", player: 1, square: 10, victims: [0] }, "Ben's rocket bumps Ann's on r2 c4: both go back to their shipyards"),
    log({ type: "stolen", thief: 1, victim: 0, item: "b0-alphatite" }, "Ben steals Ann's Alphatite counter"),
    log({ type: "stolen", thief: 1, victim: 2, item: "b2-alphatite" }, "Ben steals Cleo's Alphatite counter"),
    log({ type: "incident-discarded", player: 2, tile: "t44", kind: "pirate_attack", target: 0 }, "Cleo plays Pirate Attack against Ann"),
    log({ type: "alien-moved", player: 1, square: 12 }, "Ben moves the alien to r2 c6"),
    log({ type: "alien-moved", player: 1, square: 13 }, "Ben moves the alien to r2 c7"),
    log({ type: "rocket-removed", player: 0, victim: 1, square: 3 }, "Ann sabotages Ben's rocket on r1 c4: it goes back to its shipyard"),
  ];
  assert.deepEqual(happenedToMe(events, 0, (sq) => sq === 13), [
    "Ben's rocket bumps Ann's on r2 c4: both go back to their shipyards.",
    "Ben steals Ann's Alphatite counter.",
    "Cleo plays Pirate Attack against Ann.",
    "Ben moves the alien to r2 c7.",
  ]);
});
