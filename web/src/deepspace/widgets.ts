/**
 * Deep Space Combat's buttons: a button with a key hint, and the key hint itself (elements from the shell's `el`).
 *
 * Owns these two widgets only.
 */

import { el } from "../shell/dom";

export function button(label: string, onClick: () => void, opts: { kbd?: string; cls?: string; disabled?: boolean; title?: string; testid?: string } = {}): HTMLButtonElement {
  const b = el("button", { class: `ds-btn ${opts.cls ?? ""}`.trim(), type: "button", title: opts.title, "data-testid": opts.testid });
  b.append(label);
  if (opts.kbd) {
    b.append(" ");
    b.append(el("span", { class: "ds-kbd", "aria-hidden": "true", text: opts.kbd }));
  }
  if (opts.disabled) b.disabled = true;
  b.addEventListener("click", (e) => {
    e.preventDefault();
    onClick();
  });
  return b;
}

export function kbd(text: string): HTMLElement {
  return el("span", { class: "ds-kbd", text });
}
