/**
 * The game set-up dialog of the lobby. In plain sight: the scenario (with its summary), the number of players,
 * each seat (you, a person invited by code or link, or an Easy / Normal / Hard bot), whether the game is open to
 * anyone (listed in the lobby; else private: its code or invite link only), the turn timer, and the game's own
 * options. Under the "Advanced" fold: the other bots of the server's list (search bots, the game's own
 * bots), each explained in a sentence, and the rulings (the rules options that settle a silence or a
 * contradiction of the rules text), their rule references as tags. "Create the game" posts the room.
 *
 * Owns the set-up form only; the options are validated by the server (its sentence is shown on a refusal).
 */
import { botHelp, botName, LEVEL_BOTS, type GameInfo, type OptionInfo } from "../shell/api";
import { button, el, trapFocus } from "../shell/dom";
import { defaultBot, defaultSeats, scenarioPicker, startRoom } from "./start";

let open: HTMLElement | null = null;

/** The turn timer's choices: seconds per move (0: no timer). */
export const TIMER_CHOICES: [number, string][] = [
  [0, "No timer"],
  [30, "30 seconds a move"],
  [60, "1 minute a move"],
  [120, "2 minutes a move"],
  [300, "5 minutes a move"],
  [900, "15 minutes a move"],
];

/** A ruling's reference at the start of its doc ("ruling 4:", "G1:", "1.5.3 [rulebook: ...]:"), split off so
 *  the sentence reads plainly and the reference becomes a tag. */
export function splitRuleRef(doc: string): { ref: string; text: string } {
  const m = /^\s*((?:ruling\s+)?[A-Z]?\d+(?:\.\d+)*)((?:\s*\[[^\]]*\])?)\s*:\s*/i.exec(doc);
  if (!m) return { ref: "", text: doc.trim() };
  const quote = m[2]?.trim().replace(/^\[|\]$/g, "") ?? "";
  const text = doc.slice(m[0].length).trim();
  return { ref: m[1]!.replace(/^ruling\s+/i, ""), text: quote ? `${text} (${quote})` : text };
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return t;
  return `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?)]$/.test(t) ? "" : "."}`;
}

/** The counts of a `multiple` option's value ("destroyer,2*fighter" -> destroyer 1, fighter 2). */
export function parseCounts(value: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const part of value.split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)\s*\*\s*(.+)$/.exec(part);
    const [n, name] = m ? [Number(m[1]), m[2]!.trim()] : [1, part];
    out.set(name, (out.get(name) ?? 0) + n);
  }
  return out;
}

/** A `multiple` option's value from counts, in the order of its choices ("destroyer,2*fighter"). */
export function joinCounts(choices: string[], counts: Map<string, number>): string {
  return choices.filter((c) => (counts.get(c) ?? 0) > 0).map((c) => (counts.get(c)! > 1 ? `${counts.get(c)}*${c}` : c)).join(",");
}

/** A count for each choice of a `multiple` option (a Knight Hawks fleet: how many of each ship class), kept in a
 *  hidden input that carries the option's value. */
function countsInput(o: OptionInfo, hidden: HTMLInputElement): HTMLElement {
  const choices = (o.choices ?? []).map(String);
  const counts = parseCounts(String(o.default ?? ""));
  const grid = el("div", "multi-picker");
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", o.label || o.name.replace(/_/g, " "));
  for (const c of choices) {
    const item = el("label", "multi-item");
    const n = el("input");
    n.type = "number";
    n.min = "0";
    n.max = "12";
    n.step = "1";
    n.id = `opt-${o.name}-${c}`;
    n.value = String(counts.get(c) ?? 0);
    n.dataset.choice = c;
    n.addEventListener("input", () => {
      const v = Math.max(0, Math.min(12, Math.floor(Number(n.value) || 0)));
      counts.set(c, v);
      hidden.value = joinCounts(choices, counts);
    });
    item.append(el("span", "", c.replace(/_/g, " ")), n);
    grid.append(item);
  }
  hidden.value = joinCounts(choices, counts);
  return grid;
}

