import { createContext, useContext } from 'react';

export interface ToastAction { label: string; run: () => void }
export interface ToastInput { message: string; kind?: 'info' | 'error'; action?: ToastAction; timeoutMs?: number }
export interface ToastApi {
  /** returns the toast's id, for dismiss */
  show: (toast: ToastInput) => number;
  showError: (message: string) => void;
  /** take a toast away before its time (e.g. its Undo was done another way) */
  dismiss: (id: number) => void;
}

export const ToastContext = createContext<ToastApi | null>(null);

export function useToasts(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToasts outside ToastProvider');
  return ctx;
}
