import './styles.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadConfig } from './lib/config.ts';
import { initTheme } from './lib/theme.ts';

async function start(): Promise<void> {
  const config = await loadConfig();
  // Radix dialogs lock scrolling with an injected <style>; the CSP admits it only with this nonce.
  if (config.styleNonce) setNonce(config.styleNonce);
  initTheme();
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
