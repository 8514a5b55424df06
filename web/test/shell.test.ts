// The shell's pure helpers: socket URLs, option query strings, bot names, the lobby's defaults. No DOM.
import assert from "node:assert/strict";
import { test } from "node:test";

import { defaultBot, defaultSeats } from "../src/lobby/lobby";
import { botName, optionQuery, scenarioTitle, type GameInfo } from "../src/shell/api";
import { FINAL_CLOSES, socketUrl } from "../src/shell/connection";

const game = (over: Partial<GameInfo> = {}): GameInfo => ({
  id: "g",
  title: "G (a game)",
  players: [2, 4],
  hidden_information: false,
  simultaneous_moves: false,
  scenarios: [{ id: "a", title: "Alpha", players: [3], summary: "" }, { id: "b", title: "Beta", players: [2], summary: "" }],
  options: [{ name: "scenario", type: "str", default: "b", doc: "", choices: ["a", "b"], minimum: null, maximum: null, ruling: false }],
  bots: ["bot:random", "bot:easy", "bot:normal"],
  ...over,
});

test("socket urls follow the page's scheme and carry the token escaped", () => {
  assert.equal(socketUrl({ protocol: "http:", host: "127.0.0.1:8000" }, "KXMPT", null), "ws://127.0.0.1:8000/ws/KXMPT");
  assert.equal(socketUrl({ protocol: "https:", host: "x.org" }, "KXMPT", "a+b/c"), "wss://x.org/ws/KXMPT?token=a%2Bb%2Fc");
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
  assert.equal(scenarioTitle(game(), "a"), "Alpha");
  assert.equal(scenarioTitle(game(), "zzz"), "zzz");
  assert.equal(scenarioTitle(undefined, 3), "");
});

test("Play now seats: the players option, else the default scenario's count; the normal bot when there is one", () => {
  assert.equal(defaultSeats(game()), 2);
  const withPlayers = game({ options: [...game().options, { name: "players", type: "int", default: 3, doc: "", choices: null, minimum: 2, maximum: 4, ruling: false }] });
  assert.equal(defaultSeats(withPlayers), 3);
  assert.equal(defaultBot(game()), "bot:normal");
  assert.equal(defaultBot(game({ bots: ["bot:random", "bot:hard"] })), "bot:hard");
});
