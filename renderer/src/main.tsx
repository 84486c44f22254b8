import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { TunebookApi } from '../../shared/api';
import { getApi } from './api';
import { App } from './app/App';
import { AppProvider } from './app/AppContext';
import { ToastProvider } from './components/Toast/ToastProvider';
import './styles/base.css';
import './styles/app.css';

async function pickApi(): Promise<TunebookApi> {
  // `vite` dev server only: ?memory runs the UI against an in-memory fake (stripped from builds).
  if (import.meta.env.DEV && new URLSearchParams(location.search).has('memory')) {
    const { createMemoryApi } = await import('./api/memoryApi');
    return createMemoryApi();
  }
  return getApi();
}

void pickApi().then((api) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ToastProvider>
        <AppProvider api={api}>
          <App />
        </AppProvider>
      </ToastProvider>
    </StrictMode>,
  );
});
