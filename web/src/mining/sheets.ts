/**
 * The mining screen's record sheets as DOM: the running contract attempt, the contract cards (a card is the
 * button that declares it), one sheet per player (rockets, bribe counters with their state, incidents in hand
 * with their text, collected tiles and contracts) and the standings with the rulebook's tie-breaks.
 *
 * Owns building these panels from a snapshot; what a control does is the screen's (`PanelContext`).
 */
import type { LegalEntry, Snapshot } from "../shell/screen";
import {
  INCIDENT_TEXT, type MiningView, article, bribeMineral, attemptSlots, isMineral, kindName, noteOf, ofType, squareName, standings, tileName,
} from "./model";
import { kindStyle, playerColour } from "./palette";
import { el } from "../shell/dom";

/** What the panels need from the screen. */
export interface PanelContext {
  name(seat: number): string;
  pending: boolean;
  send(entry: LegalEntry): void;
  button(entry: LegalEntry, label: string, key: string, cls?: string, hotkey?: number): HTMLButtonElement;
  /** The next free number key (1-9) or null. */
  takeHotkey(): number | null;
}


/** A small chip naming a mineral or incident (letter + value), coloured like the tile. */
export function chip(kind: string, value?: number, extra = ""): HTMLSpanElement {
  const st = kindStyle(kind);
  const c = el("span", `mn-chip ${extra}`.trim(), isMineral(kind) && value ? `${st.code}${value}` : st.code);
  c.style.background = st.fill;
  c.style.color = st.ink;
  c.title = value ? `${kindName(kind)} ${value}` : kindName(kind);
  return c;
}

export function attemptPanel(ctx: PanelContext, v: MiningView): HTMLElement {
  const att = v.attempt!;
  const p = el("section", "mn-panel mn-attempt");
  p.setAttribute("aria-label", "The contract attempt");
  p.append(el("h3", undefined, `Attempt at ${att.contract} · ${ctx.name(v.current_player)}`));
  const slots = el("div", "mn-slots");
  for (const sl of attemptSlots(v)) {
    const d = el("div", `mn-slot${sl.square !== null ? " mn-filled" : ""}`);
    d.append(chip(sl.mineral));
    const tile = sl.square !== null ? v.tiles[sl.square] : null;
    // a tile counted as another mineral than its own: wild Omnidium, or a bribed replacement
    const bribed = tile && !sl.wild && tile.kind !== sl.mineral && tile.kind !== "omnidium" ? ` (bribed: counts as ${kindName(sl.mineral)})` : "";
    d.append(el("div", undefined, sl.square === null ? "to find" : `${squareName(sl.square)}${tile ? `: ${tileName(tile)}` : ""}${sl.wild ? " (wild)" : ""}${bribed}`));
    slots.append(d);
  }
  p.append(slots);
  if (att.mismatch !== null) {
    const t = v.tiles[att.mismatch];
    p.append(el("p", undefined, `Mismatch on ${squareName(att.mismatch)}${t ? `: ${tileName(t)}` : ""}.`));
  }
  if (att.bid) {
    const m = bribeMineral(v, att.bid.bribe);
    p.append(el("p", undefined, `${ctx.name(att.bid.bidder)} bid up with ${kindName(m)}: ${article(kindName(m))} (or Omnidium) tile must be revealed too.`));
  }
  return p;
}

export function contractsPanel(ctx: PanelContext, s: Snapshot, v: MiningView): HTMLElement {
  const p = el("section", "mn-panel");
  p.setAttribute("aria-label", "Contracts");
  p.append(el("h3", undefined, `Contracts (${v.contracts.filter((c) => c.owner === null).length} open)`));
  const grid = el("div", "mn-contracts");
  const declares = s.to_act ? ofType(s.legal, "declare") : [];
  for (const c of v.contracts) {
    const entry = declares.find((e) => e.action.contract === c.id);
    const card = entry ? el("button", "mn-card") : el("div", "mn-card");
    if (entry && card instanceof HTMLButtonElement) {
      card.type = "button";
      card.dataset["key"] = `declare-${c.id}`;
      card.dataset["action"] = "declare";
      card.disabled = ctx.pending;
      card.title = `Declare contract ${c.id}`;
      card.addEventListener("click", () => ctx.send(entry));
      const hot = ctx.takeHotkey();
      if (hot !== null) {
        card.dataset["hotkey"] = String(hot);
        card.append(el("kbd", "mn-cardkey", String(hot)));
      }
    }
    card.dataset["contract"] = c.id;
    if (c.owner !== null) card.classList.add("mn-taken");
    if (v.attempt?.contract === c.id) card.classList.add("mn-current");
    card.append(el("div", "mn-cid", c.id));
    const need = el("div", "mn-need");
    for (const m of c.minerals) need.append(chip(m));
    card.append(need);
    if (c.owner !== null) card.append(el("div", "mn-owner", `won by ${ctx.name(c.owner)}`));
    const plan = noteOf(entry, "declare")?.plan;
    if (Array.isArray(plan)) {
      const mark = el("span", "mn-plan", "✓ known");
      mark.title = `You know tiles that complete it: ${plan.map((x) => squareName(Number(x))).join(", ")}`;
      card.append(mark);
    }
    card.setAttribute("aria-label", `Contract ${c.id}: ${c.minerals.map(kindName).join(", ")}${c.owner !== null ? `, won by ${ctx.name(c.owner)}` : ""}${entry ? ". Press to declare it" : ""}`);
    grid.append(card);
  }
  p.append(grid);
  return p;
}

