import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getApi } from './api';
import { App } from './app/App';
import { AppProvider } from './app/AppContext';
import { ToastProvider } from './components/Toast/ToastProvider';
import './styles/base.css';
import './styles/app.css';

// The real back end only (Electron's preload, or browser mode's HTTP host): there is no fake API
// with rules of its own to drift from the services.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      <AppProvider api={getApi()}>
        <App />
      </AppProvider>
    </ToastProvider>
  </StrictMode>,
);
