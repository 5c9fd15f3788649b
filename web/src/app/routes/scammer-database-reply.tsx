import { useParams } from 'react-router';
import { ReplyPage } from '#web/features/scammer-reports/components/reply-page.tsx';
import { useLayoutContext } from '../layout/layout-context.ts';

/** /scammer-database/:id/reply: open to every signed-in member (decision 126), not only readers. */
export default function ScammerDatabaseReplyPage() {
  const { id = '' } = useParams();
  const { openSignIn } = useLayoutContext();
  return <ReplyPage key={id} id={id} onSignIn={openSignIn} />;
}
