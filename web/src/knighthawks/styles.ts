/**
 * The Knight Hawks screen's stylesheet, added once to the page (the shell's style.css stays the shell's).
 * Cyan and orange are the two sides. Presentation only.
 */
const CSS = `
.kh-root { position: absolute; inset: 0; display: grid; grid-template-columns: minmax(0, 1fr) minmax(290px, 330px);
  color: #dfe6f3; font: 14px/1.4 system-ui, "Segoe UI", Roboto, sans-serif; background: #03050b; }
.kh-mapwrap { position: relative; min-width: 0; min-height: 0; }
.kh-map { position: absolute; inset: 0; width: 100%; height: 100%; display: block; cursor: crosshair; touch-action: none; }
.kh-map.dragging { cursor: grabbing; }
.kh-map:focus-visible { outline: 2px solid #fff; outline-offset: -2px; }
.kh-readout { position: absolute; left: 10px; bottom: 10px; max-width: calc(100% - 70px); padding: 5px 10px;
  background: rgba(8,12,24,0.85); border: 1px solid rgba(140,160,200,0.22); border-radius: 6px; font-size: 12.5px;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; pointer-events: none; }
.kh-readout:empty { display: none; }
.kh-fit { position: absolute; right: 10px; bottom: 10px; width: 36px; height: 36px; border-radius: 6px;
  border: 1px solid rgba(140,160,200,0.3); background: rgba(30,40,64,0.9); color: #dfe6f3; font-size: 18px; cursor: pointer; }
.kh-side { overflow-y: auto; background: #080c18; border-left: 1px solid rgba(140,160,200,0.2); padding: 10px 12px 24px;
  display: flex; flex-direction: column; gap: 10px; }
.kh-phase { display: flex; flex-direction: column; gap: 2px; padding: 5px 10px; border-radius: 8px;
  background: rgba(62,224,255,0.08); border: 1px solid rgba(62,224,255,0.25); }
.kh-phase strong { font-size: 15px; }
.kh-score { font-size: 13px; color: #dfe6f3; font-variant-numeric: tabular-nums; }
.kh-controls h3 { margin: 0 0 6px; font-size: 14px; font-weight: 650; }
.kh-controls { display: flex; flex-direction: column; gap: 8px; }
.kh-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.kh-label { font-size: 11.5px; text-transform: uppercase; letter-spacing: 0.06em; color: #9aa6bd; margin-right: 4px; }
.kh-btn { position: relative; min-height: 34px; padding: 5px 10px; border-radius: 6px; border: 1px solid rgba(140,160,200,0.35);
  background: #16203a; color: #dfe6f3; font: inherit; cursor: pointer; text-align: left; }
.kh-btn:hover:not(:disabled) { background: #22305a; }
.kh-btn:focus-visible, .kh-ship-btn:focus-visible, .kh-wname:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
.kh-btn.primary { border-color: #3ee0ff; background: #0f3444; }
.kh-btn.danger { border-color: #ff4a4a; background: #3a1014; }
.kh-btn.on { border-color: #ffe066; box-shadow: 0 0 0 1px #ffe066 inset; }
.kh-btn.kh-masking { border-color: #ff9a6a; }
.kh-btn.small { min-height: 30px; font-size: 13px; }
.kh-btn.wide { width: 100%; text-align: center; font-weight: 650; }
.kh-btn kbd, .kh-row > kbd, .kh-check kbd { margin-left: 8px; padding: 0 5px; border-radius: 4px; border: 1px solid rgba(160,180,220,0.4);
  font: 11px ui-monospace, monospace; color: #9aa6bd; }
.kh-speeds .kh-btn { min-width: 42px; text-align: center; }
.kh-risk { display: block; font-size: 10.5px; color: #ff8a8a; }
.kh-detail { display: block; font-size: 11px; color: #9aa6bd; }
.kh-hint { margin: 0; font-size: 12.5px; color: #9aa6bd; }
.kh-warn { margin: 0; font-size: 12.5px; color: #ffb4a0; }
.kh-wait { margin: 0; color: #9aa6bd; }
.kh-result { margin: 0; font-size: 16px; font-weight: 650; }
.kh-result.won { color: #3ee0ff; }
.kh-plotted { margin: 0; padding: 0 0 0 2px; list-style: none; font-size: 12.5px; color: #a8f0c8; }
.kh-weapons { display: flex; flex-direction: column; gap: 6px; }
.kh-weapon { padding: 6px 8px; border-radius: 6px; border: 1px solid rgba(140,160,200,0.18); display: flex; flex-direction: column; gap: 4px; }
.kh-weapon.sel { border-color: #ffe066; }
.kh-wname { background: none; border: 0; color: #dfe6f3; font: inherit; font-weight: 600; text-align: left; padding: 0; cursor: pointer; }
.kh-repair select { margin-left: 6px; background: #16203a; color: #dfe6f3; border: 1px solid rgba(140,160,200,0.35); border-radius: 4px; padding: 3px; font: inherit; }
.kh-check { font-size: 13px; }
.kh-dcr-left { margin: 4px 0 0; font-size: 12.5px; font-weight: 650; color: #a8f0c8; }
.kh-reportbox summary { cursor: pointer; font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: #9aa6bd; }
.kh-report { margin: 4px 0 0; padding: 0; list-style: none; max-height: 170px; overflow-y: auto; font-size: 12.5px;
  font-variant-numeric: tabular-nums; }
.kh-report li { padding: 2px 0; border-bottom: 1px solid rgba(140,160,200,0.08); }
.kh-report .kh-hit { color: #ffe066; } .kh-report .kh-miss { color: #9aa6bd; } .kh-report .kh-damage { color: #ffb08a; }
.kh-report .kh-bad { color: #ff6a6a; font-weight: 600; }
.kh-report .kh-turn { color: #dfe6f3; font-weight: 650; border-bottom-color: rgba(140,160,200,0.3); padding-top: 6px; }
.kh-fleet { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.kh-fleet-side { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
.kh-ship-btn { display: grid; grid-template-columns: auto 1fr; grid-template-rows: auto 4px; column-gap: 6px; row-gap: 3px; align-items: center;
  padding: 4px 6px; border-radius: 6px; border: 1px solid rgba(140,160,200,0.2); background: #0e1528; color: #dfe6f3;
  font: inherit; font-size: 12.5px; cursor: pointer; text-align: left; min-width: 0; }
.kh-ship-btn.sel { border-color: #fff; }
.kh-ship-btn.gone { opacity: 0.45; text-decoration: line-through; }
.kh-ship-btn .kh-nm { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.kh-ship-btn .kh-bar { grid-column: 1 / 3; height: 4px; background: rgba(255,255,255,0.1); border-radius: 2px; overflow: hidden; }
.kh-ship-btn .kh-bar i { display: block; height: 100%; background: currentColor; }
.own .kh-abbr, .own .kh-bar i { color: #3ee0ff; } .enemy .kh-abbr, .enemy .kh-bar i { color: #ff9a3c; }
.kh-fleet-side.own .kh-ship-btn .kh-bar i { background: #3ee0ff; } .kh-fleet-side.enemy .kh-ship-btn .kh-bar i { background: #ff9a3c; }
.kh-abbr { font-weight: 800; font-size: 12px; letter-spacing: 0.04em; }
.kh-sheet { border-radius: 8px; padding: 10px; background: #0c1222; border: 1px solid rgba(140,160,200,0.25); display: flex; flex-direction: column; gap: 6px; }
.kh-sheet.own { border-top: 3px solid #3ee0ff; } .kh-sheet.enemy { border-top: 3px solid #ff9a3c; }
.kh-sheet header { display: grid; grid-template-columns: auto 1fr; column-gap: 8px; align-items: baseline; }
.kh-sheet h3 { margin: 0; font-size: 15px; }
.kh-class { grid-column: 1 / 3; font-size: 12px; color: #9aa6bd; }
.kh-boxes { display: flex; flex-wrap: wrap; gap: 2px; margin-top: 3px; }
.kh-boxes i { width: 9px; height: 9px; border: 1px solid rgba(220,230,250,0.55); border-radius: 1px; }
.kh-boxes i.half { box-shadow: -2px 0 0 #ffe066; }
.kh-boxes i.x { background: #b23a3a; border-color: #ff6a6a; }
.kh-stats { display: grid; grid-template-columns: repeat(4, 1fr); gap: 4px; margin: 0; }
.kh-stats div { padding: 3px 6px; border-radius: 4px; background: rgba(255,255,255,0.04); }
.kh-stats div.bad dd { color: #ff8a8a; }
.kh-stats dt { font-size: 10.5px; color: #9aa6bd; letter-spacing: 0.05em; }
.kh-stats dd { margin: 0; font-weight: 650; font-variant-numeric: tabular-nums; }
.kh-systems { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; font-size: 12.5px; }
.kh-sys { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.kh-sys-head { font-size: 11px; text-transform: uppercase; letter-spacing: 0.06em; color: #9aa6bd; margin-top: 4px; }
.kh-sys.kh-lost .kh-sys-name { text-decoration: line-through; color: #ff8a8a; }
.kh-ammo { display: inline-flex; gap: 2px; }
.kh-ammo i { width: 7px; height: 7px; border-radius: 50%; border: 1px solid #c8d2e8; }
.kh-ammo i.on { background: #c8d2e8; }
.kh-tag { font-size: 11px; padding: 0 5px; border-radius: 4px; }
.kh-tag.bad { background: #3a1014; color: #ff8a8a; } .kh-tag.ok { background: #0f3a2a; color: #a8f0c8; }
.kh-damaged { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: 1fr 1fr; font-size: 12.5px; color: #9aa6bd; }
.kh-damaged li.on { color: #ff8a8a; font-weight: 600; }
.kh-help table.kh-table { border-collapse: collapse; margin: 4px 0 12px; font-size: 12.5px; font-variant-numeric: tabular-nums; }
.kh-help caption { caption-side: bottom; text-align: left; font-size: 11.5px; color: #9aa6bd; padding-top: 3px; }
.kh-help th, .kh-help td { border: 1px solid rgba(140,160,200,0.25); padding: 2px 6px; text-align: left; }
.kh-help thead th { background: rgba(62,224,255,0.08); }
.kh-keys { display: grid; grid-template-columns: max-content 1fr; gap: 3px 12px; font-size: 13px; }
.kh-keys dt { font-family: ui-monospace, monospace; color: #ffe066; }
.kh-keys dd { margin: 0; }
@media (max-width: 700px) {
  .kh-root { display: block; overflow-y: auto; }
  .kh-mapwrap { height: min(58vh, 360px); }
  .kh-side { overflow: visible; border-left: 0; border-top: 1px solid rgba(140,160,200,0.2); }
  .kh-fleet { grid-template-columns: 1fr 1fr; }
}
@media (prefers-reduced-motion: reduce) { .kh-root * { transition: none !important; animation: none !important; } }
`;

export function injectStyle(): void {
  if (document.getElementById("kh-style")) return;
  const s = document.createElement("style");
  s.id = "kh-style";
  s.textContent = CSS;
  document.head.append(s);
}
