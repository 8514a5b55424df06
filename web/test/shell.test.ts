// The shell's pure helpers: socket URLs, option query strings, bot names, the lobby's defaults. No DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import { defaultBot, defaultSeats } from "../src/lobby/start";
import { botName, optionQuery, scenarioTitle, seatNames, type GameInfo } from "../src/shell/api";
import { splitRuleRef } from "../src/lobby/setup";
import { names, verdict } from "../src/shell/result";
import { Connection, FINAL_CLOSES, redirectUrl, socketUrl, splitLink, type SocketLike } from "../src/shell/connection";

const game = (over: Partial<GameInfo> = {}): GameInfo => ({
  id: "g",
  title: "G (a game)",
  players: [2, 4],
  hidden_information: false,
  simultaneous_moves: false,
  rules_version: "1",
  scenarios: [{ id: "a", title: "Alpha", players: [3], summary: "" }, { id: "b", title: "Beta", players: [2], summary: "" }],
  options: [{ name: "scenario", type: "str", default: "b", doc: "", choices: ["a", "b"], minimum: null, maximum: null, ruling: false, multiple: false, label: "scenario" }],
  bots: ["bot:random", "bot:easy", "bot:normal"],
  ...over,
});

test("socket urls follow the page's scheme and carry the token escaped in the fragment, never the address", () => {
  assert.equal(socketUrl({ protocol: "http:", host: "127.0.0.1:8000" }, "KXMPT", null), "ws://127.0.0.1:8000/ws/KXMPT");
  assert.equal(socketUrl({ protocol: "https:", host: "x.org" }, "KXMPT", "a+b/c"), "wss://x.org/ws/KXMPT#token=a%2Bb%2Fc");
  assert.deepEqual(splitLink("wss://x.org/ws/KXMPT#token=a%2Bb%2Fc"), { address: "wss://x.org/ws/KXMPT", token: "a+b/c" });
  assert.deepEqual(splitLink("ws://h/ws/K?token=t&x=1"), { address: "ws://h/ws/K?x=1", token: "t" });
  assert.deepEqual(splitLink("ws://h/ws/K"), { address: "ws://h/ws/K", token: null });
});

