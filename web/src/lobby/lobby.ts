/**
 * The lobby (`/`): the four games as cards from `GET /games` with a one-click "Play now" against a bot and a
 * "Quick match" against a stranger (quickmatch.ts), a field
 * to join a room by its code, the matches this browser played (localStorage), and the server's open rooms, live
 * matches and finished matches. The game set-up form (scenario, options, seats) is setup.ts's; starting a room is start.ts's.
 *
 * Owns the lobby page; the rooms and their rules are the server's.
 */
import { botName, games, rooms, scenarioTitle, type GameInfo, type RoomListEntry } from "../shell/api";
import { button, el } from "../shell/dom";
import { playerName, recentMatches, setPlayerName } from "../shell/storage";
import { openQuickMatch, resumeQuickMatch } from "./quickmatch";
import { openSetup } from "./setup";
import { defaultBot, defaultSeats, startRoom } from "./start";

/** One line per game for its card (the catalogue has titles and scenarios, not a pitch). */
const BLURBS: Record<string, string> = {
  tactical: "Vector movement around the inner planets: burn, drift, fall into gravity wells, land or fight.",
  mining: "Prospect the asteroid field with your rockets, fulfil secret contracts, and outbid your rivals.",
  deepspace: "Design a fleet on a point budget, plot thrust in secret, and fight on an endless hex plane.",
  knighthawks: "Starship combat in the Frontier: plot moves within your ADF and MR, then trade fire.",
};

/** The cards' order: the flagship first; a game not listed comes last. */
const ORDER = ["tactical", "mining", "deepspace", "knighthawks"];

function gameTitle(g: GameInfo): string {
  return g.title.replace(/\s*\(.*\)\s*$/, "");
}

function subtitle(g: GameInfo): string {
  const m = /\((.*)\)\s*$/.exec(g.title);
  return m?.[1] ?? "";
}

export async function startLobby(root: HTMLElement): Promise<void> {
  root.replaceChildren();
  root.className = "lobby";
  document.title = "deltav · play space tabletop games";
  const head = el("header", "lobby-head");
  const h1 = el("h1", "", "deltav");
  head.append(h1, el("p", "tagline", "Four space tabletop games, played in the browser against bots or other people."));
  const status = el("div", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const say = (text: string, kind: "info" | "error" = "info"): void => {
    status.textContent = text;
    status.dataset.kind = kind;
  };
  const main = el("main", "lobby-main");
  const cards = el("section", "cards");
  cards.setAttribute("aria-label", "Games");
  cards.append(el("p", "dim", "Loading the games…"));

  const join = el("section", "panel-box join");
  join.setAttribute("aria-labelledby", "join-title");
  const jt = el("h2", "", "Join a room");
  jt.id = "join-title";
  const form = el("form", "join-form");
  const codeInput = el("input");
  codeInput.type = "text";
  codeInput.id = "join-code";
  codeInput.placeholder = "ABCDE";
  codeInput.maxLength = 5;
  codeInput.autocomplete = "off";
  codeInput.spellcheck = false;
  codeInput.setAttribute("aria-label", "Room code (5 letters)");
  const joinBtn = el("button", "btn primary", "Join");
  joinBtn.type = "submit";
  const watchBtn = button("Watch", () => go("watch"), "btn");
  form.append(codeInput, joinBtn, watchBtn);
  const go = (mode: "play" | "watch"): void => {
    const code = codeInput.value.trim().toUpperCase();
    if (!/^[A-Z]{5}$/.test(code)) {
      say("A room code is 5 letters, like KXMPT.", "error");
      codeInput.focus();
      return;
    }
    location.assign(`/${mode}/${code}`);
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    go("play");
  });
  const nameRow = el("div", "name-row");
  const nameInput = el("input");
  nameInput.type = "text";
  nameInput.id = "player-name";
  nameInput.maxLength = 40;
  nameInput.setAttribute("autocomplete", "nickname");
  nameInput.placeholder = "Anonymous";
  nameInput.value = playerName();
  const nameLabel = el("label", "", "Your name");
  nameLabel.htmlFor = nameInput.id;
  nameInput.addEventListener("change", () => {
    setPlayerName(nameInput.value);
    say(playerName() ? `The other players will see you as ${playerName()}.` : "You play without a name.");
  });
  nameRow.append(nameLabel, nameInput);
  join.append(jt, el("p", "dim", "Got a code or a link from a friend? Type the code to take the free seat, or watch. Private games are joined only this way."), form, nameRow);

  const recent = el("section", "panel-box recent");
  recent.setAttribute("aria-labelledby", "recent-title");
  const rt = el("h2", "", "Your recent matches");
  rt.id = "recent-title";
  recent.append(rt);
  const mine = recentMatches();
  if (!mine.length) recent.append(el("p", "dim", "None yet: the matches you play here are listed here."));
  else {
    const ul = el("ul", "room-list");
    for (const m of mine) {
      const li = el("li");
      const a = el("a", "", `${m.label}`);
      a.href = m.role === "play" ? `/play/${m.code}` : m.role === "replay" ? `/replay/${m.code}?match=${m.match}` : `/watch/${m.code}`;
      const how = m.role === "play" ? "you played" : m.role === "replay" ? "you watched its replay" : "you watched";
      li.dataset.role = m.role;
      li.append(a, el("span", "dim", ` · room ${m.code} · ${how} · ${new Date(m.at).toLocaleString()}`));
      ul.append(li);
    }
    recent.append(ul);
  }

  const lists = el("section", "panel-box rooms");
  lists.setAttribute("aria-labelledby", "rooms-title");
  const lt = el("h2", "", "On this server");
  lt.id = "rooms-title";
  lists.append(lt);

  const sideCol = el("div", "lobby-side");
  sideCol.append(join, recent, lists);
  main.append(cards, sideCol);
  root.append(head, main, status);

  let catalogue: GameInfo[] = [];
  try {
    catalogue = await games();
  } catch (e) {
    cards.replaceChildren(el("p", "error-text", e instanceof Error ? e.message : String(e)));
    return;
  }
  const rank = (id: string): number => (ORDER.indexOf(id) + ORDER.length + 1) % (ORDER.length + 1);
  cards.replaceChildren(...[...catalogue].sort((a, b) => rank(a.id) - rank(b.id)).map((g) => card(g)));
  document.documentElement.dataset.ready = "true";
  resumeQuickMatch(catalogue, say);
  const refresh = (): void => void fillRooms(lists, catalogue);
  refresh();
  // the lists follow the server while the lobby is open (a quiet refresh every 15 s, and on coming back)
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, 15_000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });

  function card(g: GameInfo): HTMLElement {
    const c = el("article", "game-card");
    c.dataset.game = g.id;
    const h = el("h2", "", gameTitle(g));
    h.id = `game-${g.id}`;
    c.setAttribute("aria-labelledby", h.id);
    const sub = subtitle(g);
    const [lo, hi] = g.players;
    const facts = el("p", "facts", `${lo === hi ? lo : `${lo}–${hi}`} players · ${g.scenarios.length} scenarios${g.simultaneous_moves ? " · simultaneous turns" : ""}${g.hidden_information ? " · hidden information" : ""}`);
    c.append(h);
    if (sub) c.append(el("p", "sub", sub));
    c.append(el("p", "blurb", BLURBS[g.id] ?? ""), facts);
    const scen = g.options.find((o) => o.name === "scenario");
    const n = defaultSeats(g);
    const bot = defaultBot(g);
    const first = el("p", "default-line dim",
      `Play now: ${scenarioTitle(g, scen?.default)}, you against ${n > 2 ? `${n - 1} ${botName(bot).toLowerCase()}s` : `the ${botName(bot).toLowerCase()}`}.`);
    const row = el("div", "card-actions");
    const play = button("Play now", () => {
      play.disabled = true;
      say(`Starting ${gameTitle(g)} against the bot…`);
      void startRoom({ game: g.id, seats: ["human", ...Array(n - 1).fill(bot)] }, (t, k) => {
        play.disabled = false;
        say(t, k);
      });
    }, "btn primary play-now");
    play.setAttribute("aria-describedby", `game-${g.id}-default`);
    first.id = `game-${g.id}-default`;
    const setup = button("Set up a game…", () => openSetup(g, say), "btn setup");
    // a stranger who pressed it too, no code to share (quickmatch.ts)
    const quick = button("Quick match", () => openQuickMatch(g, say), "btn quick-match");
    quick.setAttribute("aria-label", `Quick match: ${gameTitle(g)} against another person`);
    row.append(play, quick, setup);
    c.append(first, row);
    return c;
  }
}

