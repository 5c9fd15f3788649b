import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'highgrade:scroll-positions';
/** Positions kept for this many history entries (the newest); older ones are forgotten. */
const KEEP = 50;

function loadPositions(): Map<string, number> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Map(Array.isArray(saved) ? (saved as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

function savePositions(positions: Map<string, number>): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-KEEP)));
  } catch {
    // Storage full or blocked: positions are then kept for this page load only.
  }
}

/** How long a restore waits for a page still loading to become tall enough. */
const RESTORE_WAIT_MS = 2000;

/**
 * Scrolls to `top`, retrying each frame while the page is still too short for it (after a reload the
 * page's code and data arrive a moment later), until it fits, the reader scrolls, or time is up.
 */
function restore(top: number): () => void {
  const until = performance.now() + RESTORE_WAIT_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    window.removeEventListener('wheel', stop);
    window.removeEventListener('touchmove', stop);
    window.removeEventListener('keydown', stop);
  };
  const attempt = () => {
    window.scrollTo(0, top);
    if (Math.abs(window.scrollY - top) < 1 || performance.now() > until) stop();
    else frame = requestAnimationFrame(attempt);
  };
  window.addEventListener('wheel', stop, { passive: true });
  window.addEventListener('touchmove', stop, { passive: true });
  window.addEventListener('keydown', stop);
  attempt();
  return stop;
}

/**
 * What the browser does for full page loads, for client-side navigations (decision 150):
 * a new page starts at the top (or at its #fragment), Back and Forward return to where the reader
 * was on that history entry, also after a reload (positions live in sessionStorage, keyed by the
 * history entry's key).
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number>>(null);
  positions.current ??= loadPositions();
  const currentKey = useRef(location.key);

  useEffect(() => {
    const previous = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    // Recorded as each scroll event arrives (the browser sends at most one a frame): a reader who
    // scrolls and then goes Back at once leaves the position they scrolled to, not the one before.
    const record = () => {
      positions.current?.set(currentKey.current, window.scrollY);
    };
    const persist = () => {
      if (positions.current) {
        positions.current.set(currentKey.current, window.scrollY);
        savePositions(positions.current);
      }
    };
    window.addEventListener('scroll', record, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', record);
      window.removeEventListener('pagehide', persist);
      window.history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    const map = positions.current;
    if (currentKey.current !== location.key && map) {
      // Moving away: delete then set, so the entry counts as the newest when old ones are dropped.
      const leaving = map.get(currentKey.current);
      map.delete(currentKey.current);
      if (leaving !== undefined) map.set(currentKey.current, leaving);
      savePositions(map);
    }
    currentKey.current = location.key;
    const saved = map?.get(location.key);
    if (navigationType === 'POP') {
      if (saved !== undefined) return restore(saved);
      return;
    }
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);
}
