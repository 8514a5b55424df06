// Development harness page for the Deep Space Combat screen (see ds_harness.py): a ScreenHost over HTTP polling.
import { DeepSpaceScreen } from "../src/deepspace/screen";
import type { LogEntry, ScreenHost, Snapshot } from "../src/shell/screen";

const spectator = location.search.includes("spectator");
const status = document.getElementById("status")!;
const screen = new DeepSpaceScreen();
let last = -1;
let lastLog = 0;
const host: ScreenHost = {
  async submit(action) {
    const r = await fetch("/submit", { method: "POST", body: JSON.stringify(action) });
    if (!r.ok) throw await r.json();
    await poll();
  },
  say(text, kind) {
    status.textContent = `${kind ?? "info"}: ${text}`;
  },
  sound() {},
  async board() {
    return (await fetch("/board")).json();
  },
  seatName: (s) => `seat ${s}`,
};
async function poll(): Promise<void> {
  const snap = (await (await fetch(`/snap${spectator ? "?spectator" : ""}`)).json()) as Snapshot;
  if (snap.step === last) return;
  last = snap.step;
  const events: LogEntry[] = snap.log.filter((e) => e.step >= lastLog);
  lastLog = snap.step;
  document.getElementById("phase")!.textContent = screen.phase(snap);
  screen.update(snap, events);
}
await screen.mount(document.getElementById("game")!, host);
await poll();
setInterval(poll, 700);
window.addEventListener("keydown", (e) => screen.key(e));
(window as unknown as { dsHelp: () => HTMLElement }).dsHelp = () => screen.help();
