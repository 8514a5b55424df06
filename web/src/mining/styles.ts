/**
 * The mining screen's stylesheet, injected once into the document by the screen (class names start with `mn-`, so it
 * never touches the shell's or another game's rules).
 *
 * Owns CSS only.
 */
const STYLE_ID = "mining-screen-css";

const CSS = `
.mn-root, .mn-root * { box-sizing: border-box; }
.mn-root { position: absolute; inset: 0; display: grid; grid-template-columns: minmax(0, 1fr) minmax(320px, 420px);
  gap: 10px; padding: 10px; overflow: hidden; color: #dfe6f3; font-family: system-ui, "Segoe UI", Roboto, sans-serif; }
.mn-boardwrap { position: relative; min-height: 0; display: flex; flex-direction: column; gap: 6px; }
.mn-board { flex: 1; min-height: 0; width: 100%; display: block; border-radius: 10px; touch-action: none; cursor: pointer;
  outline: none; }
.mn-board:focus-visible { box-shadow: 0 0 0 2px #fff; }
.mn-readout { min-height: 1.6em; font-size: 13.5px; line-height: 1.4; padding: 4px 10px; border-radius: 6px;
  background: rgba(8,12,24,0.82); border: 1px solid rgba(140,160,200,0.22); color: #dfe6f3; }
.mn-side { min-height: 0; overflow-y: auto; display: flex; flex-direction: column; gap: 10px; padding-right: 2px; }
.mn-panel { background: rgba(8,12,24,0.86); border: 1px solid rgba(140,160,200,0.22); border-radius: 8px; padding: 10px 12px; }
.mn-panel h2 { margin: 0 0 6px; font-size: 15px; font-weight: 700; letter-spacing: 0.01em; }
.mn-panel h3 { margin: 0 0 6px; font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.08em; color: #9aa6bd; }
.mn-prompt.mn-act { border-color: #ffe066; box-shadow: 0 0 0 1px rgba(255,224,102,0.35); }
.mn-prompt p { margin: 0 0 8px; font-size: 13.5px; line-height: 1.4; color: #c4cde0; }
.mn-actions { display: flex; flex-wrap: wrap; gap: 6px; }
.mn-btn { font: inherit; font-size: 13.5px; padding: 6px 11px; border-radius: 6px; border: 1px solid rgba(160,180,220,0.35);
  background: #1f2a44; color: #eef3ff; cursor: pointer; min-height: 32px; }
.mn-btn .mn-chip { margin-right: 6px; }
.mn-steal { border-top: 0; margin-top: 0; padding-top: 0; margin-bottom: 8px; }
.mn-btn:hover { background: #2b3a5e; }
.mn-btn:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
.mn-btn.mn-primary { background: #3b4f86; border-color: #8ea8ff; }
.mn-btn.mn-warn { background: #4a2430; border-color: #ff8d8d; }
.mn-btn kbd { font: 700 11px ui-monospace, monospace; color: #ffe066; margin-right: 5px; }
.mn-btn:disabled { opacity: 0.5; cursor: default; }
.mn-choose { margin-top: 8px; padding-top: 8px; border-top: 1px dashed rgba(160,180,220,0.3); }
.mn-choose p { margin: 0 0 6px; }
.mn-contracts { display: grid; grid-template-columns: repeat(auto-fill, minmax(88px, 1fr)); gap: 6px; }
.mn-card { position: relative; border-radius: 7px; padding: 6px 7px 7px; background: #e9e1c8; color: #231c0c; border: 2px solid #b9a878;
  font: inherit; text-align: left; min-height: 58px; }
.mn-card .mn-cid { font: 800 12px system-ui, sans-serif; letter-spacing: 0.04em; }
.mn-card .mn-need { display: flex; flex-wrap: wrap; gap: 3px; margin-top: 4px; }
.mn-card.mn-taken { opacity: 0.45; background: #8e8a7c; }
.mn-card.mn-current { border-color: #ffe066; box-shadow: 0 0 0 2px #ffe066; }
button.mn-card { cursor: pointer; }
button.mn-card:hover { background: #fff6d8; }
button.mn-card:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
.mn-card .mn-owner { font-size: 11px; font-weight: 700; margin-top: 3px; }
.mn-card .mn-cardkey { position: absolute; top: 5px; right: 6px; font: 700 10.5px ui-monospace, monospace; color: #6b5a22; }
.mn-card:has(.mn-plan) { padding-bottom: 17px; }
.mn-card .mn-plan { position: absolute; bottom: 3px; right: 5px; font-size: 10.5px; font-weight: 800; color: #0d5d2c; }
.mn-chip { display: inline-flex; align-items: center; justify-content: center; min-width: 22px; height: 20px; padding: 0 4px;
  border-radius: 4px; font: 800 11.5px system-ui, sans-serif; border: 1px solid rgba(0,0,0,0.35); }
.mn-chip.mn-spent { background: #2a2f3a !important; color: #7d8596 !important; text-decoration: line-through; border-style: dashed; border-color: #7d8596; }
.mn-chip.mn-bidding { box-shadow: 0 0 0 2px #ffe066; }
.mn-chip.mn-empty { background: transparent !important; color: #9aa6bd !important; border: 1px dashed #9aa6bd; }
.mn-sheet { border-left: 5px solid var(--seat); }
.mn-sheet.mn-turn { box-shadow: inset 0 0 0 1px var(--seat); }
.mn-sheet header { display: flex; align-items: baseline; gap: 8px; margin-bottom: 4px; }
.mn-sheet .mn-name { font-weight: 750; font-size: 14.5px; }
.mn-sheet .mn-score { margin-left: auto; font: 800 18px system-ui, sans-serif; font-variant-numeric: tabular-nums; }
.mn-sheet .mn-tag { font-size: 11px; font-weight: 700; padding: 1px 6px; border-radius: 9px; background: var(--seat); color: #0b0f1a; }
.mn-row { display: flex; flex-wrap: wrap; align-items: center; gap: 4px; font-size: 12.5px; color: #c4cde0; margin: 3px 0; }
.mn-row > .mn-lbl { min-width: 64px; color: #9aa6bd; font-size: 11.5px; text-transform: uppercase; letter-spacing: 0.05em; }
.mn-incident { display: block; width: 100%; margin: 4px 0; padding: 6px 8px; border-radius: 6px; background: #1b2236; border: 1px solid #3a4766;
  font-size: 12.5px; line-height: 1.35; color: #dfe6f3; }
.mn-incident b { display: block; margin-bottom: 2px; }
.mn-incident .mn-btn { display: block; margin-top: 6px; }
.mn-slots { display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 6px; }
.mn-slot { border-radius: 6px; padding: 4px 6px; background: #1b2236; border: 1px solid #3a4766; font-size: 12px; text-align: center; min-width: 70px; }
.mn-slot.mn-filled { border-color: #5dff9a; }
.mn-standings { width: 100%; border-collapse: collapse; font-size: 13px; }
.mn-standings th, .mn-standings td { padding: 3px 5px; text-align: right; }
.mn-standings th:nth-child(2), .mn-standings td:nth-child(2) { text-align: left; }
.mn-standings th { color: #9aa6bd; font-weight: 600; font-size: 11.5px; }
.mn-standings tr.mn-win td { color: #ffe066; font-weight: 800; }
.mn-swatch { display: inline-block; width: 10px; height: 10px; border-radius: 50%; background: var(--seat); margin-right: 5px; }
.mn-legend { display: flex; flex-wrap: wrap; gap: 4px 10px; font-size: 11.5px; color: #9aa6bd; }
.mn-help table { border-collapse: collapse; font-size: 13px; margin: 4px 0 10px; }
.mn-help td, .mn-help th { border: 1px solid rgba(160,180,220,0.25); padding: 3px 7px; text-align: left; }
.mn-help p, .mn-help li { font-size: 13.5px; line-height: 1.45; }
@media (max-width: 820px) {
  .mn-root { display: flex; flex-direction: column; overflow-y: auto; padding: 6px; }
  .mn-boardwrap { flex: none; }
  .mn-board { flex: none; aspect-ratio: 1 / 1; height: auto; }
  .mn-side { overflow: visible; }
  .mn-readout { font-size: 12.5px; min-height: 0; }
  .mn-contracts { grid-template-columns: repeat(auto-fill, minmax(76px, 1fr)); }
}
@media (prefers-reduced-motion: no-preference) {
  .mn-btn { transition: background 120ms; }
}
`;

/** Add the stylesheet to the document once. */
export function injectStyle(doc: Document = document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const st = doc.createElement("style");
  st.id = STYLE_ID;
  st.textContent = CSS;
  doc.head.appendChild(st);
}
