import { useQuery } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { errorText } from '#web/lib/error-text.ts';
import { indicesQueryOptions } from '../api/get-indices.ts';
import { useVerifyIndex, type VerifyResult } from './api/verify-index.ts';

/** Recomputes each index from its inputs and says whether every stored value agrees. */
export function VerifyIndices() {
  const indices = useQuery(indicesQueryOptions());
  const verify = useVerifyIndex();
  const [results, setResults] = useState<Record<string, VerifyResult>>({});
  return (
    <section aria-labelledby="market-verify" className="space-y-3">
      <h3 id="market-verify" className="font-semibold text-lg">
        Verify the indices
      </h3>
      <p className="text-muted-foreground text-sm">
        Recomputes an index from its inputs and compares every stored value with the result.
      </p>
      {indices.isError ? (
        <p role="alert" className="text-destructive text-sm">
          {errorText(indices.error)}
        </p>
      ) : null}
      <ul className="space-y-3">
        {(indices.data ?? []).map((index) => {
          const result = results[index.slug];
          return (
            <li key={index.slug} className="flex flex-wrap items-center gap-3">
              <Button
                variant="outline"
                disabled={verify.isPending}
                onClick={() =>
                  verify.mutate(index.slug, {
                    onSuccess: (value) => setResults((current) => ({ ...current, [index.slug]: value })),
                  })
                }
              >
                <ShieldCheck aria-hidden="true" className="size-4" />
                Verify {index.name}
              </Button>
              {result ? (
                <span role="status" className={result.ok ? 'text-sm' : 'text-destructive text-sm'}>
                  {result.ok
                    ? `${result.checked} values recomputed: all equal to the stored values.`
                    : `${result.mismatches.length} of ${result.checked} values differ (first: ${result.mismatches[0]?.date}). Recompute the index.`}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {verify.isError ? (
        <p role="alert" className="text-destructive text-sm">
          The check failed: {errorText(verify.error)}
        </p>
      ) : null}
    </section>
  );
}
