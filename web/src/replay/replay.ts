/**
 * The replay page (`/replay/CODE?match=N`): a finished match stepped through with the game's own screen in
 * spectator mode. The client never replays rules: each step's spectator snapshot comes from the server.
 *
 * Owns the replay page only.
 */
import { el } from "../shell/dom";

export async function startReplay(root: HTMLElement, code: string, match: number): Promise<void> {
  root.className = "notfound";
  const rec = el("a", "btn primary", "Download the record");
  rec.href = `/rooms/${code}/record?match=${match}`;
  const lobby = el("a", "btn", "To the lobby");
  lobby.href = "/";
  root.replaceChildren(el("h1", "", `Replay of room ${code}, match ${match}`), el("p", "", "The replay player is on its way; the record can be downloaded already."), rec, lobby);
  document.documentElement.dataset.ready = "true";
}