function optionInput(o: OptionInfo): HTMLElement {
  const id = `opt-${o.name}`;
  let input: HTMLInputElement | HTMLSelectElement;
  let shown: HTMLElement | null = null;
  if (o.multiple && o.choices && o.choices.length) {
    input = el("input");
    input.type = "hidden";
    shown = countsInput(o, input);
  } else if (o.type === "bool") {
    input = el("input");
    input.type = "checkbox";
    input.checked = o.default === true;
  } else if (o.choices && o.choices.length) {
    input = el("select");
    for (const c of o.choices) {
      const opt = el("option", "", `${String(c).replace(/_/g, " ")}${c === o.default ? " (default)" : ""}`);
      opt.value = String(c);
      opt.selected = c === o.default;
      input.append(opt);
    }
  } else {
    input = el("input");
    input.type = o.type === "int" || o.type === "float" ? "number" : "text";
    if (o.type === "int") input.step = "1";
    if (o.minimum !== null) input.min = String(o.minimum);
    if (o.maximum !== null) input.max = String(o.maximum);
    input.value = o.default === null || o.default === undefined ? "" : String(o.default);
  }
  input.id = id;
  input.dataset.option = o.name;
  input.dataset.type = o.type;
  input.setAttribute("aria-describedby", `${id}-doc`);
  const row = el("div", `opt-row${o.ruling ? " ruling" : ""}`);
  const name = o.label || o.name.replace(/_/g, " ");
  const lab = el("label", "", `${name[0]!.toUpperCase()}${name.slice(1)}`);
  lab.htmlFor = shown ? `${id}-${String(o.choices?.[0] ?? "")}` : id;
  const { ref, text } = o.ruling ? splitRuleRef(o.doc) : { ref: "", text: o.doc };
  if (o.ruling) lab.append(el("span", "tag", ref ? `ruling ${ref}` : "ruling"));
  const dflt = typeof o.default === "boolean" ? (o.default ? "on" : "off")
    : o.multiple ? [...parseCounts(String(o.default))].map(([c, n]) => `${c.replace(/_/g, " ")}${n > 1 ? ` ×${n}` : ""}`).join(", ")
    : String(o.default).replace(/_/g, " ");
  const doc = el("p", "opt-doc dim", `${sentence(text)} Default: ${dflt}.`);
  doc.id = `${id}-doc`;
  row.append(lab, input);
  if (shown) {
    row.classList.add("multi-row");
    shown.setAttribute("aria-describedby", doc.id);
    row.append(shown);
  }
  row.append(doc);
  return row;
}

function readOption(input: HTMLInputElement | HTMLSelectElement): unknown {
  const t = input.dataset.type;
  if (input instanceof HTMLInputElement && input.type === "checkbox") return input.checked;
  if (t === "int") return Number.parseInt(input.value, 10);
  if (t === "float") return Number.parseFloat(input.value);
  return input.value;
}

