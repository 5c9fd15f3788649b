import { describe, expect, it } from 'vitest';
import { addEvidence, evidenceObjectName, evidenceProblem } from './evidence.ts';

const file = (name: string, type: string, size = 2_000) => ({ name, type, size });

describe('evidence files (spec §5 rules, decision 141)', () => {
  it('takes images and PDFs between 100 bytes and 5 MB', () => {
    expect(evidenceProblem(file('receipt.pdf', 'application/pdf'))).toBeNull();
    expect(evidenceProblem(file('chat.PNG', 'image/png'))).toBeNull();
    expect(evidenceProblem(file('notes.txt', 'text/plain'))).toBe(
      'File type not allowed. Only JPEG, PNG, WebP, GIF and PDF files are permitted.',
    );
    expect(evidenceProblem(file('big.jpg', 'image/jpeg', 5 * 1024 * 1024 + 1))).toBe(
      'File size too large. Maximum size is 5MB.',
    );
    expect(evidenceProblem(file('tiny.gif', 'image/gif', 99))).toBe(
      'File size too small. Minimum size is 100 bytes.',
    );
  });

  it('refuses suspicious, double and overlong names', () => {
    expect(evidenceProblem(file('invoice.php', 'image/png'))).toBe('Suspicious file extension detected.');
    expect(evidenceProblem(file('photo.php.png', 'image/png'))).toBe(
      'Double file extensions are not allowed.',
    );
    expect(evidenceProblem(file(`${'a'.repeat(252)}.png`, 'image/png'))).toBe('Filename too long.');
    expect(evidenceProblem(file('a\0.png', 'image/png'))).toBe('Invalid filename characters detected.');
    expect(evidenceProblem(file('Screenshot 2026-11-02 at 10.15.png', 'image/png'))).toBeNull();
  });

  it('keeps at most 5 and says why a file was left out', () => {
    const five = Array.from({ length: 5 }, (_, i) => file(`p${i}.png`, 'image/png'));
    expect(addEvidence(five.slice(0, 4), [file('x.exe', 'image/png')])).toEqual({
      files: five.slice(0, 4),
      problem: 'x.exe: Suspicious file extension detected.',
    });
    expect(addEvidence(five, [file('six.png', 'image/png')]).problem).toBe('You can attach up to 5 files.');
    expect(addEvidence([], five).files).toHaveLength(5);
    expect(addEvidence([], [file('a.txt', 'text/plain'), file('b.gif', 'image/gif', 10)]).problem).toBe(
      'a.txt: File type not allowed. Only JPEG, PNG, WebP, GIF and PDF files are permitted. b.gif: File size too small. Minimum size is 100 bytes.',
    );
  });

  it("names the object after the report and a random id, with the type's extension", () => {
    expect(evidenceObjectName('r-1', 'application/pdf', 'abc')).toBe('r-1/abc.pdf');
    expect(evidenceObjectName('r-1', 'image/jpeg', 'abc')).toBe('r-1/abc.jpg');
  });
});
