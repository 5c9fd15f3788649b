import { createStore, useStore } from './store.ts';

/**
 * Light/dark theme. An explicit choice is kept in localStorage; without one the system preference
 * applies and is followed live. public/theme-init.js applies the same rule before the first paint
 * (keep the storage key and class names in step with it).
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'hg-theme';

const media = typeof window === 'undefined' ? null : window.matchMedia('(prefers-color-scheme: dark)');

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

// The prerendered HTML shows the light theme's toggle; theme-init.js has already coloured the page, and
// the toggle's icon follows right after hydration (decision 157).
const themeStore = createStore<Theme>(resolveTheme, { serverValue: 'light' });

/** Applies the current theme and starts following system and cross-tab changes. Call once at start. */
export function initTheme(): void {
  apply(themeStore.get());
  themeStore.subscribe(() => apply(themeStore.get()));
  media?.addEventListener('change', () => {
    if (!storedTheme()) themeStore.set(resolveTheme());
  });
  window.addEventListener('storage', (event) => {
    if (event.key === THEME_STORAGE_KEY) themeStore.set(resolveTheme());
  });
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
  themeStore.set(theme);
}

export function useTheme(): { theme: Theme; setTheme: (theme: Theme) => void } {
  return { theme: useStore(themeStore), setTheme };
}
