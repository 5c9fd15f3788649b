import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { useForm } from '#web/lib/use-form.ts';
import type { AdminReport } from './admin-report.ts';
import { brandSearchQueryOptions } from './api/find-brands.ts';
import { linkedBrandQueryOptions } from './api/get-brand.ts';
import type { ReviewStep } from './review-step.ts';

/** The brand the report is about (public.brands), or none: found by name as the admin types. */
export function BrandLink({ report, step }: { report: AdminReport; step: ReviewStep }) {
  const headingId = useId();
  const form = useForm({ text: '' }, { maxLength: { text: 100 } });
  const current = useQuery(linkedBrandQueryOptions(report.brand_id));
  const found = useQuery(brandSearchQueryOptions(form.values.text));
  return (
    <section aria-labelledby={headingId} className="grid gap-2 rounded-xl border p-4">
      <h4 id={headingId} className="font-medium">
        Brand
      </h4>
      <p className="text-sm">
        {report.brand_id === null ? (
          'Not linked to a brand.'
        ) : current.data ? (
          <>
            Linked to{' '}
            <Link to={`/brand-directory/${current.data.slug}`} className="font-medium hover:underline">
              {current.data.name}
            </Link>
          </>
        ) : (
          'Linked to a brand.'
        )}
        {report.brand_id !== null ? (
          <Button
            variant="link"
            size="sm"
            disabled={step.pending}
            onClick={() => void step.run({ brand_id: null }, 'Brand link removed')}
          >
            Remove the link
          </Button>
        ) : null}
      </p>
      <InputField label="Find a brand" type="search" {...form.field('text')} />
      {found.data && found.data.length > 0 ? (
        <ul className="grid gap-1" aria-label="Brands found">
          {found.data.map((brand) => (
            <li key={brand.id}>
              <Button
                variant="outline"
                size="sm"
                disabled={step.pending || brand.id === report.brand_id}
                onClick={() => void step.run({ brand_id: brand.id }, `Linked to ${brand.name}`)}
              >
                Link to {brand.name}
              </Button>
            </li>
          ))}
        </ul>
      ) : found.data ? (
        <p className="text-muted-foreground text-sm">No brand by that name.</p>
      ) : null}
    </section>
  );
}
