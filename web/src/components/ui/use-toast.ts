import { createStore, useStore } from '#web/lib/store.ts';

/**
 * A tiny toast store: `toast()` can be called from anywhere (event handlers, hooks, non-React code)
 * and the one <Toaster/> renders what is queued. Radix Toast does the accessible part (live region,
 * swipe and Escape to dismiss, F8 to reach the viewport).
 */
export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast closes by itself. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
  /** The control the person was using when the toast was raised: the toast must not cover it. */
  trigger: Element | null;
}

let lastPressed: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'pointerdown',
    (event) => {
      lastPressed = event.target instanceof Element ? event.target : null;
    },
    true,
  );
}

/** The focused control, or (where a click does not focus, as in Safari) the one last pressed. */
function currentControl(): Element | null {
  if (typeof document === 'undefined') return null;
  const active = document.activeElement;
  if (active && active !== document.body && active !== document.documentElement) return active;
  return lastPressed?.isConnected ? lastPressed : null;
}

const MAX_TOASTS = 3;
const REMOVE_DELAY_MS = 300;

const toasts = createStore<ToastItem[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toasts.set((items) => items.map((item) => (item.id === id ? { ...item, open: false } : item)));
  // Keep the closed toast mounted for its exit animation, then drop it.
  setTimeout(() => toasts.set((items) => items.filter((item) => item.id !== id)), REMOVE_DELAY_MS);
}

export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  const id = nextId++;
  // A repeated identical message replaces the earlier one instead of stacking copies.
  toasts.set((items) => {
    const rest = items.filter(
      (item) => item.title !== options.title || item.description !== options.description,
    );
    return [{ ...options, id, open: true, trigger: currentControl() }, ...rest].slice(0, MAX_TOASTS);
  });
  return { id, dismiss: () => dismissToast(id) };
}

export function useToast(): { toasts: ToastItem[]; toast: typeof toast; dismiss: typeof dismissToast } {
  return { toasts: useStore(toasts), toast, dismiss: dismissToast };
}
