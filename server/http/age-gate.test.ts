import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { AGE_COOKIE_NAME, answeredAgeGate, withAgeGate, withoutAgeGate } from './age-gate.ts';

const indexHtml = () => readFile(new URL('../../web/index.html', import.meta.url), 'utf8');
const gateScript = () => readFile(new URL('../../web/public/age-gate.js', import.meta.url), 'utf8');

describe('answeredAgeGate', () => {
  it('is true only for the cookie with the value the gate sets', () => {
    expect(answeredAgeGate(undefined)).toBe(false);
    expect(answeredAgeGate('')).toBe(false);
    expect(answeredAgeGate('hg_age_verified=1')).toBe(true);
    expect(answeredAgeGate('a=b; hg_age_verified=1; c=d')).toBe(true);
    expect(answeredAgeGate('hg_age_verified=0')).toBe(false);
    expect(answeredAgeGate('hg_age_verified=1x')).toBe(false);
    expect(answeredAgeGate('xhg_age_verified=1')).toBe(false);
  });
});

describe('the gate in the HTML', () => {
  it("a first visit gets the gate's script and dialog; a browser that answered gets neither", async () => {
    const html = await indexHtml();
    const first = withAgeGate(html);
    expect(first).toContain('<script src="/age-gate.js"></script>');
    expect(first).toMatch(/<dialog id="age-gate" role="alertdialog"/);
    expect(first).not.toContain('age-gate-->');
    const answered = withoutAgeGate(html);
    expect(answered).not.toContain('age-gate');
    expect(answered).toContain('<script src="/theme-init.js"></script>');
    expect(answered).toContain('<div id="root"></div>');
    // The dialog comes before the page, so it is open before the page is parsed (decision 161).
    expect(first.indexOf('<dialog id="age-gate"')).toBeLessThan(first.indexOf('<div id="root">'));
  });

  it('the script sets the cookie the server reads (the app agrees too: web/src/app/age-gate-markup.test.ts)', async () => {
    expect(await gateScript()).toContain(`const COOKIE = '${AGE_COOKIE_NAME}';`);
  });
});
