import { describe, expect, it } from 'vitest';
import { buttonVariants } from '#web/components/ui/button.tsx';
import { AGE_COOKIE_NAME, UNGATED_PATHS } from '#web/features/age-gate/age-verification.ts';
// biome-ignore lint/style/noRestrictedImports: the gate's markup and script are outside src (decision 161)
import indexHtml from '../../index.html?raw';
// biome-ignore lint/style/noRestrictedImports: as above
import gateScript from '../../public/age-gate.js?raw';

/** The 21+ gate is plain HTML and script outside the app (decision 161); these keep it in step with the app. */
describe('the age gate in index.html', () => {
  it("has the app's buttons (the classes of its Button variants)", () => {
    const classOf = (text: string) => {
      const match = new RegExp(`class="([^"]*)"[^>]*>${text}<`).exec(indexHtml);
      if (!match?.[1]) throw new Error(`no control "${text}" in index.html`);
      return match[1].replaceAll('&amp;', '&');
    };
    expect(classOf('I am 21 or older')).toBe(buttonVariants());
    expect(classOf('I am under 21')).toBe(buttonVariants({ variant: 'outline' }));
    expect(classOf('Go back')).toBe(buttonVariants({ variant: 'ghost' }));
    expect(classOf('Leave __HG_SITE_NAME__')).toBe(buttonVariants());
  });

  it("its script uses the app's cookie name and leaves the app's legal pages open", () => {
    expect(gateScript).toContain(`const COOKIE = '${AGE_COOKIE_NAME}';`);
    const listed = /const UNGATED = \[([^\]]*)\];/.exec(gateScript)?.[1] ?? '';
    expect(
      listed
        .split(',')
        .map((path) => path.trim().replace(/^'|'$/g, ''))
        .filter(Boolean),
    ).toEqual(UNGATED_PATHS);
    expect(UNGATED_PATHS).toContain('/how-reports-are-reviewed');
  });

  it('links the legal pages it mentions, within the app', () => {
    for (const path of ['/terms-of-service', '/cookie-policy']) {
      expect(UNGATED_PATHS).toContain(path);
      expect(indexHtml).toContain(`<a href="${path}" data-app-link `);
    }
  });
});
