/**
 * The Deep Space Combat screen's stylesheet, injected once into the document (class names `ds-*`, so it never
 * touches the shell's or another game's rules). Record-sheet look: dark panels, tabular numbers, one accent
 * per side.
 *
 * Owns CSS only.
 */

const CSS = `
.ds-root, .ds-root * { box-sizing: border-box; }
.ds-root { position: relative; width: 100%; height: 100%; min-height: 240px; overflow: hidden; background: #03050b;
  color: #dfe6f3; font-family: system-ui, "Segoe UI", Roboto, sans-serif; font-size: 14px; }
.ds-root canvas.ds-plane { position: absolute; inset: 0; width: 100%; height: 100%; display: block; cursor: grab;
  touch-action: none; }
.ds-root canvas.ds-plane.dragging { cursor: grabbing; }
.ds-panel { position: absolute; background: rgba(8, 12, 24, 0.9); border: 1px solid rgba(140, 160, 200, 0.25);
  border-radius: 8px; box-shadow: 0 4px 18px rgba(0, 0, 0, 0.4); padding: 10px 12px; }
.ds-panel h2 { margin: 0 0 6px; font-size: 15px; font-weight: 650; letter-spacing: 0.01em; }
.ds-panel h3 { margin: 8px 0 4px; font-size: 13px; font-weight: 650; color: #b8c4dc; }
.ds-panel p { margin: 4px 0; line-height: 1.4; }
.ds-dim { color: #9aa6bd; }
.ds-num { font-variant-numeric: tabular-nums; }
/* the orders stop above the ship card (--ds-card-space: its height, kept by the screen), scrolling if need be:
   the card never covers an order's button */
.ds-orders { left: 10px; top: 10px; width: min(360px, calc(100% - 20px));
  max-height: calc(100% - 20px - var(--ds-card-space, 0px)); overflow: auto; }
.ds-fleets { right: 10px; top: 10px; width: min(280px, calc(100% - 20px)); }
.ds-fleets .ds-state { white-space: nowrap; }
.ds-card { left: 10px; bottom: 10px; width: min(300px, calc(100% - 20px)); font-size: 13px; }
.ds-tools { right: 10px; bottom: 10px; display: flex; gap: 4px; padding: 5px; }
.ds-btn { min-height: 32px; padding: 4px 10px; border-radius: 6px; border: 1px solid rgba(140, 160, 200, 0.35);
  background: rgba(30, 40, 64, 0.95); color: #dfe6f3; font: inherit; font-size: 13.5px; cursor: pointer; }
.ds-btn:hover:not(:disabled) { background: rgba(50, 64, 96, 0.95); }
.ds-btn:disabled { opacity: 0.45; cursor: not-allowed; }
.ds-btn.ds-primary { background: #1d6fa8; border-color: #58b6f0; color: #fff; font-weight: 600; }
.ds-btn.ds-primary:hover:not(:disabled) { background: #2682c2; }
.ds-btn.ds-danger { background: #7a1f24; border-color: #ff7a7a; color: #fff; }
.ds-btn:focus-visible, .ds-root input:focus-visible, .ds-root select:focus-visible, .ds-target:focus-visible {
  outline: 2px solid #fff; outline-offset: 2px; }
.ds-row { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; margin-top: 6px; }
/* a row that stays in sight at the foot of a scrolling panel (Hold fire under a long target list) */
.ds-sticky { position: sticky; bottom: -10px; padding: 6px 0 10px; margin-bottom: -10px; background: rgb(8, 12, 24); }
.ds-kbd { display: inline-block; min-width: 1.5em; padding: 0 4px; border: 1px solid rgba(160, 175, 210, 0.5);
  border-radius: 4px; font-size: 11.5px; text-align: center; color: #cdd6ea; background: rgba(255,255,255,0.05); }
.ds-cost { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 6px 0; font-variant-numeric: tabular-nums; }
.ds-cost dt { color: #9aa6bd; }
.ds-cost dd { margin: 0; }
.ds-bar { height: 8px; border-radius: 4px; background: rgba(255,255,255,0.1); overflow: hidden; margin: 4px 0; }
.ds-bar > span { display: block; height: 100%; background: #4fd8ff; }
.ds-bar.ds-over > span { background: #ff6a5a; }
.ds-targets { list-style: none; margin: 6px 0 0; padding: 0; display: grid; gap: 4px; }
.ds-target { display: grid; grid-template-columns: 12px 1fr auto; gap: 2px 8px; align-items: center; width: 100%;
  text-align: left; padding: 6px 8px; border-radius: 6px; border: 1px solid rgba(140, 160, 200, 0.3);
  background: rgba(24, 32, 52, 0.95); color: inherit; font: inherit; font-size: 13px; cursor: pointer; }
.ds-target:hover, .ds-target.ds-focus { border-color: #ff7a6a; background: rgba(60, 28, 34, 0.95); }
.ds-target .ds-sw { width: 12px; height: 12px; border-radius: 50%; }
.ds-target .ds-odds { font-weight: 700; font-size: 15px; font-variant-numeric: tabular-nums; }
.ds-target .ds-sub { grid-column: 2 / 4; color: #9aa6bd; font-size: 12px; }
.ds-fleets ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 4px; }
.ds-fleets li { display: grid; grid-template-columns: 12px 1fr auto; gap: 6px; align-items: center; font-size: 13px; }
.ds-fleets .ds-sw { width: 12px; height: 12px; border-radius: 50%; }
.ds-state { font-size: 12px; color: #9aa6bd; }
.ds-state.ds-busy { color: #f2d94e; }
.ds-sheet { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: 13px; }
.ds-sheet th, .ds-sheet td { padding: 3px 6px; border-bottom: 1px solid rgba(140, 160, 200, 0.18); text-align: left; }
.ds-sheet th { color: #9aa6bd; font-weight: 600; }
.ds-sheet td.ds-r, .ds-sheet th.ds-r { text-align: right; }
.ds-modal { left: 50%; bottom: 60px; transform: translateX(-50%); width: min(560px, calc(100% - 20px));
  max-height: calc(100% - 80px); overflow: auto; z-index: 5; }
.ds-modal.ds-wide { top: 50%; bottom: auto; transform: translate(-50%, -50%); width: min(760px, calc(100% - 20px));
  max-height: calc(100% - 20px); }
.ds-side-dialog { left: 10px; top: 10px; width: min(470px, calc(100% - 20px)); max-height: calc(100% - 20px); overflow: auto; z-index: 4; }
.ds-field { display: grid; grid-template-columns: 84px 96px 1fr; gap: 6px; align-items: center; margin: 4px 0; }
.ds-field input, .ds-root select { width: 100%; padding: 4px 6px; border-radius: 5px; border: 1px solid rgba(140,160,200,0.4);
  background: #0d1424; color: #dfe6f3; font: inherit; font-variant-numeric: tabular-nums; }
.ds-field .ds-dim { font-size: 12px; }
.ds-weapon { display: grid; grid-template-columns: 84px 96px 96px 32px; gap: 6px; align-items: center; margin: 4px 0; }
.ds-weapon input { width: 100%; padding: 4px 6px; border-radius: 5px; border: 1px solid rgba(140,160,200,0.4);
  background: #0d1424; color: #dfe6f3; font: inherit; }
.ds-cols { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.ds-fleetcard { border: 1px solid rgba(140,160,200,0.25); border-radius: 6px; padding: 6px 8px; margin: 6px 0; }
.ds-problem { color: #ff9a8a; min-height: 1.3em; }
.ds-alloc-row td { vertical-align: middle; }
.ds-alloc-row input[type=range] { width: 100%; }
.ds-help table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 4px 0 10px; }
.ds-help th, .ds-help td { padding: 2px 8px; border-bottom: 1px solid rgba(140,160,200,0.2); text-align: right; }
.ds-help th:first-child, .ds-help td:first-child { text-align: left; }
.ds-help ul { margin: 4px 0 8px; padding-left: 18px; }
.ds-help li { margin: 2px 0; }
.ds-banner { left: 50%; top: 10px; transform: translateX(-50%); padding: 6px 14px; font-weight: 650; font-size: 14px;
  pointer-events: none; white-space: nowrap; }
.ds-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
@media (max-width: 700px) {
  .ds-orders { top: auto; bottom: 6px; left: 6px; width: calc(100% - 12px); max-height: 52%; padding: 8px 10px; font-size: 13px; }
  .ds-orders h2 { display: none; }
  .ds-explain, .ds-shipstats { display: none; }
  .ds-fleets { top: 50px; right: 6px; width: auto; max-width: calc(100% - 12px); padding: 4px 8px; font-size: 12px; }
  .ds-fleets li { gap: 4px; }
  /* the shell keeps a row for the log on phones even when it is hidden: give it to the board */
  .match.log-hidden .match-body:has(.ds-root) { grid-template-rows: minmax(0, 1fr); }
  .ds-fleets h2, .ds-fleets p { display: none; }
  .ds-card { display: none; }
  .ds-tools { top: 6px; left: 6px; right: auto; bottom: auto; padding: 3px; }
  .ds-tools .ds-btn { min-height: 30px; padding: 2px 8px; }
  .ds-tools .ds-kbd { display: none; }
  .ds-modal { bottom: 6px; max-height: calc(100% - 12px); }
  .ds-side-dialog { top: auto; bottom: 6px; left: 6px; width: calc(100% - 12px); max-height: 50%; font-size: 13px;
    padding: 8px 10px; }
  .ds-side-dialog h2 { font-size: 14px; }
  .ds-side-dialog .ds-sheet td, .ds-side-dialog .ds-sheet th { padding: 2px 4px; }
  /* watching (a spectator, a replay): the orders panel only lists what happens, in less room */
  .ds-root[data-watching] .ds-orders { max-height: 34%; }
  /* a dialog up: the fleets list gives its room to the ships (the dialog says what it is about) */
  .ds-root[data-dialog] .ds-fleets { display: none; }
  .ds-banner { display: none; }
  .ds-cols { grid-template-columns: 1fr; }
  .ds-field { grid-template-columns: 80px 86px 1fr; }
  .ds-weapon { grid-template-columns: 80px 86px 86px 32px; }
}
@media (prefers-reduced-motion: reduce) { .ds-root * { transition: none !important; animation: none !important; } }
`;

let injected = false;

export function injectStyle(doc: Document = document): void {
  if (injected || doc.getElementById("ds-style")) return;
  const el = doc.createElement("style");
  el.id = "ds-style";
  el.textContent = CSS;
  doc.head.appendChild(el);
  injected = true;
}
