/**
 * The end of a match in words (COMMON spec 1 and 4): the verdict a viewer reads ("You won: the enemy frigate
 * was destroyed", "You resigned", "Alice won on time") and the match summary's tables (`snapshot.summary`: the
 * game's scores table, the statistics per seat, the notes), for the result dialog of match.ts.
 *
 * Owns these texts and tables only (pure, but for building DOM); the dialog's frame and buttons are match.ts's.
 */
import { el } from "./dom";
import type { MatchSummary } from "./screen";

/** How a match ended outside the rules (`room.ending`, `MatchRecord.ending`): `seats` lost, `winners` won. */
export interface Ending {
  kind: "resign" | "forfeit" | string;
  seats: number[];
  winners: number[];
  step?: number;
  reason?: string;
}

/** "A", "A and B", "A, B and C". */
export function names(list: string[]): string {
  if (list.length <= 1) return list[0] ?? "";
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return "";
  return `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? "" : "."}`;
}

/** The verdict for the viewer `seat` (null: a spectator): a headline and, under it, the reason in full. */
export function verdict(o: {
  seat: number | null;
  winners: number[];
  ending: Ending | null;
  /** The rules' reason of the result (`result.reason`), when the match ended by the rules. */
  reason: string | null;
  /** A seat's display name (never "You": the verdict says "You" itself). */
  name: (seat: number) => string;
}): { headline: string; detail: string } {
  const { seat, ending } = o;
  const winners = ending ? ending.winners : o.winners;
  const won = names(winners.map(o.name));
  const me = seat !== null;
  const iWon = me && winners.includes(seat);
  if (ending && (ending.kind === "resign" || ending.kind === "forfeit")) {
    const losers = names(ending.seats.map(o.name));
    const iLost = me && ending.seats.includes(seat);
    const detail = sentence(ending.reason ?? "");
    if (ending.kind === "resign") {
      if (iLost) return { headline: "You resigned.", detail: winners.length ? `${won} won.` : detail };
      if (iWon) return { headline: `You won: ${losers} resigned.`, detail };
      return { headline: `${won || "Nobody"} won: ${losers} resigned.`, detail };
    }
    const onTime = /turn time/i.test(ending.reason ?? "");
    if (iLost) return { headline: onTime ? `You ran out of time: ${won} won.` : `You left the game: ${won} won.`, detail };
    if (iWon) return { headline: onTime ? "You won on time." : `You won: ${losers} left the game.`, detail };
    return { headline: onTime ? `${won} won on time.` : `${won} won: ${losers} left the game.`, detail };
  }
  const why = oneClause((o.reason ?? "").trim().replace(/[.!]$/, ""));
  const tail = why ? `: ${why}.` : ".";
  if (winners.length === 0) return { headline: why ? `A draw${tail}` : "A draw: nobody won.", detail: "" };
  if (iWon && winners.length > 1) {
    return { headline: `You share the win with ${names(winners.filter((w) => w !== seat).map(o.name))}${tail}`, detail: "" };
  }
  if (iWon) return { headline: why ? `You won${tail}` : "You won!", detail: "" };
  return { headline: `${won} won${tail}`, detail: "" };
}

/** A reason that already has a short heading ("turn limit: equal points") as one clause ("equal points (turn
 *  limit)"), so the verdict's own colon is the only one ("A draw: equal points (turn limit)."). */
function oneClause(why: string): string {
  const m = /^([^:]{1,24}): (.+)$/.exec(why);
  return m && m[1]!.split(" ").length <= 3 ? `${m[2]} (${m[1]})` : why;
}

function cell(v: unknown): string {
  if (typeof v === "number") return Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : String(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (v === null || v === undefined) return "—";
  return String(v);
}

/** The summary's tables: the game's scores table (its own columns and rows), the statistics with one column
 *  per seat, and the notes. A scores row that starts with a winner's name is marked `winner`. */
export function summaryParts(summary: MatchSummary, seatNames: string[], winners: number[], me: number | null = null): HTMLElement[] {
  const parts: HTMLElement[] = [];
  const scores = summary.scores;
  if (scores && Array.isArray(scores.rows) && scores.rows.length) {
    const table = el("table", "result-scores");
    if (scores.title) table.append(el("caption", "", scores.title));
    const cols = Array.isArray(scores.columns) ? scores.columns.map(String) : [];
    if (cols.length) {
      const head = el("tr");
      for (const c of cols) head.append(el("th", "", c));
      table.append(head);
    }
    scores.rows.forEach((row) => {
      const tr = el("tr");
      const cells: unknown[] = Array.isArray(row) ? row
        : row && typeof row === "object" ? cols.map((c) => (row as Record<string, unknown>)[c]) : [row];
      cells.forEach((c, j) => tr.append(el(j === 0 ? "th" : "td", "", cell(c))));
      const who = seatNames.indexOf(cell(cells[0])); // a row that starts with a seat's name is that seat's
      if (who >= 0 && winners.includes(who)) tr.className = "winner";
      if (tr.firstElementChild) tr.firstElementChild.setAttribute("scope", "row");
      table.append(tr);
    });
    parts.push(table);
  }
  const stats = (summary.stats ?? []).filter((s) => s && Array.isArray(s.values));
  if (stats.length) {
    const table = el("table", "result-stats");
    const head = el("tr");
    head.append(el("td", "", "")); // the corner: the rows are named below it, the seats beside it
    seatNames.forEach((n, i) => {
      const th = el("th", winners.includes(i) ? "winner" : "", i === me ? `${n} (you)` : n);
      th.setAttribute("scope", "col");
      head.append(th);
    });
    table.append(head);
    for (const s of stats) {
      const tr = el("tr");
      const th = el("th", "", s.label);
      th.setAttribute("scope", "row");
      tr.append(th);
      seatNames.forEach((_, i) => tr.append(el("td", "", cell(s.values[i]))));
      table.append(tr);
    }
    // folded: the verdict, the scores and the buttons fit a phone without scrolling; a click shows the numbers
    const more = el("details", "result-more");
    more.append(el("summary", "", "The match in numbers"), table);
    parts.push(more);
  }
  if (summary.notes?.length) {
    const ul = el("ul", "result-notes");
    for (const n of summary.notes) ul.append(el("li", "", n));
    parts.push(ul);
  }
  return parts;
}
