/**
 * Camera controls shared by every board: drag to pan (mouse, pen, one finger), wheel and two-finger pinch to
 * zoom, WASD / arrow keys to pan, + / - to zoom. Keys typed into a text field (chat, a name) are never taken.
 *
 * Owns input wiring only: it moves a Camera and calls `changed`; it knows no board and draws nothing.
 */
import type { Camera } from "./camera";

export interface PanZoomOptions {
  /** Called after every camera change caused by input. */
  changed: () => void;
  /** Extra keys for the page (H, ?...): return true when handled. */
  onKey?: (e: KeyboardEvent) => boolean;
  /** A click (a press and release without a drag) at a screen point. */
  onClick?: (sx: number, sy: number) => void;
  /** The pointer moved over the canvas (null: it left). */
  onHover?: (sx: number, sy: number) => void;
  onLeave?: () => void;
}

const PAN_KEYS: Record<string, [number, number]> = {
  w: [0, -1], arrowup: [0, -1], s: [0, 1], arrowdown: [0, 1],
  a: [-1, 0], arrowleft: [-1, 0], d: [1, 0], arrowright: [1, 0],
};

/** Is the key event aimed at a text field, where letters and digits belong to the text? */
export function typingInField(e: Event): boolean {
  const t = e.target as HTMLElement | null;
  if (!t || !(t instanceof HTMLElement)) return false;
  if (t.isContentEditable) return true;
  const tag = t.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") {
    const type = (t as HTMLInputElement).type;
    return !["button", "checkbox", "radio", "range", "submit", "reset"].includes(type);
  }
  return false;
}

export function attachPanZoom(canvas: HTMLCanvasElement, camera: Camera, opts: PanZoomOptions): () => void {
  const pointers = new Map<number, { x: number; y: number }>();
  let dragged = false;
  let pinchDist = 0;
  const local = (e: { clientX: number; clientY: number }): [number, number] => {
    const r = canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  const down = (e: PointerEvent): void => {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    canvas.setPointerCapture(e.pointerId);
    const [x, y] = local(e);
    pointers.set(e.pointerId, { x, y });
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinchDist = Math.hypot(a!.x - b!.x, a!.y - b!.y);
    }
  };
  const move = (e: PointerEvent): void => {
    const [x, y] = local(e);
    const p = pointers.get(e.pointerId);
    if (!p) {
      opts.onHover?.(x, y);
      return;
    }
    if (pointers.size === 1) {
      const dx = x - p.x;
      const dy = y - p.y;
      if (dragged || Math.hypot(dx, dy) > 3) {
        dragged = true;
        camera.panBy(-dx, -dy, false);
        p.x = x;
        p.y = y;
        canvas.classList.add("dragging");
        opts.changed();
      }
    } else if (pointers.size === 2) {
      p.x = x;
      p.y = y;
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a!.x - b!.x, a!.y - b!.y);
      if (pinchDist > 0 && d > 0) {
        camera.zoomAt(d / pinchDist, (a!.x + b!.x) / 2, (a!.y + b!.y) / 2, false);
        opts.changed();
      }
      pinchDist = d;
      dragged = true;
    }
  };
  const up = (e: PointerEvent): void => {
    const p = pointers.get(e.pointerId);
    pointers.delete(e.pointerId);
    canvas.classList.remove("dragging");
    if (p && !dragged && pointers.size === 0) {
      const [x, y] = local(e);
      opts.onClick?.(x, y);
    }
    if (pointers.size < 2) pinchDist = 0;
  };
  const wheel = (e: WheelEvent): void => {
    e.preventDefault();
    const [x, y] = local(e);
    const scale = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
    camera.zoomAt(Math.exp(-e.deltaY * scale * 0.0015), x, y, false);
    opts.changed();
  };
  const key = (e: KeyboardEvent): void => {
    if (typingInField(e) || e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    const pan = PAN_KEYS[k];
    const stepPx = Math.min(camera.width, camera.height) * 0.12;
    if (pan) {
      camera.panBy(pan[0] * stepPx, pan[1] * stepPx);
    } else if (k === "+" || k === "=") {
      camera.zoomAt(1.25);
    } else if (k === "-" || k === "_") {
      camera.zoomAt(1 / 1.25);
    } else if (!opts.onKey?.(e)) {
      return;
    }
    e.preventDefault();
    opts.changed();
  };
  const leave = (): void => opts.onLeave?.();

  canvas.addEventListener("pointerdown", down);
  canvas.addEventListener("pointermove", move);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  canvas.addEventListener("pointerleave", leave);
  canvas.addEventListener("wheel", wheel, { passive: false });
  window.addEventListener("keydown", key);
  return () => {
    canvas.removeEventListener("pointerdown", down);
    canvas.removeEventListener("pointermove", move);
    canvas.removeEventListener("pointerup", up);
    canvas.removeEventListener("pointercancel", up);
    canvas.removeEventListener("pointerleave", leave);
    canvas.removeEventListener("wheel", wheel);
    window.removeEventListener("keydown", key);
  };
}
