/**
 * A bare host for the tactical screen used by its browser tests before (and besides) the shell: it connects to
 * a real server's match socket (`?ws=ws://HOST/ws/CODE&token=...&board=board.json`), keeps the step, submits,
 * answers `request` (advise, hint) by id, and writes `say` lines into an aria-live region. No lobby, no chat:
 * the shell's match page is the product; this only mounts the screen over the real protocol.
 */
import type { LegalEntry, LogEntry, ScreenHost, Snapshot } from "../shell/screen";
import { TacticalScreen } from "./screen";

const q = new URLSearchParams(location.search);
const wsUrl = q.get("ws") ?? "";
const token = q.get("token");
const root = document.getElementById("app")!;
const status = document.getElementById("status")!;
const screen = new TacticalScreen();
let snap: Snapshot | null = null;
let seq = 0;
const waiting = new Map<number, { ok: (m: Record<string, unknown>) => void; err: (e: unknown) => void }>();
const said: string[] = [];
let ws: WebSocket;

function send(msg: Record<string, unknown>): Promise<Record<string, unknown>> {
  const id = ++seq;
  return new Promise((ok, err) => {
    waiting.set(id, { ok, err });
    ws.send(JSON.stringify({ ...msg, id }));
  });
}

const host: ScreenHost & { request(msg: { type: string }): Promise<Record<string, unknown>> } = {
  submit: async (action: LegalEntry["action"]) => {
    if (!snap) throw new Error("not connected");
    await send({ type: "submit", step: snap.step, action });
  },
  say: (text) => {
    said.push(text);
    status.textContent = text;
  },
  sound: () => {},
  board: async () => (await fetch(q.get("board") ?? "board.json")).json(),
  seatName: (seat) => (snap?.seat === seat ? "you" : `seat ${seat + 1}`),
  request: (msg) => send(msg),
};

function connect(): void {
  ws = new WebSocket(wsUrl + (token ? `?token=${token}` : ""));
  ws.onmessage = (ev) => {
    const msg = JSON.parse(String(ev.data)) as Record<string, unknown>;
    const id = msg["id"] as number | undefined;
    if (msg["type"] === "state") {
      const prev = snap;
      snap = msg["snapshot"] as Snapshot;
      const events = (msg["events"] as LogEntry[] | undefined) ?? (prev ? snap.log.filter((e) => e.step >= prev.step) : []);
      screen.update(snap, events);
      document.getElementById("phase")!.textContent = screen.phase(snap);
      document.documentElement.dataset["step"] = String(snap.step);
      document.documentElement.dataset["status"] = snap.status;
    }
    if (id !== undefined && waiting.has(id)) {
      const w = waiting.get(id)!;
      waiting.delete(id);
      if (msg["type"] === "error") w.err(msg);
      else w.ok(msg);
    }
  };
  ws.onclose = () => {
    status.textContent = "Connection lost: reconnecting…";
    setTimeout(connect, 500);
  };
}

window.addEventListener("keydown", (e) => {
  const t = e.target as HTMLElement;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA")) return;
  if (e.key === "?") {
    const box = document.getElementById("help")!;
    if (box.hidden) box.replaceChildren(screen.help());
    box.hidden = !box.hidden;
    e.preventDefault();
    return;
  }
  if (screen.key(e)) e.preventDefault();
});

declare global {
  interface Window {
    harness?: { said: string[]; snap: () => Snapshot | null };
  }
}
window.harness = { said, snap: () => snap };

void Promise.resolve(screen.mount(root, host)).then(() => {
  connect();
  document.documentElement.dataset["ready"] = "true";
});
