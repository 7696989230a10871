// A tiny toast queue outside React, so API helpers and event handlers can raise toasts too.
export type ToastKind = 'success' | 'error' | 'info' | 'warning';
export type Toast = { id: number; kind: ToastKind; message: string; duration: number };

// spec/01 §9: errors close after 2 s, everything else after 3 s.
export const ERROR_TOAST_MS = 2000;
export const TOAST_MS = 3000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): Toast[] {
  return toasts;
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

function push(kind: ToastKind, message: string, duration = kind === 'error' ? ERROR_TOAST_MS : TOAST_MS): number {
  const id = nextId++;
  // Keep the stack short: a burst of failures should not bury the screen.
  toasts = [...toasts.slice(-3), { id, kind, message, duration }];
  emit();
  return id;
}

export const toast = {
  success: (message: string) => push('success', message),
  error: (message: string) => push('error', message),
  info: (message: string) => push('info', message),
  warning: (message: string) => push('warning', message),
};
