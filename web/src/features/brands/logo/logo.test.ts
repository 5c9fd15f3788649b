import { describe, expect, it } from 'vitest';
import {
  LOGO_CONTENT_TEXT,
  LOGO_SIZE_TEXT,
  LOGO_TYPE_TEXT,
  logoFileProblem,
  storedLogoPath,
} from './logo.ts';

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const ID = '0b000000-0000-4000-8000-00000000000c';

describe('logo files', () => {
  it('refuses SVG and other types, over 2 MB, and bytes that are not the declared image', () => {
    expect(logoFileProblem({ type: 'image/svg+xml', size: 100 }, null)).toBe(LOGO_TYPE_TEXT);
    expect(logoFileProblem({ type: 'text/html', size: 100 }, null)).toBe(LOGO_TYPE_TEXT);
    expect(logoFileProblem({ type: 'image/png', size: 2 * 1024 * 1024 + 1 }, null)).toBe(LOGO_SIZE_TEXT);
    expect(logoFileProblem({ type: 'image/png', size: 2 * 1024 * 1024 }, PNG_HEAD)).toBeNull();
    expect(logoFileProblem({ type: 'image/jpeg', size: 500 }, PNG_HEAD)).toBe(LOGO_CONTENT_TEXT);
    expect(logoFileProblem({ type: 'image/png', size: 500 }, new TextEncoder().encode('<html><body>'))).toBe(
      LOGO_CONTENT_TEXT,
    );
  });

  it("knows a brand's own stored logo from an outside address or another brand's file", () => {
    const own = `http://localhost/storage/v1/object/public/brand-logos/${ID}/logo-1.png`;
    expect(storedLogoPath(own, ID)).toBe(`${ID}/logo-1.png`);
    expect(storedLogoPath('https://cdn.example/logo.png', ID)).toBeNull();
    expect(storedLogoPath(own.replace(ID, '1b000000-0000-4000-8000-00000000000c'), ID)).toBeNull();
    expect(storedLogoPath(null, ID)).toBeNull();
  });
});
