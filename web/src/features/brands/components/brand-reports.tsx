import { FileWarning } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import type { BrandPageData } from '../types.ts';
import { dateText } from './brand-badges.tsx';

/** The published reports linked to the brand: how many, when, who may read them, and replying. */
export function Reports({
  data,
  signedIn,
  onSignIn,
}: {
  data: BrandPageData;
  signedIn: boolean;
  onSignIn: () => void;
}) {
  const { count, dates, ids, has_access, is_representative } = data.reports;
  return (
    <Card data-testid="brand-reports">
      <CardHeader>
        <CardTitle level={2} className="flex items-center gap-2 text-lg">
          <FileWarning aria-hidden="true" className="size-5" />
          Scam reports by members
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {count === 0 ? (
          <p data-testid="report-summary">No published reports by members are linked to this brand.</p>
        ) : (
          <>
            <p className="font-medium" data-testid="report-summary">
              {count} published {count === 1 ? 'report' : 'reports'} by members
            </p>
            <p className="text-muted-foreground">
              {count > dates.length ? `The latest ${dates.length} were filed on ` : 'Filed on '}
              {dates.map((date) => dateText(date)).join(', ')}. Reports are members' accounts of what happened
              to them, reviewed before publication; they are not a verdict on the brand.
            </p>
            {is_representative ? (
              <p>As an approved representative of this brand you read its reports free of charge.</p>
            ) : has_access ? (
              <Button asChild variant="outline" className="justify-self-start">
                <Link to={`/scammer-database?brand=${data.brand.id}`}>Read the reports</Link>
              </Button>
            ) : signedIn ? (
              <p>
                The reports' details are for members with Scammer Network access (a subscription or an active
                trial).{' '}
                <Link className="font-medium text-primary hover:underline" to="/profile?tab=subscription">
                  Get access
                </Link>
              </p>
            ) : (
              <p>
                The reports' details are for members with Scammer Network access.{' '}
                <button type="button" className="font-medium text-primary hover:underline" onClick={onSignIn}>
                  Sign in
                </button>{' '}
                to subscribe or start a trial.
              </p>
            )}
            <section aria-labelledby="brand-reply-heading" className="grid gap-2 border-t pt-3">
              <h3 id="brand-reply-heading" className="font-semibold">
                Named in a report? Reply
              </h3>
              <p className="text-muted-foreground">
                The people and businesses a report names can send a reply, a correction or a takedown request;
                the reviewers decide on each and tell the sender.{' '}
                <Link className="font-medium text-primary hover:underline" to="/how-reports-are-reviewed">
                  How reports are reviewed
                </Link>
              </p>
              <ul className="grid gap-1">
                {ids.map((id, index) => (
                  <li key={id} className="flex flex-wrap items-center gap-x-3">
                    {is_representative ? (
                      <Link
                        className="font-medium text-primary hover:underline"
                        to={`/scammer-database/${id}`}
                      >
                        Read the report filed on {dateText(dates[index] ?? '')}
                      </Link>
                    ) : null}
                    <Link
                      className="font-medium text-primary hover:underline"
                      to={`/scammer-database/${id}/reply`}
                    >
                      Reply to the report filed on {dateText(dates[index] ?? '')}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}
