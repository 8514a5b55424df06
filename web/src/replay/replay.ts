/**
 * The replay page (`/replay/CODE?match=N`): a finished match played back with the game's own screen in
 * spectator mode: play, pause, step back and forth, jump to the start or the end, a speed, a position slider.
 * The client never replays rules: each position's spectator snapshot comes from the server
 * (`GET /rooms/{code}/replay?match=N&step=K`), fetched once and kept. The game review (review.ts) sits in the
 * side panel and marks the timeline under the slider.
 *
 * Owns the replay page only.
 */
import { games, room as fetchRoom, scenarioTitle, seatNames, board as fetchBoard, type GameInfo } from "../shell/api";
import { button, el, inTextField } from "../shell/dom";
import { GenericScreen } from "../shell/generic";
import { SEAT_COLOURS } from "../shell/palette";
import type { GameScreen, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { Sounds } from "../shell/sound";
import { rememberMatch } from "../shell/storage";
import { SCREENS } from "../games";
import { ReviewPanel } from "./review";

interface ReplayAnswer {
  code: string;
  match: number;
  positions: number[];
  index: number;
  step: number;
  snapshot: Snapshot;
  events: LogEntry[];
}

const SPEEDS = [0.5, 1, 2, 4, 8];
const BASE_MS = 1200; // one position per 1.2 s at 1x

declare global {
  interface Window {
    deltavReplay?: { state: () => { index: number; step: number; positions: number; playing: boolean; speed: number; view: string } };
  }
}

/** Whose eyes the replay shows: "full" (everyone: nothing is secret once a match is over), "spectator", or a
 *  seat number as a string (that player's own view). */
export type ReplayView = string;

async function fetchAt(code: string, match: number, step: number, view: ReplayView): Promise<ReplayAnswer> {
  const r = await fetch(`/rooms/${encodeURIComponent(code)}/replay?match=${match}&step=${step}&view=${encodeURIComponent(view)}`);
  const data = (await r.json().catch(() => ({}))) as ReplayAnswer & { error?: string; message?: string };
  if (!r.ok) throw new Error(data.message ?? `the server answered ${r.status}`);
  return data;
}

function gameTitle(info: GameInfo | undefined, id: string): string {
  return info ? info.title.replace(/\s*\(.*\)\s*$/, "") : id;
}

export async function startReplay(root: HTMLElement, code: string, match: number): Promise<void> {
  root.replaceChildren();
  root.className = "match replay";
  const head = el("header", "match-head");
  const brand = el("a", "brand", "deltav");
  brand.href = "/";
  brand.title = "Back to the lobby";
  const titleBox = el("div", "match-title");
  const h1 = el("h1", "", "Replay");
  const scen = el("span", "match-scenario");
  titleBox.append(h1, scen);
  const codeBox = el("div", "room-code");
  const rec = el("a", "btn small", "Download the record");
  rec.href = `/rooms/${code}/record?match=${match}`;
  rec.setAttribute("download", `${code}-${match}.json`);
  codeBox.append(el("span", "dim", `Room ${code} · match ${match}`), rec);
  head.append(brand, titleBox, codeBox);
  const seatsBar = el("ul", "seats");
  seatsBar.setAttribute("aria-label", "Players");
  const banner = el("div", "phase-banner");
  banner.setAttribute("aria-live", "polite");
  const waiting = el("div", "waiting");
  const body = el("div", "match-body");
  const screenRoot = el("main", "screen-root");
  const side = el("aside", "side replay-side");
  const logBox = el("section", "log");
  logBox.append(el("h2", "", "Log"));
  const logList = el("ol", "log-list");
  logList.tabIndex = 0; // a scrolling region a keyboard can reach (as the match page's log)
  logList.setAttribute("aria-label", "Log");
  logBox.append(logList);
  side.append(logBox);
  body.append(screenRoot, side);

  const bar = el("section", "replay-bar");
  bar.setAttribute("aria-label", "Replay controls");
  const icon = (b: HTMLButtonElement, path: string): HTMLButtonElement => {
    b.textContent = "";
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 16 16");
    svg.setAttribute("width", "16");
    svg.setAttribute("height", "16");
    svg.setAttribute("aria-hidden", "true");
    const p = document.createElementNS("http://www.w3.org/2000/svg", "path");
    p.setAttribute("d", path);
    p.setAttribute("fill", "currentColor");
    svg.append(p);
    b.append(svg);
    return b;
  };
  const startBtn = icon(button("", () => go(0), "btn small", "To the start (Home)"), "M3 3h2v10H3zM13 3v10L6 8z");
  startBtn.setAttribute("aria-label", "To the start");
  const backBtn = icon(button("", () => go(index - 1), "btn small", "One step back (,)"), "M11 3v10L4 8z");
  backBtn.setAttribute("aria-label", "One step back");
  const playBtn = button("Play", () => toggle(), "btn small primary", "Play or pause (Space)");
  const fwdBtn = icon(button("", () => go(index + 1), "btn small", "One step forward (.)"), "M5 3v10l7-5z");
  fwdBtn.setAttribute("aria-label", "One step forward");
  const endBtn = icon(button("", () => go(positions.length - 1), "btn small", "To the end (End)"), "M3 3v10l7-5zM11 3h2v10h-2z");
  endBtn.setAttribute("aria-label", "To the end");
  const slider = el("input", "replay-slider");
  slider.type = "range";
  slider.min = "0";
  slider.setAttribute("aria-label", "Position in the match");
  const where = el("span", "replay-where");
  const speedSel = el("select", "replay-speed");
  speedSel.setAttribute("aria-label", "Speed");
  for (const s of SPEEDS) {
    const o = el("option", "", `${s}×`);
    o.value = String(s);
    o.selected = s === 1;
    speedSel.append(o);
  }
  // whose view: everyone (the default: a finished match has no secrets) or one player's own
  const viewSel = el("select", "replay-view");
  viewSel.id = "replay-view";
  const viewLabel = el("label", "replay-view-label", "View");
  viewLabel.htmlFor = viewSel.id;
  const params = new URLSearchParams(location.search);
  let view: ReplayView = params.get("view") ?? "full";
  const viewBox = el("span", "replay-view-box");
  viewBox.append(viewLabel, viewSel);
  const track = el("div", "replay-track");
  track.append(slider);
  bar.append(startBtn, backBtn, playBtn, fwdBtn, endBtn, track, where, speedSel, viewBox);
  const status = el("div", "status");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const turnBox = el("section", "turn-box");
  turnBox.setAttribute("aria-label", "Players and position");
  turnBox.append(seatsBar, banner, waiting);
  root.append(head, turnBox, body, bar, status);

  const say = (text: string, kind: "info" | "warn" | "error" = "info"): void => {
    status.textContent = text;
    status.dataset.kind = kind;
  };

  let first: ReplayAnswer;
  try {
    first = await fetchAt(code, match, 0, view).catch((e) => {
      if (view === "full") throw e;
      view = "full"; // a view this match has not (a seat it lacks): everyone's
      return fetchAt(code, match, 0, view);
    });
  } catch (e) {
    root.className = "notfound";
    const a = el("a", "btn primary", "To the lobby");
    a.href = "/";
    root.replaceChildren(el("h1", "", `No replay of room ${code}, match ${match}`), el("p", "", e instanceof Error ? e.message : String(e)), a);
    document.documentElement.dataset.ready = "true";
    return;
  }
  const positions = first.positions;
  let cache = new Map<number, Promise<ReplayAnswer>>([[0, Promise.resolve(first)]]);
  const snap0 = first.snapshot;
  let info: GameInfo | undefined;
  let names: (string | null)[] = [];
  try {
    const [list, r] = await Promise.all([games(), fetchRoom(code)]);
    info = list.find((g) => g.id === snap0.game);
    if (r.match === match) names = ((r.seats as { name: string | null }[]) ?? []).map((s) => s.name);
  } catch {
    /* titles and names are a nicety */
  }
  const allNames = snap0.names ?? seatNames(snap0.seats.map((label, i) => ({ spec: label, kind: label.startsWith("bot:") ? "bot" : "human", name: names[i] ?? null })));
  const seatName = (i: number): string => allNames[i] ?? `Player ${i + 1}`;
  for (const [value, text] of [["full", "Everyone"], ...snap0.seats.map((_, i) => [String(i), seatName(i)]), ["spectator", "A spectator"]]) {
    const o = el("option", "", text);
    o.value = value!;
    viewSel.append(o);
  }
  viewSel.value = view;
  if (viewSel.value !== view) viewSel.value = view = "full";
  viewSel.title = "Whose eyes: everyone sees every secret (the match is over), a player only what they saw";
  h1.textContent = `Replay · ${gameTitle(info, snap0.game)}`;
  scen.textContent = scenarioTitle(info, snap0.options.scenario);
  document.title = `Replay ${code} · deltav`;
  seatsBar.replaceChildren(
    ...snap0.seats.map((_, i) => {
      const li = el("li", "seat");
      li.style.setProperty("--seat", SEAT_COLOURS[i % SEAT_COLOURS.length]!);
      const dot = el("span", "dot");
      dot.setAttribute("aria-hidden", "true");
      li.append(dot, el("span", "seat-name", seatName(i)));
      return li;
    }),
  );
  rememberMatch({ code, game: snap0.game, role: "replay", seat: null, match, label: `${gameTitle(info, snap0.game)} · ${scenarioTitle(info, snap0.options.scenario)} (replay)`, at: Date.now() });

  const sounds = new Sounds();
  let boardP: Promise<unknown | null> | null = null;
  const host: ScreenHost = {
    submit: () => {
      say("This is a replay: nothing can be played here.", "warn");
      return Promise.reject({ code: "replay", message: "a replay cannot be played" });
    },
    say,
    sound: (n) => sounds.play(n),
    board: () => (boardP ??= fetchBoard(snap0.game, snap0.options).catch(() => null)),
    seatName,
    acknowledge: () => Promise.resolve(), // nobody decides in a replay: nothing to hold back
  };
  const forced = new URLSearchParams(location.search).get("screen") === "generic";
  const factory = forced ? undefined : SCREENS[snap0.game];
  let screen: GameScreen = new GenericScreen();
  /** A fresh screen (a new view is another viewer: the screen starts over rather than mixing two). */
  async function mountScreen(): Promise<void> {
    screen.unmount?.();
    screenRoot.replaceChildren();
    screenRoot.className = "screen-root";
    screen = factory ? factory() : new GenericScreen();
    screenRoot.dataset.screen = factory ? snap0.game : "generic";
    try {
      await screen.mount(screenRoot, host);
    } catch (e) {
      say(`The ${snap0.game} screen failed to start (${String(e)}); showing the generic screen.`, "error");
      screenRoot.replaceChildren();
      screen = new GenericScreen();
      screen.mount(screenRoot, host);
    }
  }
  await mountScreen();

  const review = new ReviewPanel({ code, match, positions, seatName, say, go: (i) => { pause(); void go(i); } });
  side.prepend(review.box);
  side.classList.add("has-review");
  track.append(review.marks);

  let index = -1;
  let playing = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let token = 0;
  slider.max = String(positions.length - 1);

  const get = (i: number): Promise<ReplayAnswer> => {
    let p = cache.get(i);
    if (!p) {
      p = fetchAt(code, match, positions[i]!, view);
      p.catch(() => cache.delete(i));
      cache.set(i, p);
    }
    return p;
  };

  function showLog(snapshot: Snapshot): void {
    logList.replaceChildren(
      ...snapshot.log.filter((e) => e.text).map((e) => {
        const li = el("li");
        li.append(el("span", "log-step", String(e.step)), el("span", "log-text", e.text));
        return li;
      }),
    );
    logList.scrollTop = logList.scrollHeight;
  }

  async function go(i: number): Promise<void> {
    const target = Math.max(0, Math.min(positions.length - 1, i));
    if (target === index) {
      if (playing && target === positions.length - 1) pause();
      return;
    }
    const mine = ++token;
    let a: ReplayAnswer;
    try {
      a = await get(target);
    } catch (e) {
      say(`This position could not be fetched: ${e instanceof Error ? e.message : String(e)}`, "error");
      pause();
      return;
    }
    if (mine !== token) return;
    const forward = target === index + 1;
    index = target;
    screen.update(a.snapshot, forward ? a.events : []);
    const phase = screen.phase?.(a.snapshot) ?? "";
    banner.textContent = a.snapshot.status === "over" ? "Game over" : phase.replace(/: (watching|waiting)$/i, "");
    const res = a.snapshot.result;
    if (a.snapshot.status === "over" && res) {
      const w = res.winners;
      waiting.textContent = `${w.length ? `${w.map(seatName).join(" and ")} won` : "A draw"}${res.reason ? `: ${String(res.reason)}` : "."}`;
    } else waiting.textContent = a.events.length ? a.events.map((e) => e.text).join(" · ") : "";
    waiting.hidden = !waiting.textContent;
    waiting.title = waiting.textContent;
    showLog(a.snapshot);
    review.at(index);
    slider.value = String(index);
    where.textContent = `Step ${a.step} · ${index + 1} / ${positions.length}`;
    slider.setAttribute("aria-valuetext", `step ${a.step}, position ${index + 1} of ${positions.length}`);
    backBtn.disabled = startBtn.disabled = index === 0;
    fwdBtn.disabled = endBtn.disabled = index === positions.length - 1;
    document.documentElement.dataset.ready = "true";
    document.documentElement.dataset.step = String(a.step);
    if (index + 1 < positions.length) void get(index + 1).catch(() => undefined); // prefetch
    if (playing) schedule();
  }

  function schedule(): void {
    if (timer !== null) clearTimeout(timer);
    if (index >= positions.length - 1) {
      pause();
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      if (playing) void go(index + 1);
    }, BASE_MS / Number(speedSel.value));
  }

  function play(): void {
    if (index >= positions.length - 1) void go(0);
    playing = true;
    playBtn.textContent = "Pause";
    playBtn.setAttribute("aria-pressed", "true");
    schedule();
  }

  function pause(): void {
    playing = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    playBtn.textContent = "Play";
    playBtn.setAttribute("aria-pressed", "false");
  }

  function toggle(): void {
    if (playing) pause();
    else play();
  }

  slider.addEventListener("input", () => {
    pause();
    void go(Number(slider.value));
  });
  viewSel.addEventListener("change", () => {
    view = viewSel.value;
    const q = new URLSearchParams(location.search);
    if (view === "full") q.delete("view");
    else q.set("view", view);
    history.replaceState(null, "", `${location.pathname}?${q}`);
    cache = new Map();
    const at = index;
    index = -1;
    void mountScreen().then(() => go(at));
    say(`Now seen by ${viewSel.selectedOptions[0]?.textContent ?? view}.`);
  });
  speedSel.addEventListener("change", () => {
    if (playing) schedule();
    say(`Speed ${speedSel.value}×.`);
  });
  document.addEventListener("keydown", (e) => {
    if (inTextField(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    const onControl = t instanceof HTMLButtonElement || t instanceof HTMLInputElement;
    if (e.key === " " && !onControl) toggle();
    else if (e.key === ",") {
      pause();
      void go(index - 1);
    } else if (e.key === ".") {
      pause();
      void go(index + 1);
    } else if (e.key === "Home" && !onControl) void go(0);
    else if (e.key === "End" && !onControl) void go(positions.length - 1);
    else if (screen.key?.(e)) {
      /* the screen's camera keys */
    } else return;
    e.preventDefault();
  });

  window.deltavReplay = {
    state: () => ({ index, step: positions[index] ?? -1, positions: positions.length, playing, speed: Number(speedSel.value), view }),
  };
  await go(0);
  say("Replay: Space plays or pauses, , and . step, Home and End jump.");
}
