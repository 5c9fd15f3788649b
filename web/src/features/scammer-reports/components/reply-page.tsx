import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, LogIn, MessageSquareReply } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useAuth, useConfirmedUserId } from '#web/lib/auth/hooks/use-auth.ts';
import { errorText, UserFacingError } from '#web/lib/error-text.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import {
  ownRepliesQueryOptions,
  REPLY_KINDS,
  REPLY_RELATIONS,
  type ReplyKind,
  type ReplyRelation,
  useSendReply,
} from '../api/evidence-and-replies.ts';
import { reportForReplyQueryOptions } from '../api/published-reports.ts';
import { formatAmount, formatDay, REDACTABLE_FIELDS } from '../database.ts';

export const REPLY_BODY_MIN = 20;
export const REPLY_BODY_MAX = 2000;

/**
 * /scammer-database/:id/reply (decision 126): anyone named in a published report — signed in, with or
 * without access to the database — sends a reply, a correction or a takedown request, and follows
 * the decisions on what they sent. The report being answered is shown as readers see it (decision 201)
 * to whoever may read it — members with access, the brand's approved representatives — and to anyone
 * who has sent a request about it.
 */
export function ReplyPage({ id, onSignIn }: { id: string; onSignIn: () => void }) {
  useDocumentTitle('Reply to a report · Scammer Network');
  const auth = useAuth();
  return (
    <PageContainer>
      <Button asChild variant="ghost" size="sm" className="mb-4">
        <Link to={`/scammer-database/${id}`}>
          <ArrowLeft aria-hidden="true" />
          Back to the report
        </Link>
      </Button>
      <PageHeader
        icon={MessageSquareReply}
        eyebrow="Scammer Network"
        title="Reply to a report"
        description="Named in a member's report? Tell the reviewers your side, correct what is wrong, or ask for the report to be taken down."
      />
      <div className="mt-6 grid max-w-2xl gap-6">
        <p className="rounded-lg border bg-card p-4 text-sm">
          <strong>Removal is never offered for payment.</strong> Reports are reviewed on their merits; nobody
          at HighGrade may ask you for money, and no payment changes a decision. Tell us if anyone does.
        </p>
        {!auth.confirmed && auth.user === null ? (
          <Skeleton className="h-48" />
        ) : auth.user === null ? (
          <EmptyState
            icon={LogIn}
            title="Sign in to reply"
            actions={<Button onClick={onSignIn}>Sign In</Button>}
          >
            Replies come from members: sign in or create a free account (your address is confirmed by email),
            so the reviewers can answer you.
          </EmptyState>
        ) : (
          <>
            <AnsweredReport id={id} />
            <ReplyForm id={id} />
            <OwnReplies id={id} />
          </>
        )}
      </div>
    </PageContainer>
  );
}