export function openSetup(g: GameInfo, say: (t: string, kind?: "info" | "error") => void): void {
  open?.remove();
  const back = el("div", "overlay setup-overlay");
  const frame = el("div", "dialog dialog-setup");
  frame.setAttribute("role", "dialog");
  frame.setAttribute("aria-modal", "true");
  frame.setAttribute("aria-labelledby", "setup-title");
  const box = el("form", "setup-form");
  frame.append(box);
  const h = el("h2", "", `New game: ${g.title.replace(/\s*\(.*\)\s*$/, "")}`);
  h.id = "setup-title";
  const returnTo = document.activeElement as HTMLElement | null;
  const close = (): void => {
    back.remove();
    open = null;
    returnTo?.focus();
  };
  const x = button("×", close, "dialog-close", "Close (Esc)");
  x.setAttribute("aria-label", "Close");

  // scenario
  const scenSel = scenarioPicker(g, "setup-scenario");
  const scenLabel = el("label", "", "Scenario");
  scenLabel.htmlFor = scenSel.id;
  const scenSummary = el("p", "scen-summary");
  scenSummary.setAttribute("aria-live", "polite");
  const scenario = () => g.scenarios.find((s) => s.id === scenSel.value);

  // the number of players, in plain sight: a choice when the game has a `players` option, else the scenario's
  const playersOpt = g.options.find((o) => o.name === "players");
  const playersRow = el("div", "opt-row players-row");
  const playersLabel = el("label", "", "Players");
  const playersSel = el("select");
  playersSel.id = "setup-players";
  playersLabel.htmlFor = playersSel.id;
  const playersFixed = el("p", "players-fixed");
  playersFixed.id = "setup-players-fixed";
  const renderPlayers = (): void => {
    const sc = scenario();
    let counts = sc?.players ?? [defaultSeats(g)];
    if (playersOpt) {
      const lo = playersOpt.minimum ?? g.players[0];
      const hi = playersOpt.maximum ?? g.players[1];
      counts = counts.filter((n) => n >= lo && n <= hi);
      if (!counts.length) for (let n = lo; n <= hi; n++) counts.push(n);
    }
    const was = Number(playersSel.value) || (typeof playersOpt?.default === "number" ? playersOpt.default : counts[0]!);
    playersSel.replaceChildren(...counts.map((n) => {
      const o = el("option", "", `${n} players`);
      o.value = String(n);
      return o;
    }));
    playersSel.value = String(counts.includes(was) ? was : counts[0]);
    const choose = playersOpt !== undefined && counts.length > 1;
    playersSel.hidden = !choose;
    playersFixed.hidden = choose;
    playersFixed.textContent = `${counts[0]} players${playersOpt ? "" : " (set by the scenario)"}`;
    playersLabel.htmlFor = choose ? playersSel.id : "";
  };
  playersRow.append(playersLabel, playersSel, playersFixed);
  const seatCount = (): number => Number(playersSel.value) || scenario()?.players[0] || defaultSeats(g);

  // seats
  const seatsBox = el("fieldset", "seats-box");
  seatsBox.append(el("legend", "", "Seats"));
  const seatRows = el("div", "seat-rows");
  seatsBox.append(seatRows);
  const levels = LEVEL_BOTS.filter((b) => g.bots.includes(b));
  const others = g.bots.filter((b) => !levels.includes(b));

  // the Advanced fold: more bots (explained) and the rulings
  // (it is also `.options-box`: the rules options lived in a fold of that name, and tests open it by it)
  const adv = el("details", "advanced-box options-box");
  adv.append(el("summary", "", "Advanced: more bots and rulings"));
  const renderSeats = (): void => {
    const old = [...seatRows.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    const n = seatCount();
    seatRows.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = el("select");
      sel.id = `seat-${i}`;
      sel.dataset.seat = String(i);
      const add = (parent: HTMLElement, value: string, text: string): void => {
        const o = el("option", "", text);
        o.value = value;
        parent.append(o);
      };
      add(sel, "you", "You");
      add(sel, "human", "A person (invite by code or link)");
      for (const b of levels) add(sel, b, botName(b));
      const want = old[i] ?? (i === 0 ? "you" : defaultBot(g));
      // the other bots are offered once the Advanced fold is open (or when one is already picked)
      if (others.length && (adv.open || others.includes(want))) {
        const group = el("optgroup");
        group.label = "Advanced bots";
        for (const b of others) add(group, b, botName(b));
        sel.append(group);
      }
      sel.value = want;
      if (!sel.value) sel.value = defaultBot(g);
      const lab = el("label", "", `Player ${i + 1}`);
      lab.htmlFor = sel.id;
      const row = el("div", "seat-row");
      row.append(lab, sel);
      seatRows.append(row);
    }
  };
  if (others.length) {
    const sec = el("section", "advanced-bots");
    sec.append(el("h3", "", "More bots"), el("p", "dim", "Opening this fold adds these bots to every seat's list."));
    const dl = el("dl", "bot-list");
    for (const b of others) dl.append(el("dt", "", botName(b)), el("dd", "", sentence(botHelp(b))));
    sec.append(dl);
    adv.append(sec);
  }
  adv.addEventListener("toggle", renderSeats);

  const renderScenario = (): void => {
    const sc = scenario();
    scenSummary.textContent = sc?.summary ?? "";
    renderPlayers();
    renderSeats();
  };
  scenSel.addEventListener("change", renderScenario);
  playersSel.addEventListener("change", renderSeats);

  // the turn timer (docs/server.md: the room's clock); people only, bots are never timed
  const timerRow = el("div", "opt-row timer-row");
  const timerLabel = el("label", "", "Turn timer");
  const timerSel = el("select");
  timerSel.id = "setup-timer";
  timerLabel.htmlFor = timerSel.id;
  for (const [secs, text] of TIMER_CHOICES) {
    const o = el("option", "", text);
    o.value = String(secs);
    timerSel.append(o);
  }
  const timeoutSel = el("select");
  timeoutSel.id = "setup-timeout";
  timeoutSel.setAttribute("aria-label", "When a player's time runs out");
  for (const [v, text] of [["bot", "When time runs out, a bot plays the move"], ["forfeit", "When time runs out, the late player loses"]] as const) {
    const o = el("option", "", text);
    o.value = v;
    timeoutSel.append(o);
  }
  const timerDoc = el("p", "opt-doc dim", "Each person has this long for each decision; the header counts it down. Bots are never timed.");
  const renderTimer = (): void => {
    timeoutSel.hidden = timerSel.value === "0";
  };
  timerSel.addEventListener("change", renderTimer);
  const timerInputs = el("div", "timer-inputs");
  timerInputs.append(timerSel, timeoutSel);
  timerRow.append(timerLabel, timerInputs, timerDoc);

  // who may come in: private (the code or the invite link only: docs/server.md) unless opened to anyone
  const publicRow = el("div", "opt-row public-row");
  const publicBox = el("input");
  publicBox.type = "checkbox";
  publicBox.id = "setup-public";
  publicBox.setAttribute("aria-describedby", "setup-public-doc");
  const publicLabel = el("label", "", "Open to anyone");
  publicLabel.htmlFor = publicBox.id;
  const publicDoc = el("p", "opt-doc dim", "List this game in the lobby: anyone may take a free seat or watch. Unticked, it is private: only the people you give its code or invite link can join or watch.");
  publicDoc.id = "setup-public-doc";
  publicRow.append(publicLabel, publicBox, publicDoc);

  // the game's own options in plain sight; rulings under the Advanced fold
  const plain = g.options.filter((o) => o.name !== "scenario" && o.name !== "players" && !o.ruling);
  const rulings = g.options.filter((o) => o.name !== "scenario" && o.name !== "players" && o.ruling);
  const optsBox = el("section", "game-options");
  if (plain.length) {
    optsBox.append(el("h3", "", "Game options"));
    for (const o of plain) optsBox.append(optionInput(o));
  }
  if (rulings.length) {
    const sec = el("section", "advanced-rulings");
    sec.append(
      el("h3", "", "Rulings"),
      el("p", "dim", "Where the rules text is silent or contradicts itself, the game had to choose: each choice is a ruling. The defaults follow the text; change one only to play a house rule."),
    );
    for (const o of rulings) sec.append(optionInput(o));
    adv.append(sec);
  }

  const actions = el("div", "dialog-actions");
  const create = el("button", "btn primary", "Create the game");
  create.type = "submit";
  actions.append(create, button("Cancel", close, "btn"));
  const err = el("p", "setup-error");
  err.setAttribute("role", "alert");

  const scenRow = el("div", "opt-row");
  scenRow.append(scenLabel, scenSel, scenSummary);
  box.append(h, x, scenRow, playersRow, seatsBox, publicRow, timerRow, optsBox);
  if (others.length || rulings.length) box.append(adv);
  box.append(err, actions);
  back.append(frame);
  document.body.append(back);
  open = back;
  renderScenario();
  renderTimer();
  scenSel.focus();

  back.addEventListener("keydown", (e) => {
    if (trapFocus(frame, e)) return;
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    }
  });
  back.addEventListener("click", (e) => {
    if (e.target === back) close();
  });
  box.addEventListener("submit", (e) => {
    e.preventDefault();
    const options: Record<string, unknown> = { scenario: scenSel.value };
    if (playersOpt) {
      const n = seatCount();
      if (n !== playersOpt.default) options.players = n;
    }
    for (const input of box.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-option]")) {
      const o = g.options.find((x) => x.name === input.dataset.option);
      const v = readOption(input);
      if (o && v !== o.default) options[o.name] = v;
    }
    const picks = [...seatRows.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    const you = picks.indexOf("you");
    if (picks.filter((p) => p === "you").length > 1) {
      err.textContent = "Only one seat can be you; pick “a person” for the others.";
      return;
    }
    if (you < 0 && picks.includes("human")) {
      err.textContent = "Pick “You” for one seat (the people you invite take the others), or make every seat a bot to watch.";
      return;
    }
    const seats = picks.map((p) => (p === "you" ? "human" : p));
    const secs = Number(timerSel.value);
    const clock = secs > 0 ? { turn_seconds: secs, on_timeout: timeoutSel.value as "bot" | "forfeit" } : null;
    create.disabled = true;
    err.textContent = "";
    const listed = publicBox.checked ? { public: true } : {};
    void startRoom({ game: g.id, options, seats, ...(you >= 0 ? { seat: you } : {}), ...(clock ? { clock } : {}), ...listed }, (t) => {
      create.disabled = false;
      err.textContent = t;
      say(t, "error");
    });
  });
}
