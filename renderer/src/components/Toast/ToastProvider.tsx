import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ToastContext } from './useToasts';
import type { ToastInput } from './useToasts';
import './Toast.css';

interface Toast extends ToastInput { id: number }

/** Toasts at the bottom of the window: info toasts (role=status, e.g. with Undo) and error alerts. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((t) => t.id !== id)), []);
  const show = useCallback((t: ToastInput) => {
    const id = nextId.current++;
    setToasts((ts) => [...ts.slice(-3), { ...t, id }]);
    return id;
  }, []);
  const showError = useCallback((message: string) => show({ message, kind: 'error', timeoutMs: 12000 }), [show]);
  const api = useMemo(() => ({ show, showError, dismiss }), [show, showError, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((t) => <ToastView key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />)}
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const [hover, setHover] = useState(false);
  useEffect(() => {
    if (hover) return;
    const timer = setTimeout(onDismiss, toast.timeoutMs ?? 10000);
    return () => clearTimeout(timer);
  }, [hover, onDismiss, toast.timeoutMs]);
  const isError = toast.kind === 'error';
  return (
    <div
      className={`toast ${isError ? 'toast-error' : ''}`}
      role={isError ? 'alert' : 'status'}
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={() => setHover(true)}
      onBlur={() => setHover(false)}
    >
      <span className="toast-message">{toast.message}</span>
      {toast.action && (
        <button type="button" className="btn btn-small" onClick={() => { toast.action!.run(); onDismiss(); }}>
          {toast.action.label}
        </button>
      )}
      <button type="button" className="btn btn-icon" aria-label="Dismiss" onClick={onDismiss}>×</button>
    </div>
  );
}
