// Longer than ~150 lines on purpose: the policy's sections are static text, word for word as the requirements give it.
import { Link } from 'react-router';
import {
  LegalDocument,
  type LegalSection,
  SupportEmail,
} from '#web/features/legal/components/legal-document.tsx';
import { getConfig } from '#web/lib/config.ts';

export default function TermsOfServicePage() {
  const { siteName, supportEmail } = getConfig();
  const contact = <SupportEmail address={supportEmail} />;

  const sections: LegalSection[] = [
    {
      id: 'agreement',
      title: 'Agreement',
      body: (
        <p>
          These terms govern your use of {siteName}. By using the site — with or without an account — you
          agree to them and to our <Link to="/privacy-policy">Privacy Policy</Link> and{' '}
          <Link to="/cookie-policy">Cookie Policy</Link>. If you do not agree, please do not use {siteName}.
        </p>
      ),
    },
    {
      id: 'eligibility',
      title: 'Minimum age and eligibility',
      body: (
        <>
          <p>
            You must be{' '}
            <strong>
              at least 21 years old, or of the legal age for cannabis where you live if that is higher
            </strong>
            , to use {siteName}. By confirming your age or creating an account you confirm that you meet this
            requirement.
          </p>
          <p>
            You may only use {siteName} where doing so is lawful. Cannabis laws differ between countries,
            states and provinces; you are responsible for knowing and following the laws that apply to you. We
            close accounts that belong to anyone under the minimum age.
          </p>
        </>
      ),
    },
    {
      id: 'service',
      title: 'What we offer — and what we do not',
      body: (
        <>
          <p>
            {siteName} is an information and community platform for the legal cannabis industry: news, a
            market index, Pass or Gas product voting, a brand directory, the Scammer Network and promotional
            sessions for brands.
          </p>
          <ul>
            <li>
              We do not sell, buy, deliver or hold cannabis, and we are not a party to any deal between
              members, brands or sellers. Any transaction is between you and the other party, under the law
              that applies to you both.
            </li>
            <li>
              Nothing on {siteName} is medical, legal or financial advice. The market index and prices are for
              information only and are not an offer or recommendation to buy or sell anything.
            </li>
            <li>
              News articles come from third-party sources; their owners are responsible for them. Links to
              other sites are provided for convenience.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'accounts',
      title: 'Your account',
      body: (
        <ul>
          <li>Give accurate information and keep it up to date. One account per person.</li>
          <li>
            Keep your password secret. You are responsible for what happens under your account; tell us at
            once at {contact} if you suspect someone else is using it.
          </li>
          <li>You can delete your account at any time from Profile → Privacy → Data Rights.</li>
        </ul>
      ),
    },
    {
      id: 'community-rules',
      title: 'Community rules',
      body: (
        <>
          <p>When you post, vote, comment, report or book, you must not:</p>
          <ul>
            <li>
              offer, request or arrange the sale of cannabis or any other product where that is unlawful;
            </li>
            <li>post anything involving or aimed at minors;</li>
            <li>harass, threaten, defame or publish private information about anyone;</li>
            <li>post unlawful, hateful, sexually explicit or misleading content, or spam;</li>
            <li>manipulate votes — each member gets one vote per product — or create accounts to do so;</li>
            <li>
              upload malware, probe or overload our systems, or collect data from the site by automated means.
            </li>
          </ul>
          <p>We may remove content that breaks these rules and suspend or close the accounts responsible.</p>
        </>
      ),
    },
    {
      id: 'your-content',
      title: 'Your content',
      body: (
        <p>
          You keep ownership of what you post. You give {siteName} a worldwide, non-exclusive, royalty-free
          licence to host, display and distribute it on the service for as long as it is there. You confirm
          that you have the right to post it. Deleting your account removes your content as described in the
          Privacy Policy.
        </p>
      ),
    },
    {
      id: 'scammer-reports',
      title: 'Scammer reports',
      body: (
        <ul>
          <li>
            Reports must be truthful, based on your own experience and supported by evidence where you have
            it.
          </li>
          <li>
            All reports are reviewed before publication. Reviewers do not rewrite or shorten what you wrote.
            They may mask personal details in it (a phone number, an email or a street address, or a whole
            field), decline evidence files, write a short summary that is shown, labelled as theirs, above
            your report, and reject a report, take it down for another review or remove it. Evidence files are
            stored and shown without their metadata (location, camera, author). False reports may cause
            account suspension.
          </li>
          <li>
            When you submit a report you confirm it is true to the best of your knowledge. Leave out other
            people's personal details; the person or business you name may reply to it.
          </li>
          <li>
            A published report is the reporter's account of events, not a finding by {siteName}. If you
            believe a report about you is wrong, write to {contact} and we will review it.
          </li>
        </ul>
      ),
    },
    {
      id: 'subscription',
      title: 'Scammer Network subscription',
      body: (
        <ul>
          <li>
            Access to the Scammer Network needs a subscription, an active free trial or an admin account. The
            subscription costs <strong>$9.99 per month</strong> and runs for one month at a time.
          </li>
          <li>
            You can cancel at any time from Profile → Subscription; access continues until the end of the
            period you have paid for.
          </li>
          <li>
            Payments are processed by our card payment provider under its own terms. We will give you at least
            30 days' notice of any price change, and refunds are given where the law requires.
          </li>
        </ul>
      ),
    },
    {
      id: 'promo-sessions',
      title: 'Promo sessions',
      body: (
        <p>
          A booking is a request, not a confirmed session, until we confirm it. We may decline or cancel a
          promotion that would break the law or these terms. You are responsible for making sure your product
          and your promotion comply with the advertising rules where they will be seen.
        </p>
      ),
    },
    {
      id: 'intellectual-property',
      title: 'Our content and trademarks',
      body: (
        <p>
          The {siteName} name, logo, design, software and the content we create belong to us or our licensors.
          You may use the site for your own personal or business information but may not copy, resell or
          republish substantial parts of it without our written permission.
        </p>
      ),
    },
    {
      id: 'disclaimers',
      title: 'Disclaimers and liability',
      body: (
        <>
          <p>
            We work to keep {siteName} accurate and available, but we provide it “as is”: we cannot guarantee
            that member content, reports, prices or third-party news are complete or correct, or that the site
            will always be available.
          </p>
          <p>
            To the extent the law allows, we are not liable for indirect or consequential losses, or for
            losses caused by other members, brands, sellers or third-party sites. Nothing in these terms
            limits liability that cannot be limited by law, or the rights you have as a consumer.
          </p>
        </>
      ),
    },
    {
      id: 'termination',
      title: 'Suspension and termination',
      body: (
        <p>
          We may suspend or close an account that breaks these terms or the law, or puts other members at
          risk. Where reasonable we will tell you why and give you a chance to respond. You may stop using{' '}
          {siteName} and delete your account at any time.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to these terms',
      body: (
        <p>
          We will give you at least <strong>30 days' notice</strong> by email and on the site before changes
          to these terms take effect. If you keep using {siteName} after that, the new terms apply; if you do
          not agree, you can delete your account before they take effect.
        </p>
      ),
    },
    {
      id: 'law',
      title: 'Governing law',
      body: (
        <p>
          These terms are governed by the law of the place where {siteName} is operated. If you are a
          consumer, you also keep the protection of the mandatory laws of the country where you live and may
          bring claims there.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: <p>Questions about these terms: {contact}.</p>,
    },
  ];

  return (
    <LegalDocument
      title="Terms of Service"
      updated="21 November 2026"
      intro={
        <p>
          Please read these terms carefully. They explain who may use {siteName}, the rules of our community
          and what you and we can expect from each other.
        </p>
      }
      sections={sections}
    />
  );
}
