/**
 * The game set-up dialog of the lobby: scenario (with its summary and player count), every rules option with
 * its doc (the default marked, rulings marked as rulings; bool / choice / number inputs), and each seat: you,
 * a person invited by code or link, or a bot of a level from the server's list. "Create" posts the room.
 *
 * Owns the set-up form only; the options are validated by the server (its sentence is shown on a refusal).
 */
import { botName, type GameInfo, type OptionInfo } from "../shell/api";
import { button, el, trapFocus } from "../shell/dom";
import { defaultBot, defaultSeats, startRoom } from "./lobby";

let open: HTMLElement | null = null;

function optionInput(o: OptionInfo): HTMLElement {
  const id = `opt-${o.name}`;
  let input: HTMLInputElement | HTMLSelectElement;
  if (o.type === "bool") {
    input = el("input");
    input.type = "checkbox";
    input.checked = o.default === true;
  } else if (o.choices && o.choices.length) {
    input = el("select");
    for (const c of o.choices) {
      const opt = el("option", "", `${String(c)}${c === o.default ? " (default)" : ""}`);
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
  const lab = el("label", "", o.name.replace(/_/g, " "));
  lab.htmlFor = id;
  if (o.ruling) lab.append(el("span", "tag", "ruling"));
  const doc = el("p", "opt-doc dim", `${o.doc} Default: ${String(o.default)}.`);
  doc.id = `${id}-doc`;
  row.append(lab, input, doc);
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
  const scenOpt = g.options.find((o) => o.name === "scenario");
  const scenSel = el("select");
  scenSel.id = "setup-scenario";
  for (const s of g.scenarios) {
    const o = el("option", "", `${s.title}${s.id === scenOpt?.default ? " (default)" : ""}`);
    o.value = s.id;
    o.selected = s.id === scenOpt?.default;
    scenSel.append(o);
  }
  const scenLabel = el("label", "", "Scenario");
  scenLabel.htmlFor = scenSel.id;
  const scenSummary = el("p", "scen-summary");
  scenSummary.setAttribute("aria-live", "polite");

  // seats
  const seatsBox = el("fieldset", "seats-box");
  seatsBox.append(el("legend", "", "Seats"));
  const seatRows = el("div", "seat-rows");
  seatsBox.append(seatRows);
  const playersOpt = g.options.find((o) => o.name === "players");

  const seatCount = (): number => {
    const sc = g.scenarios.find((s) => s.id === scenSel.value);
    const p = box.querySelector<HTMLInputElement>("[data-option=players]");
    if (p && Number.isInteger(Number(p.value)) && Number(p.value) > 0) return Number(p.value);
    return sc?.players[0] ?? defaultSeats(g);
  };
  const renderSeats = (): void => {
    const old = [...seatRows.querySelectorAll<HTMLSelectElement>("select")].map((s) => s.value);
    const n = seatCount();
    seatRows.replaceChildren();
    for (let i = 0; i < n; i++) {
      const sel = el("select");
      sel.id = `seat-${i}`;
      sel.dataset.seat = String(i);
      const add = (value: string, text: string): void => {
        const o = el("option", "", text);
        o.value = value;
        sel.append(o);
      };
      add("you", "You");
      add("human", "A person (invite by code or link)");
      for (const b of g.bots) add(b, botName(b));
      sel.value = old[i] ?? (i === 0 ? "you" : defaultBot(g));
      const lab = el("label", "", `Seat ${i + 1}`);
      lab.htmlFor = sel.id;
      const row = el("div", "seat-row");
      row.append(lab, sel);
      seatRows.append(row);
    }
  };
  const renderScenario = (): void => {
    const sc = g.scenarios.find((s) => s.id === scenSel.value);
    scenSummary.textContent = sc ? `${sc.summary} (${sc.players.join(" or ")} players)` : "";
    renderSeats();
  };
  scenSel.addEventListener("change", renderScenario);

  // options (all but the scenario, which has its own field)
  const opts = el("details", "options-box");
  const sum = el("summary", "", "Rules options");
  opts.append(sum, el("p", "dim", "Rulings fill a silence or settle a contradiction of the rules text; each is marked."));
  for (const o of g.options) if (o.name !== "scenario") opts.append(optionInput(o));
  opts.addEventListener("change", (e) => {
    if ((e.target as HTMLElement).dataset.option === "players") renderSeats();
  });

  const actions = el("div", "dialog-actions");
  const create = el("button", "btn primary", "Create the game");
  create.type = "submit";
  actions.append(create, button("Cancel", close, "btn"));
  const err = el("p", "setup-error");
  err.setAttribute("role", "alert");

  const scenRow = el("div", "opt-row");
  scenRow.append(scenLabel, scenSel, scenSummary);
  box.append(h, x, scenRow, seatsBox, opts, err, actions);
  back.append(frame);
  document.body.append(back);
  open = back;
  renderScenario();
  void playersOpt;
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
    const seats = picks.map((p) => (p === "you" ? "human" : p));
    create.disabled = true;
    err.textContent = "";
    void startRoom({ game: g.id, options, seats, ...(you >= 0 ? { seat: you } : {}) }, (t) => {
      create.disabled = false;
      err.textContent = t;
      say(t, "error");
    });
  });
}
