import { LegalDocument } from '#web/features/legal/components/legal-document.tsx';
import { personalDataRegister } from '#web/features/legal/lib/personal-data-register.ts';

const register = personalDataRegister();

/** The personal-data register: every category of personal data, where, why and how long (issue 33). */
export default function PersonalDataPage() {
  return (
    <LegalDocument
      title={register.title}
      updated="28 November 2026"
      intro={
        <div
          className="space-y-4 text-base [&_code]:text-sm"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: docs/personal-data.md, rendered at build time; no member's text.
          dangerouslySetInnerHTML={{ __html: register.introHtml }}
        />
      }
      sections={register.sections.map((section) => ({
        id: section.id,
        title: section.title,
        body: (
          <div
            className="space-y-4 [&_code]:text-xs [&_td]:px-3 [&_td]:py-2 [&_td]:align-top [&_th]:bg-muted/60 [&_th]:px-3 [&_th]:py-2 [&_tr]:border-t"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: docs/personal-data.md, rendered at build time; no member's text.
            dangerouslySetInnerHTML={{ __html: section.html }}
          />
        ),
      }))}
    />
  );
}
