/**
 * Tiny DOM helpers for the Deep Space Combat screen: element builders that only ever set text (never HTML from
 * data), buttons with a key hint.
 *
 * Owns element construction only.
 */

type Attrs = Record<string, string | number | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...kids: (Node | string | null | undefined | false)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") e.className = String(v);
    else if (k === "text") e.textContent = String(v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of kids) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

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

export function clear(e: HTMLElement): void {
  while (e.firstChild) e.removeChild(e.firstChild);
}
