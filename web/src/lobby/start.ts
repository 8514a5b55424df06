/**
 * Starting a room from the lobby, shared by its one-click "Play now" (lobby.ts), the set-up dialog (setup.ts) and
 * Quick match (quickmatch.ts): a game's default seat count and default bot, its scenario picker (the default
 * marked), and `startRoom` (create the room, keep the seat's token, go to the match page). A module of its own so that the lobby and the set-up dialog never import each other.
 *
 * Owns these defaults and the creation call only; the room's rules are the server's.
 */
import { ApiError, createRoom, type GameInfo } from "../shell/api";
import { el } from "../shell/dom";
import { playerName, saveSeatKey } from "../shell/storage";

/** The bot of "Play now" and of a new seat, when the game offers it. */
export const DEFAULT_BOT = "bot:normal";

/** The seat count of a game with its default options. */
export function defaultSeats(g: GameInfo): number {
  const opt = g.options.find((o) => o.name === "players");
  if (opt && typeof opt.default === "number") return opt.default;
  const scen = g.options.find((o) => o.name === "scenario");
  const s = g.scenarios.find((x) => x.id === scen?.default) ?? g.scenarios[0];
  return s?.players[0] ?? g.players[0];
}

export function defaultBot(g: GameInfo): string {
  return g.bots.includes(DEFAULT_BOT) ? DEFAULT_BOT : g.bots.find((b) => b !== "bot:random") ?? g.bots[0] ?? "bot:random";
}

/** Create a room and go to its match page, the seat's token kept under the room code. */
export async function startRoom(req: Parameters<typeof createRoom>[0], say: (t: string, kind?: "error") => void): Promise<void> {
  try {
    const name = playerName();
    const grant = await createRoom(name && req.name === undefined ? { ...req, name } : req);
    if (grant.token !== null && grant.seat !== null) {
      saveSeatKey(grant.code, { token: grant.token, seat: grant.seat, game: req.game });
      location.assign(`/play/${grant.code}`);
    } else location.assign(`/watch/${grant.code}`);
  } catch (e) {
    say(e instanceof ApiError ? `The server refused: ${e.message}` : String(e), "error");
  }
}

/** The scenario picker of a game (a `<select>` with id `id`): every scenario by its title, the default one marked
 *  and chosen. */
export function scenarioPicker(g: GameInfo, id: string): HTMLSelectElement {
  const scenOpt = g.options.find((o) => o.name === "scenario");
  const select = el("select");
  select.id = id;
  for (const s of g.scenarios) {
    const o = el("option", "", `${s.title}${s.id === scenOpt?.default ? " (default)" : ""}`);
    o.value = s.id;
    o.selected = s.id === scenOpt?.default;
    select.append(o);
  }
  return select;
}