async function fillRooms(box: HTMLElement, catalogue: GameInfo[]): Promise<void> {
  const info = (id: string): GameInfo | undefined => catalogue.find((g) => g.id === id);
  const groups: [RoomListEntry["status"], string, string][] = [
    ["open", "Open to anyone: a seat is free", "No room open to anyone right now."],
    ["live", "Live matches to watch", "Nobody is playing right now."],
    ["finished", "Finished matches to replay", "No finished match yet."],
  ];
  const holder = el("div", "room-groups"); // built whole, then swapped in: a refresh never shows half a list
  for (const [status, title, empty] of groups) {
    const sec = el("div", `room-group room-${status}`);
    sec.append(el("h3", "", title));
    holder.append(sec);
    let list: RoomListEntry[] = [];
    try {
      list = await rooms(status);
    } catch {
      sec.append(el("p", "dim", "The list could not be fetched."));
      continue;
    }
    if (!list.length) {
      sec.append(el("p", "dim", empty));
      continue;
    }
    const ul = el("ul", "room-list");
    for (const r of list.slice(0, 8)) {
      const g = info(r.game);
      const who = r.seats.map((s) => (s.kind === "human" ? (s.name ?? (s.taken ? "a player" : "free seat")) : botName(s.spec))).join(" vs ");
      const li = el("li");
      const a = el("a", "", `${g ? gameTitle(g) : r.game} · ${scenarioTitle(g, r.options.scenario)}`);
      a.href = status === "open" ? `/play/${r.code}` : status === "live" ? `/watch/${r.code}` : `/replay/${r.code}?match=${r.match}`;
      a.setAttribute("aria-label", `${a.textContent}, ${who}, room ${r.code}: ${status === "open" ? "join" : status === "live" ? "watch" : "replay"}`);
      li.append(a, el("span", "dim", ` · ${who} · ${r.code}`));
      ul.append(li);
    }
    sec.append(ul);
  }
  box.querySelector(".room-groups")?.remove();
  box.append(holder);
}
