/**
 * The client's entry (app.js): routes by the page's path. `/` the lobby, `/play/CODE` a seat (its token kept in
 * localStorage under the room code, so a reload reconnects), `/watch/CODE` a spectator, `/replay/CODE?match=N`
 * a finished match. The tactical board preview (`/board`) is its own small bundle (demo.js).
 *
 * Owns routing only.
 */
import { startLobby } from "./lobby/lobby";
import { startReplay } from "./replay/replay";
import { el } from "./shell/dom";
import { startMatch } from "./shell/match";

const CODE = /^[A-Za-z]{5}$/;

function notFound(root: HTMLElement, text: string): void {
  root.className = "notfound";
  const a = el("a", "btn primary", "To the lobby");
  a.href = "/";
  root.replaceChildren(el("h1", "", "deltav"), el("p", "", text), a);
  document.documentElement.dataset.ready = "true";
}

function main(): void {
  const root = document.getElementById("app");
  if (!root) throw new Error("the page has no #app");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const m = /^\/(play|watch|replay)\/([^/]+)$/.exec(path);
  if (path === "/" || path === "/index.html") {
    void startLobby(root);
  } else if (m) {
    const [, mode, code] = m as unknown as [string, "play" | "watch" | "replay", string];
    if (!CODE.test(code)) {
      notFound(root, `“${decodeURIComponent(code)}” is not a room code: a code is 5 letters, like KXMPT.`);
    } else if (mode === "replay") {
      const match = Number(new URLSearchParams(location.search).get("match") ?? "1");
      void startReplay(root, code.toUpperCase(), Number.isInteger(match) && match > 0 ? match : 1);
    } else {
      void startMatch(root, { mode, code });
    }
  } else {
    notFound(root, "There is no page here.");
  }
}

main();
