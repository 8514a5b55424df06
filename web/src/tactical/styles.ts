/**
 * The tactical screen's stylesheet, injected once (the shell's style.css stays the shell's): the board beside a
 * side panel at desktop widths, the panel under the board on a phone. Presentation only.
 */
const CSS = `
.tac-root { container-type: size; display: flex; gap: 0; width: 100%; height: 100%; min-height: 0; background: #03050b; color: #d7dff0;
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
.tac-board { position: relative; flex: 1 1 auto; min-width: 0; min-height: 0; }
.tac-canvas { position: absolute; inset: 0; width: 100%; height: 100%; display: block; touch-action: none; cursor: crosshair; }
.tac-canvas.dragging { cursor: grabbing; }
.tac-canvas:focus-visible { outline: 2px solid #3ee0ff; outline-offset: -2px; }
.tac-minimap { position: absolute; right: 10px; bottom: 10px; border: 1px solid rgba(150,175,220,.35); border-radius: 6px;
  background: rgba(3,5,11,.85); cursor: pointer; }
.tac-readout { position: absolute; left: 10px; bottom: 10px; max-width: calc(100% - 260px); padding: 4px 8px; border-radius: 6px;
  background: rgba(3,5,11,.78); font-size: 12px; color: #aab5cc; pointer-events: none; }
.tac-readout:empty { display: none; }
.tac-objective { position: absolute; left: 10px; top: 10px; padding: 3px 8px; border-radius: 6px; background: rgba(3,5,11,.78);
  color: #5fe39a; font-weight: 600; font-size: 13px; pointer-events: none; }
.tac-objective:empty { display: none; }
.tac-panel { flex: 0 0 300px; display: flex; flex-direction: column; min-height: 0; background: #0a0f1d;
  border-left: 1px solid rgba(150,175,220,.18); }
.tac-panel-body { flex: 1 1 auto; min-height: 0; overflow-y: auto; display: flex; flex-direction: column; gap: 10px; padding: 12px; }
.tac-actions { flex: 0 0 auto; display: flex; flex-wrap: wrap; gap: 6px; justify-content: flex-end; align-items: center; padding: 8px 12px;
  border-top: 1px solid rgba(150,175,220,.18); background: #0c1324; }
.tac-actions[hidden] { display: none; }
.tac-actions .tac-muted { margin: 0; flex: 1 1 100%; }
.tac-actions .primary { flex: 1 1 auto; }
.tac-rolls:empty { display: none; }
.tac-rolllist .tac-hit { color: #ff9a9a; }
.tac-rolllist .tac-miss { color: #aab5cc; }
.tac-note { color: #ffb347; font-weight: 600; }
.tac-btn.primary.warn { background: #7a2430; border-color: #ff7070; }
.tac-modal-back { position: fixed; inset: 0; z-index: 50; display: flex; align-items: center; justify-content: center;
  background: rgba(2, 4, 10, 0.72); padding: 16px; }
.tac-modal { max-width: 420px; width: 100%; padding: 18px 20px; border-radius: 10px; border: 1px solid #a04848; background: #0c1324; color: #d7dff0;
  font: 14px/1.45 system-ui, sans-serif; box-shadow: 0 10px 40px rgba(0,0,0,.6); }
.tac-modal h2 { margin: 0 0 8px; font-size: 18px; color: #fff; }
.tac-modal .tac-row { justify-content: flex-end; }
.tac-panel h2 { margin: 0; font-size: 17px; color: #fff; }
.tac-panel h2, .tac-panel h3 { margin: 0 0 4px; font-size: 14px; color: #fff; }
.tac-panel p { margin: 2px 0; }
.tac-who { font-weight: 600; color: #aab5cc; }
.tac-who.tac-yours { color: #3ee0ff; }
.tac-obj { color: #5fe39a; }
.tac-muted { color: #8794ad; font-size: 13px; }
.tac-warn { color: #ff8080; font-weight: 600; }
.tac-good { color: #5fe39a; font-weight: 600; }
.tac-result { font-size: 18px; font-weight: 700; color: #fff; }
.tac-checkpoints { display: flex; flex-wrap: wrap; gap: 4px; margin-top: 4px; }
.tac-chip { padding: 1px 7px; border-radius: 10px; border: 1px solid rgba(150,175,220,.35); font-size: 12px; color: #aab5cc; }
.tac-chip.done { border-color: #5fe39a; color: #5fe39a; }
.tac-shiplist { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.tac-ship { width: 100%; text-align: left; display: flex; flex-direction: column; gap: 1px; padding: 6px 9px; border-radius: 7px;
  border: 1px solid rgba(62,224,255,.25); background: rgba(62,224,255,.05); color: #d7dff0; font: inherit; cursor: pointer; }
.tac-others { margin-top: 6px; }
.tac-ship-other { background: rgba(255,255,255,.03); padding: 4px 9px; }
.tac-ship.selected { border-color: #3ee0ff; background: rgba(62,224,255,.16); }
.tac-ship-name { font-weight: 600; color: #3ee0ff; }
.tac-ship-stats { font-size: 12px; color: #aab5cc; }
.tac-equation { font: 600 13.5px/1.3 ui-monospace, "SFMono-Regular", Menlo, monospace; color: #ffe066; }
.tac-facts { margin: 4px 0 0; padding-left: 18px; }
.tac-facts li { margin: 1px 0; }
.tac-plan { color: #78ffbe; }
.tac-row { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.tac-list { display: flex; flex-direction: column; gap: 4px; }
.tac-transfer { display: flex; flex-direction: column; gap: 4px; padding: 6px 8px; border: 1px solid rgba(140, 160, 200, 0.22); border-radius: 8px; }
.tac-transfer-what { font-size: 13px; }
.tac-transfer-amounts { display: flex; flex-wrap: wrap; gap: 4px; }
.tac-transfer-amounts .tac-amount { min-width: 36px; padding: 4px 8px; }
.tac-btn { padding: 7px 11px; min-height: 34px; border-radius: 7px; border: 1px solid rgba(150,175,220,.4); background: #131a2c; color: #d7dff0;
  font: 600 13px system-ui, sans-serif; cursor: pointer; }
.tac-btn:hover:not(:disabled) { background: #1b2440; }
.tac-btn:focus-visible { outline: 2px solid #3ee0ff; outline-offset: 1px; }
.tac-btn:disabled { opacity: .38; cursor: not-allowed; }
.tac-btn.primary { background: #0f5f73; border-color: #3ee0ff; color: #fff; }
.tac-btn.danger { border-color: #a04848; color: #ff9a9a; background: transparent; align-self: flex-start; }
.tac-btn.on { border-color: #ffe066; color: #ffe066; }
.tac-burnpad { display: grid; grid-template-columns: repeat(3, 1fr); gap: 4px; max-width: 240px; }
.tac-burnpad .tac-btn { font-size: 15px; }
.tac-padship { display: flex; align-items: center; justify-content: center; color: #3ee0ff; font-size: 18px; }
.tac-dir.on { border-color: #ffe066; color: #ffe066; }
.tac-budget { font-weight: 700; color: #ffe066; }
.tac-help h3 { margin: 14px 0 6px; }
.tac-help-table { border-collapse: collapse; margin: 6px 0; font-size: 13px; }
.tac-help-table caption { text-align: left; color: #8794ad; font-size: 12px; padding-bottom: 3px; }
.tac-help-table th, .tac-help-table td { border: 1px solid rgba(150,175,220,.25); padding: 2px 8px; text-align: center; }
.tac-help-table thead th { background: rgba(150,175,220,.12); }
.tac-help-keys { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 4px 0; }
.tac-help-keys dt { font-weight: 700; color: #ffe066; }
.tac-help-keys dd { margin: 0; }
.tac-ship-table td:last-child { text-align: left; }
.tac-legend { display: flex; flex-direction: column; gap: 4px; }
.tac-legend-row { display: flex; gap: 10px; align-items: flex-start; }
.tac-legend-row p { margin: 2px 0; }
.tac-swatch { width: 36px; height: 24px; flex: none; border-radius: 4px; border: 1px solid rgba(150,175,220,.25); }
@container (max-height: 560px) { .tac-minimap { display: none; } }
@media (max-width: 760px) {
  .tac-root { flex-direction: column; }
  .tac-board { flex: 0 0 52%; }
  .tac-panel { flex: 1 1 auto; border-left: 0; border-top: 1px solid rgba(150,175,220,.18); }
  .tac-panel-body { padding: 8px 10px; gap: 8px; }
  .tac-actions { padding: 6px 10px; }
  .tac-readout { display: none; }
  .tac-btn { min-height: 40px; }
  .tac-burnpad { max-width: none; }
  .tac-ships { order: 5; }
}
@media (prefers-reduced-motion: reduce) { .tac-root * { transition: none !important; animation: none !important; } }
`;

let done = false;

export function injectStyle(): void {
  if (done || typeof document === "undefined") return;
  done = true;
  const s = document.createElement("style");
  s.id = "tactical-style";
  s.textContent = CSS;
  document.head.append(s);
}
