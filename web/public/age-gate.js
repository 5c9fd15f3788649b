// The 21+ gate (decision 161). Its markup is in index.html, at the start of <body>; the server sends
// both only to a browser without the age cookie (server/http/spa.ts). This script opens the gate as a
// modal dialog as soon as the page's #root has been parsed, before the first paint: the page behind is
// inert from its first style, and no code of the app is needed to answer. A separate file because the
// Content-Security-Policy allows no inline scripts.
//
// The app tells it when the address changes (`age-gate:check` on document): the legal pages are never
// covered, and leaving one for another page brings the gate back until it is answered.
// The cookie's name and the legal paths are web/src/features/age-gate/age-verification.ts's; tests
// (web/src/app/age-gate-markup.test.ts, server/http/age-gate.test.ts) keep them equal.
(() => {
  const COOKIE = 'hg_age_verified';
  const MAX_AGE_SECONDS = 60 * 60 * 24 * 365;
  const UNGATED = [
    '/privacy-policy',
    '/terms-of-service',
    '/cookie-policy',
    '/personal-data',
    '/how-reports-are-reviewed',
  ];

  let answered = document.cookie.split(';').some((part) => part.trim() === `${COOKIE}=1`);
  if (answered) return;

  /** @type {HTMLDialogElement | null} */
  let gate = null;
  /** Whether the gate should be open: not answered, and not on a legal page. */
  let wanted = false;

  // The page's #root is the one after the dialog (something else may have put an element with that id
  // earlier in the document).
  const page = () => document.querySelector('#age-gate ~ #root');

  /** The page behind is hidden from assistive technology (also from tools that do not know `inert`) and does not scroll. */
  const holdPage = (held) => {
    if (held) {
      page()?.setAttribute('aria-hidden', 'true');
      // An inline style on the root element restyles the root alone; a class there restyles the page.
      document.documentElement.style.overflow = 'hidden';
    } else {
      page()?.removeAttribute('aria-hidden');
      document.documentElement.style.removeProperty('overflow');
    }
  };

  /** Shows one of the gate's two views ("adult", "under-age"), names the dialog by it and focuses its answer. */
  const showView = (name) => {
    if (!gate) return;
    for (const view of gate.querySelectorAll('[data-view]')) view.hidden = view.dataset.view !== name;
    gate.setAttribute('aria-labelledby', `age-gate-${name}-title`);
    gate.setAttribute('aria-describedby', `age-gate-${name}-text`);
    gate.querySelector(`[data-view="${name}"] [data-first]`)?.focus();
  };

  const sync = () => {
    if (!gate) return;
    wanted = !answered && !UNGATED.includes(window.location.pathname);
    if (wanted && !gate.open) {
      gate.showModal();
      holdPage(true);
      showView('adult');
    } else if (!wanted && gate.open) {
      gate.close();
      holdPage(false);
    }
  };

  const confirm = () => {
    const secure = window.location.protocol === 'https:' ? '; Secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: a plain first-party cookie; Cookie Store API is not in every browser.
    document.cookie = `${COOKIE}=1; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax${secure}`;
    answered = true;
    sync();
  };

  /** Tab and Shift+Tab go round the dialog's controls instead of leaving it for the browser's. */
  const keepFocusInside = (event) => {
    if (event.key !== 'Tab' || !gate) return;
    const controls = [...gate.querySelectorAll('a[href], button')].filter(
      (control) => !control.closest('[hidden]'),
    );
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const setUp = (dialog) => {
    gate = dialog;
    // Only an answer closes it: not Escape, and not a browser closing it anyway (Chrome closes a dialog
    // whose Escape was refused twice without other input).
    gate.addEventListener('cancel', (event) => event.preventDefault());
    gate.addEventListener('close', () => {
      if (wanted && gate && !gate.open) gate.showModal();
    });
    gate.addEventListener('keydown', keepFocusInside);
    gate.addEventListener('click', (event) => {
      const action = event.target instanceof Element ? event.target.closest('[data-action]') : null;
      if (!action) return;
      const name = action.getAttribute('data-action');
      if (name === 'confirm') confirm();
      else if (name === 'under-age') showView('under-age');
      else if (name === 'back') showView('adult');
    });
    document.addEventListener('age-gate:check', sync);
    sync();
  };

  // This script runs in <head>: the gate opens once the parser has reached #root, so the whole dialog
  // is there, and nothing of the page has been painted yet (a mutation observer's callback runs before
  // the browser renders).
  const found = () => {
    const dialog = document.getElementById('age-gate');
    // Only once the parser is past the dialog, which comes before #root in the HTML.
    if (!dialog || !page()) return false;
    setUp(dialog);
    return true;
  };
  if (found()) return;
  const observer = new MutationObserver(() => {
    if (found()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
  // A page without the gate's markup (the server sent none) leaves nothing to watch for.
  document.addEventListener('DOMContentLoaded', () => observer.disconnect(), { once: true });
})();
