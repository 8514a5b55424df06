/**
 * A test page for the mining screen without a server: it mounts `MiningScreen` with a stand-in host and shows
 * snapshots dumped from the real engine (tests/web/mining_fixtures.py), one at a time. Only the browser tests
 * bundle it (never the shipped client). `window.harness.show(i)` shows fixture i; submissions and lines said are
 * recorded in `window.harness.submitted` and `window.harness.said`.
 */
import type { LegalEntry, LogEntry, ScreenHost, Snapshot } from "../../src/shell/screen";
import { MiningScreen } from "../../src/mining/screen";

interface Fixture { label: string; snapshot: Snapshot; events: LogEntry[] }

const fixtures = JSON.parse(document.getElementById("fixtures")!.textContent!) as Fixture[];
const names = ["Ann", "Ben", "Cleo", "Dev"];
const submitted: LegalEntry["action"][] = [];
const said: string[] = [];
/** The "what happened" cards the screen asked the host to show. */
const acknowledged: { title: string; lines: string[] }[] = [];
const status = document.getElementById("status")!;
/** When the test exposes `pySubmit` (a Python Session behind the page), a submission is played for real and
 *  the next snapshot (after the bots' turns) comes back. */
type Reply = { snapshot: Snapshot; events: LogEntry[] } | { error: string };
const py = (window as unknown as { pySubmit?: (a: unknown) => Promise<Reply> }).pySubmit;
const host: ScreenHost = {
  submit: async (a) => {
    submitted.push(a);
    if (!py) return;
    const r = await py(a);
    if ("error" in r) { said.push(r.error); throw new Error(r.error); }
    setTimeout(() => { screen.update(r.snapshot, r.events); banner.textContent = screen.phase(r.snapshot); }, 0);
  },
  say: (t) => { said.push(t); status.textContent = t; },
  sound: () => {},
  board: async () => null,
  seatName: (s) => names[s] ?? `Player ${s + 1}`,
  acknowledge: async (title, lines) => { acknowledged.push({ title, lines }); },
};
const screen = new MiningScreen();
screen.mount(document.getElementById("root")!, host);
const banner = document.getElementById("banner")!;
function show(i: number): string {
  const f = fixtures[i]!;
  screen.update(f.snapshot, f.events);
  banner.textContent = screen.phase(f.snapshot);
  return f.label;
}
function help(): void {
  const h = document.getElementById("help")!;
  h.replaceChildren(screen.help());
  h.hidden = false;
}
(window as unknown as Record<string, unknown>)["deltavMiningHarnessUpdate"] = (snap: Snapshot) => {
  screen.update(snap, []);
  banner.textContent = screen.phase(snap);
};
/** Show a snapshot with the events new to it (as the shell does). */
function feed(snap: Snapshot, events: LogEntry[]): void {
  screen.update(snap, events);
  banner.textContent = screen.phase(snap);
}
(window as unknown as Record<string, unknown>)["harness"] = { show, help, feed, submitted, said, acknowledged, labels: fixtures.map((f) => f.label) };
document.documentElement.dataset["ready"] = "true";
