import { createContext, useContext } from 'react';

export interface ToastAction { label: string; run: () => void }
export interface ToastInput { message: string; kind?: 'info' | 'error'; action?: ToastAction; timeoutMs?: number }
export interface ToastApi {
  show: (toast: ToastInput) => void;
  showError: (message: string) => void;
}

export const ToastContext = createContext<ToastApi | null>(null);

export function useToasts(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToasts outside ToastProvider');
  return ctx;
}
