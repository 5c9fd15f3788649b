import { describe, expect, it } from 'vitest';
import { claimProblem, profileInputOf, profileProblem } from './representative.ts';

describe('a claim', () => {
  it('needs the member’s role at the brand', () => {
    expect(claimProblem({ roleTitle: ' x ', message: '' })).toBe(
      'Say your role at the brand in 2 to 100 characters.',
    );
    expect(claimProblem({ roleTitle: 'Owner', message: '' })).toBeNull();
  });
});

describe('a representative’s edit', () => {
  const notStored = () => false;
  const values = { description: 'Growers.', website: ' https://green.example ', socialLinks: '' };

  it('saves trimmed links and clears an empty logo', () => {
    expect(
      profileInputOf({ ...values, socialLinks: 'https://a.example\n\n https://b.example ' }, null),
    ).toEqual({
      description: 'Growers.',
      logo_url: '',
      website: 'https://green.example',
      social_links: ['https://a.example', 'https://b.example'],
    });
  });

  it('takes an https logo or a file stored for the brand, nothing else', () => {
    expect(profileProblem(profileInputOf(values, 'https://cdn.example/logo.png'), notStored)).toBeNull();
    expect(profileProblem(profileInputOf(values, 'http://cdn.example/logo.png'), notStored)).toBe(
      'The logo must be an https:// address of an image.',
    );
    expect(profileProblem(profileInputOf(values, 'http://localhost/logo.png'), () => true)).toBeNull();
  });

  it('asks for full addresses, and at most 10 links', () => {
    expect(profileProblem(profileInputOf({ ...values, website: 'not a url' }, null), notStored)).toBe(
      'The website must be a full http:// or https:// address.',
    );
    const eleven = Array.from({ length: 11 }, (_, i) => `https://l${i}.example`).join('\n');
    expect(profileProblem(profileInputOf({ ...values, socialLinks: eleven }, null), notStored)).toBe(
      'Each social link must be a full http:// or https:// address (at most 10).',
    );
    expect(
      profileProblem(profileInputOf({ ...values, socialLinks: 'ftp://x.example' }, null), notStored),
    ).toBe('Each social link must be a full http:// or https:// address (at most 10).');
  });
});
