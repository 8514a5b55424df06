/**
 * Small DOM helpers shared by the shell, the lobby and the replay page (no framework).
 *
 * Owns element construction only.
 */

/** A new element with an optional class and text (text, never HTML: server strings stay inert). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function button(text: string, onClick: () => void, cls = "btn", title?: string): HTMLButtonElement {
  const b = el("button", cls, text);
  b.type = "button";
  if (title) b.title = title;
  b.addEventListener("click", onClick);
  return b;
}

/** Is a key event aimed at a text field (chat, a name, a filter), where keys belong to the text? */
export function inTextField(e: Event): boolean {
  const t = e.target;
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return true;
  return t instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset", "range"].includes(t.type);
}

/** Keep Tab / Shift+Tab inside an open dialog (call from its keydown handler); true when it moved the focus. */
export function trapFocus(box: HTMLElement, e: KeyboardEvent): boolean {
  if (e.key !== "Tab") return false;
  const items = [...box.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), input, select, textarea, summary, [tabindex]:not([tabindex='-1'])")]
    .filter((x) => x.offsetParent !== null || x === document.activeElement);
  if (!items.length) return false;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const inside = box.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    last.focus();
    e.preventDefault();
    return true;
  }
  if (!e.shiftKey && (document.activeElement === last || !inside)) {
    first.focus();
    e.preventDefault();
    return true;
  }
  return false;
}
