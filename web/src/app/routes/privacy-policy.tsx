// Longer than ~150 lines on purpose: the policy's sections are static text, word for word as the requirements give it.
import { Link } from 'react-router';
import {
  LegalDocument,
  type LegalSection,
  SupportEmail,
} from '#web/features/legal/components/legal-document.tsx';
import { getConfig } from '#web/lib/config.ts';

export default function PrivacyPolicyPage() {
  const { siteName, supportEmail } = getConfig();
  const contact = <SupportEmail address={supportEmail} />;

  const sections: LegalSection[] = [
    {
      id: 'who-we-are',
      title: 'Who we are',
      body: (
        <p>
          {siteName} (“we”, “us”) runs this website: a community platform and marketplace for the legal
          cannabis industry with news, a market index, Pass or Gas product voting, a brand directory, the
          Scammer Network and promo-session booking. We decide why and how your personal data is processed,
          which makes us the controller of that data. You can reach us about anything in this policy at{' '}
          {contact}.
        </p>
      ),
    },
    {
      id: 'data-we-hold',
      title: 'The information we hold',
      body: (
        <>
          <p>We only collect what we need to run the features you use:</p>
          <ul>
            <li>
              <strong>Account:</strong> your email address, your password (stored only as a one-way hash; we
              never see it) and the full name you give at sign-up. If you sign in with our social login
              provider, we receive the name, email address and account identifier that provider shares with
              us.
            </li>
            <li>
              <strong>Profile:</strong> username, display name, bio, profile picture, the date you joined and,
              while it runs, the end of your free trial.
            </li>
            <li>
              <strong>Your activity:</strong> your Pass or Gas votes, the comments you post on products, the
              articles you save (their title, summary, image, source, category and link) and the notifications
              we send you, including whether you have read them.
            </li>
            <li>
              <strong>Scammer reports</strong> you submit: the scammer's name and description, incident
              details, location, business name, contact details used, amount lost and date of the incident,
              linked to your account.
            </li>
            <li>
              <strong>Promo-session bookings:</strong> your name, email address, phone number, company,
              product name, description and category, the date and time you ask for and any special requests.
              You can book without an account; if you are signed in, the booking is linked to your account.
            </li>
            <li>
              <strong>Subscriptions:</strong> your Scammer Network plan, its status and its start and expiry
              dates. Card payments are handled by our card payment provider; we never receive or store your
              full card number.
            </li>
            <li>
              <strong>Privacy settings:</strong> your profile visibility, whether your email and activity are
              shown, your marketing choice, your data-processing consent, and whether and when your account
              should be deleted when inactive. Every optional sharing setting starts off: nothing about you is
              shown to others beyond your profile until you turn it on.
            </li>
            <li>
              <strong>Security logs:</strong> the account events of our sign-in service (sign-ups, sign-ins,
              sign-outs, password and email changes, with the IP address and time of each) and the security
              events the site records (such as failed sign-ins, exceeded rate limits or unusual activity, with
              the page address, browser type (user agent), IP address and time, and — when you are signed in —
              your account and email address). We keep them to protect accounts and the service (our
              legitimate interest).
            </li>
            <li>
              <strong>Rate-limit records:</strong> for actions that can be abused (signing in, signing up,
              resetting a password, submitting a report, exporting your data), the time of each attempt with
              your account or IP address.
            </li>
            <li>
              <strong>Pass or Gas vote-ring signals:</strong> with each vote, a salted hash of the IP address
              it came from (a one-way code made with a secret key, from which the address cannot be read back)
              and the date your account was created. They let us see several new accounts voting together from
              one address and hold those votes for review; nothing else is done with them.
            </li>
            <li>
              <strong>Inactivity warnings:</strong> if you asked us to delete your account when inactive, the
              date we warned you and your last activity at that time.
            </li>
            <li>
              <strong>Cookies and browser storage:</strong> described in our{' '}
              <Link to="/cookie-policy">Cookie Policy</Link>.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'how-we-use',
      title: 'How we use it and why we may',
      body: (
        <ul>
          <li>
            <strong>To provide the service you asked for</strong> — your account, profile, votes, comments,
            saved articles, notifications, bookings and subscription (performance of our contract with you).
          </li>
          <li>
            <strong>To keep the community safe</strong> — reviewing scammer reports before they are published,
            limiting repeated attempts, detecting abuse and protecting accounts (our legitimate interest in a
            safe service). We do not publish the identity of the member who submitted a report.
          </li>
          <li>
            <strong>No analytics or tracking</strong> — we run no analytics and no tracking of any kind: no
            usage statistics about you, no analytics or advertising scripts, no tracking cookies.
          </li>
          <li>
            <strong>To send news and offers</strong> — only if you switch on “Allow marketing” (your consent).
            Service messages, such as email confirmation or password reset, are sent regardless.
          </li>
          <li>
            <strong>To meet legal obligations</strong> — for example keeping payment records or answering
            lawful requests from authorities.
          </li>
        </ul>
      ),
    },
    {
      id: 'sharing',
      title: 'Who can see it',
      body: (
        <>
          <p>
            Other members see your public profile page, comments and votes according to the profile visibility
            you choose: public (anyone), private (only you) or friends (only your connections — connections do
            not exist yet, so for now friends means only you). Your email address is shown only if you turn on
            "Show email address", and your recent votes and comments only while "Show activity" is on; with it
            off, or with a private profile, your comments on product pages are signed "A member" instead of
            your name. Our admins can see what they need to moderate content, review reports and handle
            bookings.
          </p>
          <p>We share personal data only with service providers who process it for us under contract:</p>
          <ul>
            <li>our hosting and storage providers, which run our servers, database and file storage;</li>
            <li>our email delivery provider, for account and notification emails;</li>
            <li>our card payment provider, when you pay for a subscription;</li>
            <li>our social login provider, if you choose to sign in with it.</li>
          </ul>
          <p>
            We disclose data to authorities only where the law requires it. If {siteName} is sold or merged,
            your data moves to the new owner under this policy, and we will tell you first. We never sell your
            personal data.
          </p>
        </>
      ),
    },
    {
      id: 'retention',
      title: 'How long we keep it',
      body: (
        <ul>
          <li>Your account data is kept for as long as you have an account.</li>
          <li>
            <strong>Automatic deletion of inactive accounts:</strong> if you switch it on in your privacy
            settings, we delete your account and its data after the period of inactivity you choose — 12, 24,
            36 or 60 months (24 months unless you pick another). Signing in or using the site while signed in
            counts as activity. 14 days before, we tell you by a notification and an email; if you sign in
            before the date it names, your account stays. The deletion is the same as the one you can ask for
            yourself.
          </li>
          <li>
            When you delete your account, we remove your profile information, your reviews and comments, your
            bookings and submissions and all other personal data, including our security records of your
            sign-ins and the emails we sent you. Deletion cannot be undone. Copies in backups disappear as
            those backups expire, and records we must keep by law (such as payment records) are kept only for
            the period the law sets.
          </li>
          <li>
            <strong>One free trial per email address:</strong> so that deleting an account and signing up
            again does not start a new free trial, we keep, for every email address that had a trial, a keyed
            hash of it (a one-way code made with a secret key, from which the address cannot be read back) and
            the date that trial ended — nothing else, and nothing that links it to you once your account is
            deleted.
          </li>
          <li>
            Booking requests made without an account are kept as long as needed to arrange the session and to
            keep the business records the law requires.
          </li>
          <li>
            <strong>Security logs</strong> are kept 12 months: entries older than that are deleted every day.
          </li>
          <li>
            <strong>Rate-limit records</strong> are deleted after one day at most.
          </li>
          <li>
            <strong>Vote-ring signals</strong> (the salted address hashes) are deleted 30 days after the vote.
          </li>
          <li>
            <strong>Scam reports</strong> and what they say about the people named are kept while the report
            is published or under review, and removed when a report is taken down or a correction or erasure
            request is accepted.
          </li>
        </ul>
      ),
    },
    {
      id: 'kept-after-deletion',
      title: 'What we keep after you delete your account',
      body: (
        <>
          <p>
            Deleting your account removes you from our database and our file storage: nothing of your account
            — your email address, username, display name, phone number — and nothing you wrote is left there.
            (What someone else wrote about you, such as a scam report naming you, is theirs; you can still ask
            us to see, correct or erase it.) We keep only the following, each for the reason and the time
            given:
          </p>
          <ul>
            <li>
              <strong>A record of what was done, without you:</strong> our audit log keeps its entries about
              your account as facts (what was done to which record, by which admin, and when), with you
              replaced by a pseudonym (a code made with a secret key from your account number, from which your
              identity cannot be read back) and every name, address, phone number and text removed. We keep it
              to be accountable for how data was handled (our legitimate interest and our duty to demonstrate
              compliance), for as long as we keep the audit log.
            </li>
            <li>
              <strong>One free trial per email address:</strong> the keyed hash of your address and the date
              your trial ended, as described above.
            </li>
            <li>
              <strong>Payment records:</strong> invoices and payments for a subscription are kept by our card
              payment provider for the period tax and accounting law sets; the payment events we received keep
              only their dates and states, without your identifiers, and are deleted after 90 days.
            </li>
            <li>
              <strong>Backups:</strong> copies of the database made before your deletion disappear as those
              backups expire.
            </li>
          </ul>
          <p>
            Our complete inventory of the personal data the service stores — every category, where it is kept,
            why and for how long — is our <Link to="/personal-data">personal data register</Link>, published
            with the software (docs/personal-data.md).
          </p>
        </>
      ),
    },
    {
      id: 'your-rights',
      title: 'Your rights (GDPR)',
      body: (
        <>
          <p>Wherever you live, you can:</p>
          <ul>
            <li>
              <strong>Export your data</strong> — download everything we hold about your account as a JSON
              file from Profile → Privacy → Data Rights (rights of access and portability).
            </li>
            <li>
              <strong>Delete your account and data</strong> — from Profile → Privacy → Data Rights (right to
              erasure).
            </li>
            <li>
              <strong>Correct your data</strong> — edit your profile at any time, or ask us (right to
              rectification).
            </li>
            <li>
              <strong>Withdraw consent</strong> — switch marketing off in your privacy settings; this does not
              affect processing that happened before.
            </li>
            <li>
              <strong>Object to or restrict processing</strong> that relies on our legitimate interests.
            </li>
            <li>
              <strong>Complain</strong> to the data protection authority where you live or work.
            </li>
          </ul>
          <p>
            For anything you cannot do yourself in the app, write to {contact}. We answer within one month and
            may ask you to confirm your identity first.
          </p>
        </>
      ),
    },
    {
      id: 'people-named-in-reports',
      title: 'People named in scam reports',
      body: (
        <>
          <p>
            Members can report a suspected scam in the Scammer Network. A report may name people or businesses
            who are not members and did not give us their data themselves. What we hold about them comes from
            the member who reported: the name and description of the person or business, the business name,
            the contact details used, the incident, its location, date and amount, and any evidence files the
            reporter attached. We process it to warn the trade about fraud (our legitimate interest, and that
            of our members, in a safe market). Our admins review every report before it is published; a
            published report is shown only to members with Scammer Network access, and evidence files never
            leave our reviewers.
          </p>
          <p>
            If you are named in a report, you have the same rights as a member: to know what we hold about you
            (access), to have it corrected (rectification), to have it erased, and to object. Send a reply, a
            correction or a takedown request from the report's page (“Named in this report?”), or write to{' '}
            {contact} — you do not need an account for that. We answer within one month. Removal is never
            offered for payment.
          </p>
        </>
      ),
    },
    {
      id: 'age',
      title: 'Age requirement',
      body: (
        <p>
          {siteName} is only for adults aged 21 or older, or of the legal age for cannabis where you live if
          that is higher. We do not knowingly collect data from anyone younger. If we learn that an account
          belongs to someone under that age, we delete it.
        </p>
      ),
    },
    {
      id: 'security',
      title: 'How we protect it',
      body: (
        <p>
          Connections to {siteName} are encrypted, passwords are stored only as hashes, access to data is
          checked in the database for every request, and sign-in attempts are rate-limited. Sessions end
          automatically after two hours without activity. No system is perfectly secure; if a breach affects
          your data, we will tell you and the authorities as the law requires.
        </p>
      ),
    },
    {
      id: 'transfers',
      title: 'International transfers',
      body: (
        <p>
          Our providers may process data outside your country. Where data leaves the European Economic Area or
          the United Kingdom, we rely on adequacy decisions or standard contractual clauses to keep it
          protected.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      body: (
        <p>
          We will give you at least 30 days' notice by email and on the site before a material change takes
          effect. The date at the top shows when this policy last changed.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: <p>Questions, requests or complaints about your privacy: {contact}.</p>,
    },
  ];

  return (
    <LegalDocument
      title="Privacy Policy"
      updated="28 November 2026"
      intro={
        <p>
          This policy explains what personal data {siteName} holds about you, why, who can see it, how long we
          keep it and how you can export or delete it.
        </p>
      }
      sections={sections}
    />
  );
}
