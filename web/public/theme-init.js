// Applies the stored or system colour theme before the first paint. A separate file because the
// Content-Security-Policy allows no inline scripts; web/src/lib/theme.ts holds the same rule.
(() => {
  let dark = false;
  try {
    const stored = localStorage.getItem('hg-theme');
    dark =
      stored === 'dark' || (stored !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  } catch (_) {
    // Storage can be unavailable (privacy modes); the light theme applies.
  }
  document.documentElement.classList.add(dark ? 'dark' : 'light');
})();