export function sheet(ctx: PanelContext, s: Snapshot, v: MiningView, p: number): HTMLElement {
  const box = el("section", "mn-panel mn-sheet");
  box.style.setProperty("--seat", playerColour(p));
  box.dataset["seat"] = String(p);
  box.setAttribute("aria-label", `${ctx.name(p)}'s sheet`);
  if (v.current_player === p && s.status !== "over") box.classList.add("mn-turn");
  const head = el("header");
  head.append(el("span", "mn-swatch"), el("span", "mn-name", ctx.name(p)));
  if (v.current_player === p && s.status !== "over") head.append(el("span", "mn-tag", "to play"));
  if (v.deciding.includes(p) && v.current_player !== p) head.append(el("span", "mn-tag", "deciding"));
  const score = el("span", "mn-score", String(v.scores[p] ?? 0));
  score.title = "points: tiles collected minus 2 per spent counter";
  head.append(score);
  box.append(head);
  const inPlay = (v.rockets[p] ?? []).reduce((n, c) => n + c, 0);
  const frozen = v.alien !== null ? (v.rockets[p]?.[v.alien] ?? 0) : 0;
  box.append(row("Rockets", `${inPlay} in play${frozen ? ` (${frozen} frozen by the alien)` : ""} · ${v.shipyards[p] ?? 0} in the shipyard`));
  const bribes = el("div", "mn-row");
  bribes.append(el("span", "mn-lbl", "Counters"));
  const held = v.bribes.filter((b) => b.holder === p);
  for (const b of held) {
    const c = chip(b.mineral, undefined, b.spent ? "mn-spent" : "");
    c.title = `${kindName(b.mineral)} counter${b.owner !== p ? ` (stolen from ${ctx.name(b.owner)})` : ""}: ${b.spent ? "spent (−2 points)" : "unspent"}`;
    if (b.owner !== p) c.style.outline = `2px solid ${playerColour(b.owner)}`;
    if (v.attempt?.bid?.bribe === b.id) {
      // the counter bidding up now: spent only if the fulfiller answers the bid
      c.classList.add("mn-bidding");
      c.title = `${kindName(b.mineral)} counter: bidding up ${v.attempt.contract} (spent if the contract is still fulfilled, kept if it fails)`;
    }
    c.dataset["bribe"] = b.id;
    c.dataset["spent"] = String(b.spent);
    bribes.append(c);
  }
  const unspent = held.filter((b) => !b.spent).length;
  bribes.append(el("span", undefined, `${unspent} unspent, ${held.length - unspent} spent`));
  box.append(bribes);
  const hand = v.hands[p] ?? [];
  const discards = s.to_act && s.seat === p ? ofType(s.legal, "discard") : [];
  if (hand.length) {
    const h = el("div");
    const lbl = el("div", "mn-row");
    lbl.append(el("span", "mn-lbl", "Incidents"));
    h.append(lbl);
    for (const t of hand) {
      const card = el("div", "mn-incident");
      card.dataset["incident"] = t.id;
      const b = el("b");
      b.append(chip(t.kind), document.createTextNode(` ${kindName(t.kind)}`));
      if (t.acquired_turn === v.turn && v.options["incident_cooldown"] === true) b.append(document.createTextNode(" (taken this turn: usable from next turn)"));
      card.append(b, document.createTextNode(INCIDENT_TEXT[t.kind] ?? ""));
      const d = discards.find((e) => e.action.incident === t.id);
      if (d) card.append(ctx.button(d, `Play ${kindName(t.kind)}`, `discard-${t.id}`, "mn-primary"));
      h.append(card);
    }
    box.append(h);
  }
  const coll = v.collected[p] ?? [];
  const won = v.contracts.filter((c) => c.owner === p).map((c) => c.id);
  const cr = el("div", "mn-row");
  cr.append(el("span", "mn-lbl", "Collected"));
  if (!coll.length) cr.append(el("span", undefined, "nothing yet"));
  for (const t of coll) {
    const c = chip(t.kind, t.value);
    if (t.counted_as !== t.kind) c.title += ` (counted as ${kindName(t.counted_as)})`;
    cr.append(c);
  }
  if (won.length) cr.append(el("span", undefined, `· contracts ${won.join(", ")}`));
  box.append(cr);
  return box;
}

function row(label: string, text: string): HTMLElement {
  const r = el("div", "mn-row");
  r.append(el("span", "mn-lbl", label), el("span", undefined, text));
  return r;
}

export function standingsPanel(ctx: PanelContext, v: MiningView): HTMLElement {
  const p = el("section", "mn-panel");
  p.setAttribute("aria-label", "Standings");
  p.append(el("h3", undefined, v.result ? "Final scores" : "Standings"));
  const t = el("table", "mn-standings");
  const hr = el("tr");
  for (const h of ["#", "player", "points", "contracts", "unspent"]) hr.append(el("th", undefined, h));
  t.append(hr);
  standings(v).forEach((r, i) => {
    const tr = el("tr");
    if (v.result?.winners.includes(r.seat)) tr.className = "mn-win";
    tr.dataset["seat"] = String(r.seat);
    const nm = el("td");
    const sw = el("span", "mn-swatch");
    sw.style.setProperty("--seat", playerColour(r.seat));
    nm.append(sw, document.createTextNode(ctx.name(r.seat) + (v.result?.winners.includes(r.seat) ? " ★" : "")));
    tr.append(el("td", undefined, String(i + 1)), nm, el("td", undefined, String(r.points)), el("td", undefined, String(r.contracts)), el("td", undefined, String(r.unspent)));
    t.append(tr);
  });
  p.append(t);
  p.append(el("p", "mn-legend", "Ties: most points, then most contracts, then most unspent counters."));
  return p;
}
