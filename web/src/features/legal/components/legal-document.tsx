import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { legalNavItems } from '#web/components/layout/nav-items.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

interface LegalDocumentProps {
  title: string;
  /** Date the text last changed, e.g. "21 November 2026". */
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}

/** Long-form legal text: a heading, a table of contents, numbered sections and links to the other policies. */
export function LegalDocument({ title, updated, intro, sections }: LegalDocumentProps) {
  useDocumentTitle(title);
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
      <header className="border-b pb-8">
        <p className="font-semibold text-primary text-sm uppercase tracking-wider">Legal</p>
        <h1 className="mt-1 font-bold text-3xl tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-3 text-muted-foreground text-sm">Last updated: {updated}</p>
        <div className="mt-6 space-y-4 text-lg leading-relaxed">{intro}</div>
      </header>

      <nav aria-label="Contents" className="mt-8 rounded-xl border bg-muted/40 p-6">
        <h2 className="font-semibold">Contents</h2>
        <ol className="mt-3 grid list-decimal gap-1.5 pl-5 text-sm sm:grid-cols-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className="text-primary underline-offset-4 hover:underline">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-10 space-y-10">
        {sections.map((section, index) => (
          <section
            key={section.id}
            id={section.id}
            aria-labelledby={`${section.id}-title`}
            className="scroll-mt-24"
          >
            <h2 id={`${section.id}-title`} className="font-bold text-xl tracking-tight sm:text-2xl">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-4 space-y-4 leading-relaxed [&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-lg [&_li]:pl-1 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_strong]:font-semibold [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
              {section.body}
            </div>
          </section>
        ))}
      </div>

      <footer className="mt-14 border-t pt-6 text-muted-foreground text-sm">
        <p>See also:</p>
        <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {legalNavItems
            .filter((item) => item.label !== title)
            .map((item) => (
              <li key={item.to}>
                <Link to={item.to} className="font-medium text-primary underline-offset-4 hover:underline">
                  {item.label}
                </Link>
              </li>
            ))}
        </ul>
      </footer>
    </article>
  );
}

/** A mailto link to the support address. */
export function SupportEmail({ address }: { address: string }) {
  return <a href={`mailto:${address}`}>{address}</a>;
}
