import { useSyncExternalStore } from 'react';

/**
 * Light/dark theme. An explicit choice is kept in localStorage; without one the system preference
 * applies and is followed live. public/theme-init.js applies the same rule before the first paint
 * (keep the storage key and class names in step with it).
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'hg-theme';

const media = typeof window === 'undefined' ? null : window.matchMedia('(prefers-color-scheme: dark)');
const listeners = new Set<() => void>();

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

function resolveTheme(): Theme {
  return storedTheme() ?? (media?.matches ? 'dark' : 'light');
}

function apply(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.classList.toggle('light', theme === 'light');
  document
    .querySelector('meta[name="theme-color"]')
    ?.setAttribute('content', theme === 'dark' ? '#0c1a12' : '#f7fbf8');
}

function notify(): void {
  apply(resolveTheme());
  for (const listener of listeners) listener();
}

/** Applies the current theme and starts following system and cross-tab changes. Call once at start. */
export function initTheme(): void {
  apply(resolveTheme());
  media?.addEventListener('change', () => {
    if (!storedTheme()) notify();
  });
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) notify();
  });
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
  apply(theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTheme(): { theme: Theme; setTheme: (theme: Theme) => void } {
  const theme = useSyncExternalStore(subscribe, () =>
    document.documentElement.classList.contains('dark') ? 'dark' : 'light',
  );
  return { theme, setTheme };
}
