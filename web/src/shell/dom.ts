/**
 * The client's DOM toolkit, shared by the shell, the lobby, the replay page and every game's screen (no framework).
 *
 * Owns element construction (`el`, the one element builder: every module builds elements with it), the shell's plain
 * button, and the keyboard helpers every page needs (`inTextField`, `trapFocus`). Text only, never HTML: server and
 * engine strings stay inert.
 */

/** Attributes of a new element: `class` and `text` are the class name and the text; `undefined` / `false` are left out, `true` is a bare attribute. */
export type Props = Record<string, string | number | boolean | undefined>;

/** What `el` appends: an element or a string (a text node); `null`, `undefined`, `false` and `""` add nothing. */
export type Child = Node | string | null | undefined | false;

/**
 * A new element: `el(tag, cls?, ...children)`. The second argument is the class name (a string) or, when the element
 * needs more, its attributes (`{ class, text, role, "aria-label", ... }`); the rest are its children in order, a string
 * being text. `el("p", "note", "Hello")` is `<p class="note">Hello</p>`.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string | Props, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (typeof cls === "string") {
    if (cls) e.className = cls;
  } else if (cls) {
    for (const [k, v] of Object.entries(cls)) {
      if (v === undefined || v === false) continue;
      if (k === "class") e.className = String(v);
      else if (k === "text") e.textContent = String(v);
      else e.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === "") continue;
    e.append(c);
  }
  return e;
}

/** Remove every child of an element. */
export function clear(e: Element): void {
  e.replaceChildren();
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