test("every connection opens at the address without the token and says hello with it first", async () => {
  const opened: string[] = [];
  const sent: string[][] = [];
  const make = (url: string): SocketLike => {
    opened.push(url);
    const mine: string[] = [];
    sent.push(mine);
    const s: SocketLike = {
      readyState: 0, send: (d: string) => void mine.push(d), onopen: null, onmessage: null, onclose: null, onerror: null,
      close: (code?: number) => { s.readyState = 3; s.onclose?.({ code: code ?? 1000, reason: "" }); },
    };
    setTimeout(() => { s.readyState = 1; s.onopen?.({}); }, 0);
    return s;
  };
  const seat = new Connection(socketUrl({ protocol: "http:", host: "h:1" }, "KXMPT", "s3cr3t"), {}, { socket: make, backoffStart: 1 });
  const spectator = new Connection(socketUrl({ protocol: "http:", host: "h:1" }, "KXMPT", null), {}, { socket: make });
  seat.start();
  spectator.start();
  // wait for what the sockets said, not for a fixed time (a loaded machine runs the timers late: a CI flake)
  const until = async (ok: () => boolean) => {
    for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  try {
    await until(() => sent.length >= 2 && sent[0]!.length > 0 && sent[1]!.length > 0);
    assert.deepEqual(opened, ["ws://h:1/ws/KXMPT", "ws://h:1/ws/KXMPT"]);
    assert.deepEqual(JSON.parse(sent[0]![0]!), { type: "hello", token: "s3cr3t" });
    assert.deepEqual(JSON.parse(sent[1]![0]!), { type: "hello", token: null });
    seat.drop(); // a reconnect says hello again before anything else
    await until(() => sent.length >= 3 && sent[2]!.length > 0);
    assert.equal(opened[2], "ws://h:1/ws/KXMPT");
    assert.deepEqual(JSON.parse(sent[2]![0]!), { type: "hello", token: "s3cr3t" });
  } finally {
    seat.close();
    spectator.close();
  }
});

test("only the close codes retrying cannot fix stop the reconnect loop", () => {
  assert.deepEqual(Object.keys(FINAL_CLOSES).map(Number).sort(), [4001, 4003, 4004]);
  for (const words of Object.values(FINAL_CLOSES)) assert.ok(words.length > 30 && words.endsWith("."));
});

test("options become a query string; objects are left out", () => {
  assert.equal(optionQuery({ scenario: "duel", players: 3, fast: true, nested: { a: 1 }, none: null }), "scenario=duel&players=3&fast=true");
});

test("bot names and scenario titles read as words", () => {
  assert.equal(botName("bot:normal"), "Normal bot");
  assert.equal(botName("bot:ismcts:iterations=200"), "Ismcts bot");
  assert.equal(botName("bot:cadet"), "Cadet bot");
  assert.equal(scenarioTitle(game(), "a"), "Alpha");
  assert.equal(scenarioTitle(game(), "zzz"), "zzz");
  assert.equal(scenarioTitle(undefined, 3), "");
});

test("Play now seats: the players option, else the default scenario's count; the normal bot when there is one", () => {
  assert.equal(defaultSeats(game()), 2);
  const withPlayers = game({ options: [...game().options, { name: "players", type: "int", default: 3, doc: "", choices: null, minimum: 2, maximum: 4, ruling: false, multiple: false, label: "players" }] });
  assert.equal(defaultSeats(withPlayers), 3);
  assert.equal(defaultBot(game()), "bot:normal");
  assert.equal(defaultBot(game({ bots: ["bot:random", "bot:hard"] })), "bot:hard");
});

test("a redirect is followed at once to the owner's URL, hello said there with the same token", async () => {
  assert.equal(redirectUrl("ws://10.0.0.2:9000/ws/KXMPT", "ws://h:1/ws/KXMPT"), "ws://10.0.0.2:9000/ws/KXMPT");
  assert.equal(redirectUrl("ws://o/ws/K?token=x#token=y", "ws://h/ws/K"), "ws://o/ws/K"); // never a token in an address
  assert.equal(redirectUrl("javascript:alert(1)", "ws://h/ws/K?token=t"), null);
  assert.equal(redirectUrl("not a url", "ws://h/ws/K?token=t"), null);
  const opened: string[] = [];
  const hellos: string[] = [];
  const sockets: SocketLike[] = [];
  const statuses: string[] = [];
  const make = (url: string): SocketLike => {
    opened.push(url);
    const s: SocketLike = {
      readyState: 0, send: (d: string) => void (JSON.parse(d).type === "hello" && hellos.push(d)), onopen: null, onmessage: null, onclose: null, onerror: null,
      close: (code?: number) => { s.readyState = 3; s.onclose?.({ code: code ?? 1000, reason: "" }); },
    };
    sockets.push(s);
    setTimeout(() => { s.readyState = 1; s.onopen?.({}); }, 0);
    return s;
  };
  const details: string[] = [];
  const c = new Connection("ws://b:2/ws/KXMPT#token=tok", { status: (st, d) => { statuses.push(st); details.push(d); } }, { socket: make, backoffStart: 60_000 });
  c.start();
  try {
  await new Promise((r) => setTimeout(r, 5));
  const first = sockets[0]!;
  first.onmessage?.({ data: JSON.stringify({ type: "redirect", url: "ws://a:1/ws/KXMPT", message: "connect there" }) });
  first.close(4010, "redirect");
  assert.deepEqual(opened, ["ws://b:2/ws/KXMPT", "ws://a:1/ws/KXMPT"]); // no backoff wait
  assert.equal(c.currentUrl, "ws://a:1/ws/KXMPT");
  assert.ok(!statuses.includes("reconnecting"), statuses.join()); // no reconnect overlay for a redirect
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(c.status, "open");
  assert.deepEqual(hellos.map((h) => JSON.parse(h).token), ["tok", "tok"]); // the token said again at the owner
  assert.equal(details[details.length - 1], "Connected."); // the first connection, not a "Reconnected."
  // a 4010 without a redirect message is an ordinary drop (backoff, and the same URL)
  sockets[1]!.close(4010, "redirect");
  assert.equal(opened.length, 2);
  assert.equal(c.status, "reconnecting");
  } finally {
    c.close(); // no retry timer left behind, even when an assertion failed
  }
});

test("seat names: a person's name, a bot by its level, else Player N counted from 1 (as the server's texts)", () => {
  assert.deepEqual(seatNames([{ kind: "human", spec: "human", name: "ann" }, { kind: "bot", spec: "bot:hard", name: null }]), ["ann", "Hard bot"]);
  assert.deepEqual(seatNames([{ kind: "human", spec: "human", name: null }, { kind: "human", spec: "human", name: null }]), ["Player 1", "Player 2"]);
  assert.deepEqual(seatNames([{ kind: "bot", spec: "bot:easy" }, { kind: "human", name: "Bo" }]), ["Easy bot", "Bo"]);
  assert.deepEqual(seatNames([], ["human", "bot:normal"]), ["Player 1", "Normal bot"]);
  // two seats never share a name: a mining table of a person and two easy bots
  assert.deepEqual(seatNames([{ kind: "human", spec: "human", name: null }, { kind: "bot", spec: "bot:easy" }, { kind: "bot", spec: "bot:easy" }]),
    ["Player 1", "Easy bot 1", "Easy bot 2"]);
  assert.deepEqual(seatNames([{ kind: "human", name: "Ann" }, { kind: "human", name: "Ann" }]), ["Ann 1", "Ann 2"]);
});

test("a ruling's reference becomes a tag and its doc reads plainly", () => {
  assert.deepEqual(splitRuleRef("ruling 4: an undetected enemy ship is absent"), { ref: "4", text: "an undetected enemy ship is absent" });
  assert.deepEqual(splitRuleRef("G1: electron beam battery range"), { ref: "G1", text: "electron beam battery range" });
  assert.deepEqual(splitRuleRef("1.5.2 [rulebook]: rockets move station->asteroid"), { ref: "1.5.2", text: "rockets move station->asteroid (rulebook)" });
  assert.deepEqual(splitRuleRef("Rounds before the campaign score decides"), { ref: "", text: "Rounds before the campaign score decides" });
});

test("the verdict in words: by the rules, a resignation, on time, a player who left", () => {
  const name = (s: number): string => ["Alice", "Hard bot", "Bo"][s]!;
  const rules = { winners: [0], ending: null, reason: "the enemy frigate was destroyed", name };
  assert.equal(verdict({ ...rules, seat: 0 }).headline, "You won: the enemy frigate was destroyed.");
  assert.equal(verdict({ ...rules, seat: 1 }).headline, "Alice won: the enemy frigate was destroyed.");
  assert.equal(verdict({ ...rules, seat: null }).headline, "Alice won: the enemy frigate was destroyed.");
  assert.equal(verdict({ ...rules, seat: 0, reason: null }).headline, "You won!");
  assert.equal(verdict({ ...rules, seat: 0, winners: [0, 2] }).headline, "You share the win with Bo: the enemy frigate was destroyed.");
  assert.equal(verdict({ ...rules, seat: 0, winners: [], reason: "the turn limit" }).headline, "A draw: the turn limit.");
  // a reason with its own heading keeps one colon in the sentence (Knight Hawks' turn limit)
  assert.equal(verdict({ ...rules, seat: 0, winners: [], reason: "turn limit: equal points" }).headline,
    "A draw: equal points (turn limit).");
  assert.equal(verdict({ ...rules, seat: 1, reason: "turn limit: the station held" }).headline,
    "Alice won: the station held (turn limit).");
  const resign = { kind: "resign", seats: [0], winners: [1], reason: "Alice resigned" };
  assert.equal(verdict({ seat: 0, winners: [], ending: resign, reason: null, name }).headline, "You resigned.");
  assert.equal(verdict({ seat: 1, winners: [], ending: resign, reason: null, name }).headline, "You won: Alice resigned.");
  assert.equal(verdict({ seat: null, winners: [], ending: resign, reason: null, name }).headline, "Hard bot won: Alice resigned.");
  const late = { kind: "forfeit", seats: [1], winners: [0, 2], reason: "Hard bot did not decide within the turn time (60 s)" };
  assert.equal(verdict({ seat: null, winners: [], ending: late, reason: null, name }).headline, "Alice and Bo won on time.");
  assert.equal(verdict({ seat: 0, winners: [], ending: late, reason: null, name }).headline, "You won on time.");
  assert.equal(verdict({ seat: 1, winners: [], ending: late, reason: null, name }).headline, "You ran out of time: Alice and Bo won.");
  const gone = { kind: "forfeit", seats: [2], winners: [0, 1], reason: "Bo did not come back within 60 s; Alice claimed the win" };
  const v = verdict({ seat: 0, winners: [], ending: gone, reason: null, name });
  assert.equal(v.headline, "You won: Bo left the game.");
  assert.equal(v.detail, "Bo did not come back within 60 s; Alice claimed the win.");
  assert.equal(names(["A", "B", "C"]), "A, B and C");
});

test("the log: whole when the snapshot carries it, else each message's new entries appended once", async () => {
  const sockets: SocketLike[] = [];
  const make = (): SocketLike => {
    const s: SocketLike = {
      readyState: 0, send: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null,
      close: (code?: number) => { s.readyState = 3; s.onclose?.({ code: code ?? 1000, reason: "" }); },
    };
    sockets.push(s);
    setTimeout(() => { s.readyState = 1; s.onopen?.({}); }, 0);
    return s;
  };
  const seen: number[][] = [];
  const c = new Connection("ws://h/ws/KXMPT", { state: (m) => void seen.push(m.snapshot.log.map((e) => e.step)) }, { socket: make });
  c.start();
  const entry = (step: number, k = 0) => ({ step, event: { type: "x", k }, text: `step ${step}.${k}` });
  const room = (match: number) => ({ code: "KXMPT", match, status: "live", seats: [], forfeit: null, rematch_votes: [] });
  const state = (match: number, step: number, events: unknown[], log?: unknown[]) => {
    const snapshot: Record<string, unknown> = { step, seat: 0, to_act: false, legal: [] };
    if (log !== undefined) snapshot.log = log;
    sockets.at(-1)!.onmessage?.({ data: JSON.stringify({ type: "state", room: room(match), snapshot, events }) });
  };
  try {
    await new Promise((r) => setTimeout(r, 5));
    state(1, 2, [], [entry(0), entry(1)]); // connecting: the log whole
    state(1, 3, [entry(2), entry(2, 1)]); // an action: only its entries
    state(1, 3, []); // a drop elsewhere: nothing new
    assert.deepEqual(c.log.map((e) => e.step), [0, 1, 2, 2]);
    assert.deepEqual(seen.at(-1), [0, 1, 2, 2]); // every handler sees a complete snapshot
    for (let s = 3; s < 30; s++) state(1, s + 1, [entry(s)]);
    assert.equal(c.log.length, 31);
    assert.equal(seen.at(-1)!.length, 20); // the snapshot's log is its newest 20, as the server's
    state(1, 31, [], [entry(28), entry(29), entry(30)]); // a reconnect: the tail replaces what it covers
    assert.deepEqual(c.log.slice(-4).map((e) => e.step), [27, 28, 29, 30]);
    assert.equal(c.log.length, 32);
    assert.equal(new Set(c.log.map((e) => `${e.step}|${e.text}`)).size, c.log.length); // nothing twice
    state(2, 0, [], []); // a new match: a new log
    assert.deepEqual(c.log, []);
  } finally {
    c.close();
  }
});
