import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { orNull } from '../brand-input.ts';
import { type ClaimDecision, useDecideBrandClaim } from './api/decide-brand-claim.ts';
import { type AdminClaim, adminClaimsQueryOptions, CLAIMS_SHOWN } from './api/get-brand-claims.ts';

/** One claim: who asks, why, a note to them, and the decision (or revoking an approved representative). */
function ClaimRow({ claim }: { claim: AdminClaim }) {
  const decide = useDecideBrandClaim();
  const [note, setNote] = useState('');
  const answer = (status: ClaimDecision['status']) =>
    decide.mutate(
      { id: claim.id, status, note: orNull(note) },
      {
        onSuccess: () => toast({ title: `Claim ${status}` }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }),
      },
    );
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid="admin-claim">
      <div className="flex flex-wrap items-center gap-2">
        <Link className="font-medium hover:underline" to={`/brand-directory/${claim.brand_slug}`}>
          {claim.brand_name}
        </Link>
        <Badge variant={claim.status === 'pending' ? 'outline' : 'secondary'}>{claim.status}</Badge>
        <span className="text-muted-foreground text-sm">
          {claim.role_title} · member {claim.user_id.slice(0, 8)} ·{' '}
          {new Date(claim.created_at).toLocaleDateString()}
        </span>
      </div>
      {claim.message ? <p className="whitespace-pre-wrap text-sm">{claim.message}</p> : null}
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid min-w-60 flex-1 gap-1.5">
          <Label htmlFor={`claim-note-${claim.id}`}>Note to the member (optional)</Label>
          <Input
            id={`claim-note-${claim.id}`}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {claim.status === 'pending' ? (
          <>
            <Button size="sm" onClick={() => answer('approved')}>
              Approve<span className="sr-only"> claim for {claim.brand_name}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={() => answer('rejected')}>
              Reject<span className="sr-only"> claim for {claim.brand_name}</span>
            </Button>
          </>
        ) : (
          <Button size="sm" variant="outline" onClick={() => answer('revoked')}>
            Revoke<span className="sr-only"> representative of {claim.brand_name}</span>
          </Button>
        )}
      </div>
    </li>
  );
}

/** One of the two lists: its heading, its claims, what it says when empty or cut. */
function ClaimList({
  id,
  title,
  claims,
  empty,
  cut,
}: {
  id: string;
  title: string;
  claims: AdminClaim[];
  empty: string;
  cut: string;
}) {
  return (
    <div className="grid gap-2">
      <h4 id={id} className="font-medium">
        {title}
      </h4>
      {claims.length === 0 ? (
        <p className="text-muted-foreground text-sm">{empty}</p>
      ) : (
        <ul aria-labelledby={id} className="grid gap-2">
          {claims.map((claim) => (
            <ClaimRow key={claim.id} claim={claim} />
          ))}
        </ul>
      )}
      {claims.length === CLAIMS_SHOWN ? <p className="text-muted-foreground text-sm">{cut}</p> : null}
    </div>
  );
}

/** Members' claims to represent a brand: pending ones to decide, approved ones to revoke. */
export function BrandClaims() {
  const claims = useQuery(adminClaimsQueryOptions());
  return (
    <section aria-labelledby="claims-heading" className="grid gap-3">
      <h3 id="claims-heading" className="font-semibold text-lg">
        Claims by representatives
      </h3>
      {claims.isPending ? (
        <Skeleton className="h-20" />
      ) : claims.isError ? (
        <p className="text-destructive">{errorText(claims.error)}</p>
      ) : (
        <>
          <ClaimList
            id="claims-pending"
            title="Waiting for a decision"
            claims={claims.data.pending}
            empty="No claims are waiting."
            cut={`The ${CLAIMS_SHOWN} oldest are shown; decide them to see the next.`}
          />
          <ClaimList
            id="claims-approved"
            title="Approved representatives"
            claims={claims.data.approved}
            empty="No approved representatives."
            cut={`The ${CLAIMS_SHOWN} most recently approved are shown.`}
          />
        </>
      )}
    </section>
  );
}
