import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { type BrandLicence, stateName } from '../types.ts';
import { ShownVerification } from './shown-verification.tsx';

/** One licence in the panel: what it is, its verification as visitors see it, and what an admin may do. */
export function LicenceRow({
  licence,
  busy,
  onEdit,
  onMakePrimary,
  onRemove,
}: {
  licence: BrandLicence;
  /** A panel action is under way: "Make primary" waits. */
  busy: boolean;
  onEdit: () => void;
  onMakePrimary: () => void;
  onRemove: () => Promise<unknown>;
}) {
  const name = `${licence.state} ${licence.number}`;
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2"
      data-testid="admin-licence"
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium font-mono">{name}</span>
        <span className="text-muted-foreground">
          {stateName(licence.state)}
          {licence.type ? ` · ${licence.type}` : ''}
          {licence.expires_on ? ` · expires ${licence.expires_on}` : ''}
        </span>
        <ShownVerification
          verification={licence.verification}
          shown={licence.shown_verification}
          checkedAt={licence.verified_at}
        />
        {licence.is_primary ? <Badge variant="secondary">Primary</Badge> : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onEdit}>
          Edit<span className="sr-only"> licence {name}</span>
        </Button>
        {licence.is_primary ? null : (
          <Button size="sm" variant="outline" disabled={busy} onClick={onMakePrimary}>
            Make primary<span className="sr-only"> licence {name}</span>
          </Button>
        )}
        <ConfirmButton
          size="sm"
          variant="outline"
          title={`Remove licence ${name}?`}
          description="It disappears from the brand's page. The audit log keeps the record."
          confirmLabel="Remove licence"
          destructive
          onConfirm={onRemove}
        >
          Remove<span className="sr-only"> licence {name}</span>
        </ConfirmButton>
      </div>
    </li>
  );
}