function ReplyForm({ id }: { id: string }) {
  const send = useSendReply(id);
  const [kind, setKind] = useState<ReplyKind>('reply');
  const [relation, setRelation] = useState<ReplyRelation>('person');
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A refusal of the message by the database is shown under it and the keyboard goes there (decision 180).
  const bodyId = useId();
  const refusal = useFieldRefusal({ body: bodyId });
  return (
    <form
      aria-label="Your reply"
      noValidate
      className="grid gap-4 rounded-xl border p-4"
      onSubmit={(event) => {
        event.preventDefault();
        const text = body.trim();
        if (text.length < REPLY_BODY_MIN || text.length > REPLY_BODY_MAX) {
          setProblem(`Your message must be between ${REPLY_BODY_MIN} and ${REPLY_BODY_MAX} characters.`);
          return;
        }
        setProblem(null);
        send.mutate(
          { kind, relation, body: text },
          {
            onSuccess: () => {
              setBody('');
              toast({ title: 'Sent for review', description: 'The reviewers will tell you their decision.' });
            },
            onError: (error) => {
              toast({
                variant: 'destructive',
                title: 'Could not send',
                description:
                  refusal.show(error) ??
                  errorText(
                    (error as { code?: string }).code === '23514'
                      ? new UserFacingError(error.message)
                      : error,
                  ),
              });
            },
          },
        );
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium text-sm">What are you sending?</legend>
        {REPLY_KINDS.map(([key, label, hint]) => (
          <label key={key} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="reply-kind"
              value={key}
              className="mt-1 size-4 accent-primary"
              checked={kind === key}
              onChange={() => setKind(key)}
            />
            <span>
              <span className="font-medium">{label}</span>
              <span className="block text-muted-foreground">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <SelectField
        label="How are you named in the report?"
        name="relation"
        value={relation}
        onChange={(event) => setRelation(event.target.value as ReplyRelation)}
      >
        {REPLY_RELATIONS.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextareaField
        label="Your message"
        required
        rows={6}
        name="body"
        maxLength={REPLY_BODY_MAX}
        id={bodyId}
        value={body}
        error={problem ?? refusal.errorFor('body')}
        hint="Shown to the report's readers if it is an accepted reply or correction, without your name. Leave out addresses and ID numbers."
        onChange={(event) => {
          setBody(event.target.value);
          setProblem(null);
          refusal.clear();
        }}
      />
      <Button type="submit" className="justify-self-start" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send for review'}
      </Button>
    </form>
  );
}

/** The report being answered, as its readers see it: redacted fields say so, never the reporter. */
function AnsweredReport({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(reportForReplyQueryOptions(userId, id));
  if (query.isPending) return <Skeleton className="h-32" aria-label="Loading the report" />;
  if (query.isError) {
    return (
      <p role="alert" className="text-destructive dark:text-red-400">
        {errorText(query.error)}
      </p>
    );
  }
  const report = query.data;
  if (!report) {
    return (
      <p className="rounded-lg border p-4 text-muted-foreground text-sm">
        Once you send a request about this report, it is shown here as its readers see it.
      </p>
    );
  }
  const redacted = new Set(report.redacted_fields);
  const value = (field: string, text: string | null) =>
    redacted.has(field) ? 'Removed by the reviewers' : (text ?? 'Not given');
  const label = (field: string) => REDACTABLE_FIELDS.find(([key]) => key === field)?.[1] ?? field;
  return (
    <section
      aria-labelledby="answered-heading"
      className="rounded-xl border p-4"
      data-testid="answered-report"
    >
      <h2 id="answered-heading" className="font-semibold text-lg">
        The report you are answering: {report.scammer_name}
      </h2>
      <p className="text-muted-foreground text-sm">
        As its readers see it. Reported by a member on {formatDay(report.reported_at)}
        {report.reviewed_at ? (
          <>
            ,{' '}
            <Link to="/how-reports-are-reviewed" className="underline underline-offset-4">
              reviewed on {formatDay(report.reviewed_at)}
            </Link>
          </>
        ) : null}
        .
      </p>
      {report.public_summary ? (
        <div className="mt-3 rounded-lg border-primary border-l-4 bg-primary/5 p-3">
          <h3 className="font-medium text-sm">Summary by HighGrade's reviewers</h3>
          <p className="mt-1 whitespace-pre-line text-sm">{report.public_summary}</p>
        </div>
      ) : null}
      <h3 className="mt-4 font-medium text-sm">The member's account</h3>
      <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-2">
        {(
          [
            ['business_name', report.business_name],
            ['location', report.location],
            ['amount_scammed', formatAmount(report.amount_scammed)],
            ['date_of_incident', report.date_of_incident ? formatDay(report.date_of_incident) : null],
            ['contact_info', report.contact_info],
            ['scammer_description', report.scammer_description],
            ['incident_details', report.incident_details],
          ] as const
        ).map(([field, text]) => (
          <div
            key={field}
            className={field.endsWith('details') || field === 'scammer_description' ? 'sm:col-span-2' : ''}
          >
            <dt className="text-muted-foreground text-xs uppercase tracking-wide">{label(field)}</dt>
            <dd className="whitespace-pre-line">{value(field, text)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const STATUS_LABELS = { pending: 'Waiting for review', accepted: 'Accepted', declined: 'Declined' } as const;

function OwnReplies({ id }: { id: string }) {
  const userId = useConfirmedUserId();
  const query = useQuery(ownRepliesQueryOptions(userId, id));
  if (query.isPending) return <Skeleton className="h-16" />;
  if (query.isError) {
    return (
      <p role="alert" className="text-destructive dark:text-red-400">
        {errorText(query.error)}
      </p>
    );
  }
  if (query.data.length === 0) return null;
  return (
    <section aria-labelledby="own-replies-heading">
      <h2 id="own-replies-heading" className="font-semibold text-lg">
        What you sent
      </h2>
      <ul className="mt-2 grid gap-2">
        {query.data.map((reply) => (
          <li key={reply.id} className="rounded-lg border p-3">
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">{REPLY_KINDS.find(([key]) => key === reply.kind)?.[1]}</span>
              <span className="text-muted-foreground">sent {formatDay(reply.created_at)}</span>
              <Badge variant={reply.status === 'declined' ? 'destructive' : 'outline'}>
                {STATUS_LABELS[reply.status]}
              </Badge>
            </div>
            <p className="mt-1 line-clamp-3 whitespace-pre-line text-sm">{reply.body}</p>
            {reply.decision_note ? (
              <p className="mt-1 text-sm">
                <span className="font-medium">Note from the reviewers: </span>
                {reply.decision_note}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
