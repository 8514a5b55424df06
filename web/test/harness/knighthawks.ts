// A test harness page for the Knight Hawks screen without the shell: the host's submit and board calls go to
// functions the Playwright test exposes (backed by a real deltav Session in Python), and the test pushes each
// new snapshot with window.kh.update. Built only by tests/web/test_knighthawks_screen.py, never shipped.
import type { LogEntry, ScreenHost, Snapshot } from "../../src/shell/screen";
import { KnightHawksScreen } from "../../src/knighthawks/screen";

declare global {
  interface Window {
    khSubmit(action: unknown): Promise<{ ok: boolean; message?: string }>;
    khPull(): Promise<{ snapshot: Snapshot; events: LogEntry[] } | null>;
    khBoard(): Promise<unknown>;
    kh: { update(s: Snapshot, events: LogEntry[]): void; said: string[]; sounds: string[]; screen: KnightHawksScreen;
      cards: { title: string; lines: string[] }[];
      pull(): Promise<void>; help(): void };
  }
}

const said: string[] = [];
const sounds: string[] = [];
const cards: { title: string; lines: string[] }[] = [];
const status = document.getElementById("status")!;
const host: ScreenHost = {
  async submit(action) {
    const r = await window.khSubmit(action);
    if (!r.ok) throw { code: "illegal", message: r.message ?? "refused" };
    await pull();
  },
  // the "what happened" cards are recorded and continued at once (the shell's own card is tested through it)
  acknowledge: async (title, lines) => {
    cards.push({ title, lines });
  },
  say(text) {
    said.push(text);
    status.textContent = text;
  },
  sound(name) {
    sounds.push(name);
  },
  board: () => window.khBoard(),
  seatName: (s) => `seat ${s}`,
};
const screen = new KnightHawksScreen();
async function pull(): Promise<void> {
  const got = await window.khPull();
  if (got) window.kh.update(got.snapshot, got.events);
}
window.kh = {
  update: (s, e) => {
    screen.update(s, e);
    document.documentElement.dataset.step = String(s.step);
  },
  said,
  sounds,
  cards,
  screen,
  pull: () => pull(),
  help: () => {
    const box = document.createElement("div");
    box.id = "help";
    box.setAttribute("role", "dialog");
    box.style.cssText = "position:fixed;inset:20px;overflow:auto;background:#0b1020;color:#dfe6f3;padding:16px;font:14px system-ui;border:1px solid #445";
    box.append(screen.help());
    document.body.append(box);
  },
};
window.addEventListener("keydown", (e) => {
  if (screen.key(e)) e.preventDefault();
});
void Promise.resolve(screen.mount(document.getElementById("game")!, host)).then(() => {
  return pull();
}).then(() => {
  document.documentElement.dataset.ready = "true";
});
