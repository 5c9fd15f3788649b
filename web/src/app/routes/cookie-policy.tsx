// Longer than ~150 lines on purpose: the policy's sections are static text, word for word as the requirements give it.
import { Link } from 'react-router';
import { AGE_COOKIE_NAME } from '#web/features/age-gate/age-verification.ts';
import {
  LegalDocument,
  type LegalSection,
  SupportEmail,
} from '#web/features/legal/components/legal-document.tsx';
import { getConfig } from '#web/lib/config.ts';
import { THEME_STORAGE_KEY } from '#web/lib/theme.ts';

interface StorageRow {
  name: string;
  kind: string;
  purpose: string;
  duration: string;
}

function StorageTable({ caption, rows }: { caption: string; rows: StorageRow[] }) {
  return (
    // Focusable and labelled, so keyboard users can scroll the table sideways on narrow screens.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-lg border">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted/60">
          <tr>
            <th scope="col" className="px-4 py-2 font-semibold">
              Name
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Type
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Purpose
            </th>
            <th scope="col" className="px-4 py-2 font-semibold">
              Kept for
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-t align-top">
              <th scope="row" className="px-4 py-3 font-mono font-normal text-xs">
                {row.name}
              </th>
              <td className="px-4 py-3">{row.kind}</td>
              <td className="px-4 py-3">{row.purpose}</td>
              <td className="px-4 py-3">{row.duration}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export default function CookiePolicyPage() {
  const { siteName, supportEmail } = getConfig();

  const necessary: StorageRow[] = [
    {
      name: AGE_COOKIE_NAME,
      kind: 'Cookie (first-party)',
      purpose:
        'Age verification: remembers that you confirmed you are 21 or older (or of the legal age where you live), so we do not ask on every visit.',
      duration: '1 year',
    },
    {
      name: 'sb-…-auth-token',
      kind: 'Local storage',
      purpose: 'Keeps you signed in and lets us refresh your session. Removed when you sign out.',
      duration: 'Until you sign out; sessions end after 2 hours without activity',
    },
    {
      name: 'Security token',
      kind: 'Browser storage',
      purpose: 'Protects forms such as scammer reports against cross-site request forgery.',
      duration: 'Up to 1 hour; renewed every 30 minutes',
    },
    {
      name: 'highgrade.draft.booking',
      kind: 'Session storage',
      purpose:
        'What you typed into the booking form before signing in, so signing in on the way does not lose it. Kept in this tab only.',
      duration:
        'Until you send the request, it is back in your form after signing in, you sign out or you close the tab',
    },
    {
      name: 'Rate-limit records',
      kind: 'Local storage',
      purpose:
        'Times of your recent attempts at actions such as signing in, so repeated attempts can be slowed down.',
      duration: 'Only as long as the limit window, usually minutes',
    },
  ];

  const preferences: StorageRow[] = [
    {
      name: THEME_STORAGE_KEY,
      kind: 'Local storage',
      purpose: 'Remembers whether you chose the light or the dark theme.',
      duration: 'Until you change it or clear your browser data',
    },
  ];

  const sections: LegalSection[] = [
    {
      id: 'what',
      title: 'What cookies and browser storage are',
      body: (
        <p>
          Cookies are small text files a website stores in your browser. Local storage and session storage are
          similar places in your browser where a site can keep small pieces of data. {siteName} uses only
          first-party cookies and storage — set by {siteName} itself — and only for the purposes below.
        </p>
      ),
    },
    {
      id: 'necessary',
      title: 'Strictly necessary',
      body: (
        <>
          <p>
            These make the site work and keep it safe, so they do not need your consent. The age verification
            cookie,{' '}
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-sm">{AGE_COOKIE_NAME}</code>, is
            set when you confirm your age and holds only the value <code className="font-mono">1</code> — no
            personal data.
          </p>
          <StorageTable caption="Strictly necessary cookies and storage" rows={necessary} />
        </>
      ),
    },
    {
      id: 'preferences',
      title: 'Preferences',
      body: (
        <>
          <p>This remembers a choice you made, so the site looks the way you want on your next visit.</p>
          <StorageTable caption="Preference storage" rows={preferences} />
        </>
      ),
    },
    {
      id: 'analytics',
      title: 'Analytics',
      body: (
        <p>
          {siteName} runs no analytics and no tracking of any kind: no analytics cookies or storage, no
          analytics or advertising scripts (our security policy blocks scripts from other sites), and no usage
          statistics about you. The cookie and browser storage listed above are all we use.
        </p>
      ),
    },
    {
      id: 'third-parties',
      title: 'Advertising and third parties',
      body: (
        <p>
          {siteName} sets no advertising or cross-site tracking cookies. If you choose to sign in with our
          social login provider or pay through our card payment provider, those services may set their own
          cookies on their own sites under their own policies.
        </p>
      ),
    },
    {
      id: 'control',
      title: 'Your choices',
      body: (
        <ul>
          <li>
            You can delete or block cookies and site data in your browser settings. If you delete the age
            verification cookie, we will ask you to confirm your age again.
          </li>
          <li>Blocking local storage prevents signing in, because your session is kept there.</li>
          <li>
            More about how we handle personal data is in our <Link to="/privacy-policy">Privacy Policy</Link>.
          </li>
        </ul>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      body: (
        <p>
          We will give you at least 30 days' notice by email and on the site before a material change to this
          policy takes effect.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: (
        <p>
          Questions about cookies: <SupportEmail address={supportEmail} />.
        </p>
      ),
    },
  ];

  return (
    <LegalDocument
      title="Cookie Policy"
      updated="28 November 2026"
      intro={
        <p>
          This policy lists every cookie and every piece of browser storage {siteName} uses, what each is for
          and how long it is kept.
        </p>
      }
      sections={sections}
    />
  );
}
