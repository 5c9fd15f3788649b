import { ArrowLeft, LogIn, MessageSquareReply } from 'lucide-react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { PageContainer, PageHeader } from '#web/components/layout/page-header.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { useDocumentTitle } from '#web/lib/use-document-title.ts';
import { AnsweredReport } from './answered-report.tsx';
import { OwnReplies } from './own-replies.tsx';
import { ReplyForm } from './reply-form.tsx';

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
