import { Link } from 'react-router';
import {
  LegalDocument,
  type LegalSection,
  SupportEmail,
} from '#web/features/legal/components/legal-document.tsx';
import { getConfig } from '#web/lib/config.ts';

/**
 * /how-reports-are-reviewed (issue 32 part 3, decision 201): what "reviewed" means on a Scammer Network
 * report — what the reviewers check and what they do not, how the people named reply, how corrections
 * and takedowns work. Public, with the legal pages: the people a report names read it without an account.
 */
export default function HowReportsAreReviewedPage() {
  const { siteName, supportEmail } = getConfig();
  const sections: LegalSection[] = [
    {
      id: 'what-reviewed-means',
      title: 'What "reviewed" means',
      body: (
        <>
          <p>
            Every report in the Scammer Network is a member's account of what happened to them. Before it is
            published, an admin other than the member who filed it reads it and decides whether to publish it.
            "Reviewed on DATE" is the day that decision was made.
          </p>
          <p>
            Above each report, the <strong>Summary by {siteName}'s reviewers</strong> says in the reviewers'
            own words what the report is about. Everything below it is the member's account, as they wrote it,
            less what the reviewers masked: it is not a finding by {siteName}.
          </p>
        </>
      ),
    },
    {
      id: 'what-reviewers-check',
      title: 'What the reviewers check',
      body: (
        <ul>
          <li>
            That the report is about a scam in the cannabis trade, not a dispute of taste or a personal
            quarrel.
          </li>
          <li>That it is consistent: dates, amounts and what happened fit together.</li>
          <li>The evidence the member attached, which readers only see once a reviewer approved it.</li>
          <li>
            Personal data: phone numbers, email addresses and street addresses of people who are not the
            subject, and anything else that is not needed, is masked before readers see it.
          </li>
          <li>Duplicates: several reports about the same events are merged into one.</li>
        </ul>
      ),
    },
    {
      id: 'what-reviewers-do-not-check',
      title: 'What the reviewers do not check',
      body: (
        <ul>
          <li>
            Reviewers do not investigate: they do not contact the people named, the police or payment
            providers, and publishing a report does not mean {siteName} found that a scam happened.
          </li>
          <li>They do not verify the reporter's identity beyond their confirmed account.</li>
          <li>They do not judge the quality of products or prices.</li>
        </ul>
      ),
    },
    {
      id: 'reply',
      title: 'Named in a report? How to reply',
      body: (
        <>
          <p>
            Anyone a report names — a person or a business — can answer it, free of charge, from the report's
            page or from the brand's page in the <Link to="/brand-directory">Brand Directory</Link> ("Named in
            a report? Reply"). You need a free account. You can send a <strong>reply</strong> (your side), a{' '}
            <strong>correction</strong> (what is wrong) or a <strong>takedown request</strong>. The reply page
            shows the report as its readers see it, and an approved representative of a brand reads the
            reports about their brand free of charge.
          </p>
          <p>
            The reviewers decide on every request and tell you in your notifications and by email: accepted,
            declined (with their reason), and, after a takedown request, whether the report was published
            again or stays down. Accepted replies and corrections are shown under the report, without your
            name.
          </p>
          <p>
            <strong>Removal is never offered for payment.</strong> Nobody at {siteName} may ask you for money,
            and no payment changes a decision.
          </p>
        </>
      ),
    },
    {
      id: 'corrections',
      title: 'Corrections and takedowns',
      body: (
        <>
          <p>
            When the reviewers change a published report — its summary, what is masked, or its evidence — the
            report says "Updated DATE" and which of these changed. The member's own words are never rewritten.
          </p>
          <p>
            When a report is taken down for review, readers who had it open or linked see "This report was
            withdrawn on DATE after review" instead of its content. Members who watch a name or contact detail
            in the report are told once that it was withdrawn. If it is published again after review, it shows
            its new review date; watchers are not alerted about it a second time.
          </p>
        </>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: (
        <p>
          Questions about a report or this process: <SupportEmail address={supportEmail} />. See also the{' '}
          <Link to="/terms-of-service">Terms of Service</Link>.
        </p>
      ),
    },
  ];
  return (
    <LegalDocument
      title="How reports are reviewed"
      updated="28 November 2026"
      intro={
        <p>
          How {siteName}'s reviewers handle Scammer Network reports, and what the people and businesses a
          report names can do about it.
        </p>
      }
      sections={sections}
    />
  );
}
