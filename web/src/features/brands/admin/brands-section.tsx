import { useQuery } from '@tanstack/react-query';
import { Plus, Store } from 'lucide-react';
import { cloneElement, isValidElement, type ReactElement, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { SampleRetirementNotice } from '#web/components/layout/sample-retirement-notice.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { type Refusal, refusalNote, refusalOf } from '#web/lib/refusals.ts';
import { removeStoredLogo } from '../logo/logo.ts';
import { LogoField } from '../logo/logo-field.tsx';
import { useLogoUploads } from '../logo/use-logo-uploads.ts';
import { BRAND_CATEGORIES, type Brand, US_STATES } from '../types.ts';
import {
  type AdminClaim,
  adminBrandsQueryOptions,
  adminClaimsQueryOptions,
  type BrandInput,
  useBrandWrite,
} from './admin-api.ts';
import { LicencesPanel } from './licences-panel.tsx';
import { RecheckNote, ShownVerification } from './shown-verification.tsx';
import { VerificationSelect } from './verification-select.tsx';

const EMPTY: BrandInput = {
  name: '',
  slug: '',
  description: '',
  logo_url: null,
  website: null,
  social_links: [],
  states: [],
  city: null,
  categories: [],
  licence_number: null,
  licence_state: null,
  licence_type: null,
  licence_expires_on: null,
  verification: 'unverified',
  verified_at: null,
  verification_note: null,
};

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const today = () => new Date().toISOString().slice(0, 10);

/** The brand form's inputs and the columns they write, so a refusal shows under its field (decision 180). */
const BRAND_INPUT_COLUMNS: Record<string, string> = {
  'brand-name': 'name',
  'brand-slug': 'slug',
  'brand-city': 'city',
  'brand-states': 'states',
  'brand-logo': 'logo_url',
  'brand-website': 'website',
  'brand-description': 'description',
  'brand-links': 'social_links',
  'brand-licence-number': 'licence_number',
  'brand-licence-state': 'licence_state',
  'brand-licence-type': 'licence_type',
  'brand-licence-expires': 'licence_expires_on',
  'brand-verification': 'verification',
  'brand-verified-on': 'verified_at',
  'brand-evidence': 'verification_note',
};

function BrandForm({ initial, onDone }: { initial: Brand | null; onDone: () => void }) {
  const [values, setValues] = useState<BrandInput>(() => {
    if (!initial) return EMPTY;
    const {
      id: _i,
      shown_verification: _v,
      archived_at: _a,
      merged_into: _m,
      is_sample: _s,
      created_at: _c,
      updated_at: _u,
      ...rest
    } = initial;
    return rest;
  });
  const [links, setLinks] = useState(values.social_links.join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  // A database refusal that concerns one field (decision 180): shown under that field, the input marked.
  const [refused, setRefused] = useState<Refusal | null>(null);
  const [uploading, setUploading] = useState(false);
  const uploads = useLogoUploads(initial?.id);
  const write = useBrandWrite();
  const set = (patch: Partial<BrandInput>) => setValues((current) => ({ ...current, ...patch }));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) return setProblem('Name is required.');
    if (
      values.verification === 'verified' &&
      (!values.licence_number || !values.licence_state || (values.verification_note ?? '').trim().length < 3)
    ) {
      return setProblem(
        'A verified licence needs its number, issuing state, the verification date and an evidence note.',
      );
    }
    const input: BrandInput = {
      ...values,
      name: values.name.trim(),
      slug: values.slug.trim() || slugOf(values.name),
      social_links: links
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
      verified_at:
        values.verification === 'unverified'
          ? null
          : values.verified_at
            ? values.verified_at
            : `${today()}T12:00:00Z`,
    };
    setProblem(null);
    setRefused(null);
    // An edit sends only what changed: the licence panel below may have changed the primary licence
    // since this form opened, and its fields here must not write the old values back.
    const changed = initial
      ? (Object.fromEntries(
          Object.entries(input).filter(
            ([key, value]) =>
              JSON.stringify(value) !== JSON.stringify(initial[key as keyof BrandInput] ?? null),
          ),
        ) as Partial<BrandInput>)
      : input;
    write.mutate(initial ? { kind: 'update', id: initial.id, input: changed } : { kind: 'create', input }, {
      onSuccess: () => {
        if (initial && 'logo_url' in changed) void removeStoredLogo(initial.logo_url, initial.id);
        uploads.keep(input.logo_url);
        toast({ title: initial ? 'Brand saved' : 'Brand created' });
        onDone();
      },
      onError: (error) => {
        const refusal = refusalOf(error);
        const atField = refusal?.field ? Object.values(BRAND_INPUT_COLUMNS).includes(refusal.field) : false;
        setRefused(refusal && atField ? refusal : null);
        setProblem(refusal ? refusalNote(refusal, atField) : errorText(error));
      },
    });
  }

  const field = (id: string, label: string, input: React.ReactNode) => {
    const error = refused && BRAND_INPUT_COLUMNS[id] === refused.field ? refused.message : null;
    const marked =
      error && isValidElement(input)
        ? cloneElement(input as ReactElement<Record<string, unknown>>, {
            'aria-invalid': true,
            'aria-describedby': `${id}-error`,
          })
        : input;
    return (
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{label}</Label>
        {marked}
        {error ? (
          <p id={`${id}-error`} className="text-destructive text-sm dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <form onSubmit={submit} className="grid gap-4 rounded-lg border p-4" aria-labelledby="brand-form-title">
      <h3 id="brand-form-title" className="font-semibold">
        {initial ? `Edit ${initial.name}` : 'New brand'}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        {field(
          'brand-name',
          'Name',
          <Input
            id="brand-name"
            maxLength={120}
            value={values.name}
            onChange={(e) => set({ name: e.target.value })}
          />,
        )}
        {field(
          'brand-slug',
          'Address (slug; empty: made from the name)',
          <Input
            id="brand-slug"
            maxLength={80}
            value={values.slug}
            onChange={(e) => set({ slug: e.target.value })}
          />,
        )}
        {field(
          'brand-city',
          'City',
          <Input
            id="brand-city"
            maxLength={120}
            value={values.city ?? ''}
            onChange={(e) => set({ city: orNull(e.target.value) })}
          />,
        )}
        {field(
          'brand-states',
          'States (two-letter codes, comma-separated)',
          <Input
            id="brand-states"
            value={values.states.join(', ')}
            onChange={(e) =>
              set({
                states: e.target.value
                  .split(',')
                  .map((s) => s.trim().toUpperCase())
                  .filter(Boolean),
              })
            }
          />,
        )}
        {initial
          ? null
          : field(
              'brand-logo',
              'Logo address (https://…; upload a file after creating the brand)',
              <Input
                id="brand-logo"
                inputMode="url"
                value={values.logo_url ?? ''}
                onChange={(e) => set({ logo_url: orNull(e.target.value) })}
              />,
            )}
        {field(
          'brand-website',
          'Website',
          <Input
            id="brand-website"
            inputMode="url"
            value={values.website ?? ''}
            onChange={(e) => set({ website: orNull(e.target.value) })}
          />,
        )}
      </div>
      {initial ? (
        <fieldset className="grid gap-1.5">
          <legend className="mb-1 font-medium text-sm">Logo</legend>
          <LogoField
            brandId={initial.id}
            idPrefix="brand"
            value={values.logo_url}
            onChange={(url) => set({ logo_url: url })}
            onProblem={setProblem}
            onBusy={setUploading}
            onUploaded={uploads.add}
          />
        </fieldset>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium text-sm">Categories</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {BRAND_CATEGORIES.map((category) => (
            <label key={category} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={values.categories.includes(category)}
                onChange={(e) =>
                  set({
                    categories: e.target.checked
                      ? [...values.categories, category]
                      : values.categories.filter((c) => c !== category),
                  })
                }
              />
              {category}
            </label>
          ))}
        </div>
      </fieldset>
      {field(
        'brand-description',
        'Description',
        <Textarea
          id="brand-description"
          maxLength={4000}
          value={values.description}
          onChange={(e) => set({ description: e.target.value })}
        />,
      )}
      {field(
        'brand-links',
        'Social links (one per line)',
        <Textarea id="brand-links" rows={2} value={links} onChange={(e) => setLinks(e.target.value)} />,
      )}
      <fieldset className="grid gap-4 rounded-md border p-3 sm:grid-cols-2">
        <legend className="px-1 font-medium text-sm">
          {initial ? 'Primary licence and verification' : 'Licence and verification'}
        </legend>
        {field(
          'brand-licence-number',
          'Licence number',
          <Input
            id="brand-licence-number"
            maxLength={64}
            value={values.licence_number ?? ''}
            onChange={(e) => set({ licence_number: orNull(e.target.value) })}
          />,
        )}
        {field(
          'brand-licence-state',
          'Issuing state',
          <NativeSelect
            id="brand-licence-state"
            value={values.licence_state ?? ''}
            onChange={(e) => set({ licence_state: orNull(e.target.value) })}
          >
            <option value="">Not stated</option>
            {US_STATES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </NativeSelect>,
        )}
        {field(
          'brand-licence-type',
          'Licence type',
          <Input
            id="brand-licence-type"
            maxLength={100}
            value={values.licence_type ?? ''}
            onChange={(e) => set({ licence_type: orNull(e.target.value) })}
          />,
        )}
        {field(
          'brand-licence-expires',
          'Licence expires on',
          <Input
            id="brand-licence-expires"
            type="date"
            value={values.licence_expires_on ?? ''}
            onChange={(e) => set({ licence_expires_on: orNull(e.target.value) })}
          />,
        )}
        {field(
          'brand-verification',
          'Verification',
          <VerificationSelect
            id="brand-verification"
            value={values.verification}
            onChange={(verification) => set({ verification })}
          />,
        )}
        {field(
          'brand-verified-on',
          'Verified on',
          <Input
            id="brand-verified-on"
            type="date"
            max={today()}
            disabled={values.verification === 'unverified'}
            value={values.verified_at ? values.verified_at.slice(0, 10) : ''}
            onChange={(e) => set({ verified_at: e.target.value ? `${e.target.value}T12:00:00Z` : null })}
          />,
        )}
        <div className="sm:col-span-2">
          {field(
            'brand-evidence',
            'Evidence note (what was checked, where)',
            <Textarea
              id="brand-evidence"
              maxLength={2000}
              rows={2}
              value={values.verification_note ?? ''}
              onChange={(e) => set({ verification_note: orNull(e.target.value) })}
            />,
          )}
        </div>
        {initial ? <RecheckNote shown={initial.shown_verification} checkedAt={initial.verified_at} /> : null}
      </fieldset>
      {problem ? (
        <p role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={write.isPending || uploading}>
          {write.isPending ? 'Saving…' : initial ? 'Save brand' : 'Create brand'}
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function MergeDialog({ from, onClose }: { from: Brand | null; onClose: () => void }) {
  const brands = useQuery({ ...adminBrandsQueryOptions('', false), enabled: from !== null });
  const [into, setInto] = useState('');
  const write = useBrandWrite();
  return (
    <Dialog open={from !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogTitle>Merge {from?.name}</DialogTitle>
        <DialogDescription>
          Its products, linked reports and claims move to the brand you keep, which also gains the licences it
          does not list yet; this one is archived and its address forwards there.
        </DialogDescription>
        <div className="grid gap-1.5">
          <Label htmlFor="merge-into">Brand to keep</Label>
          <NativeSelect id="merge-into" value={into} onChange={(e) => setInto(e.target.value)}>
            <option value="">Choose a brand</option>
            {(brands.data ?? [])
              .filter((brand) => brand.id !== from?.id)
              .map((brand) => (
                <option key={brand.id} value={brand.id}>
                  {brand.name} ({brand.slug})
                </option>
              ))}
          </NativeSelect>
        </div>
        <Button
          disabled={!into || write.isPending}
          onClick={() =>
            from &&
            write.mutate(
              { kind: 'merge', from: from.id, into },
              {
                onSuccess: () => {
                  toast({ title: 'Brands merged' });
                  setInto('');
                  onClose();
                },
                onError: (error) =>
                  toast({ variant: 'destructive', title: 'Not merged', description: errorText(error) }),
              },
            )
          }
        >
          Merge
        </Button>
      </DialogContent>
    </Dialog>
  );
}

function Claims() {
  const claims = useQuery(adminClaimsQueryOptions());
  const write = useBrandWrite();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const decide = (claim: AdminClaim, status: 'approved' | 'rejected' | 'revoked') =>
    write.mutate(
      { kind: 'claim', id: claim.id, status, note: orNull(notes[claim.id] ?? '') },
      {
        onSuccess: () => toast({ title: `Claim ${status}` }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }),
      },
    );
  return (
    <section aria-labelledby="claims-heading" className="grid gap-3">
      <h3 id="claims-heading" className="font-semibold text-lg">
        Claims by representatives
      </h3>
      {claims.isPending ? (
        <Skeleton className="h-20" />
      ) : claims.isError ? (
        <p className="text-destructive">{errorText(claims.error)}</p>
      ) : claims.data.length === 0 ? (
        <p className="text-muted-foreground text-sm">No pending or approved claims.</p>
      ) : (
        <ul className="grid gap-2">
          {claims.data.map((claim) => (
            <li key={claim.id} className="grid gap-2 rounded-lg border p-3" data-testid="admin-claim">
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
                    value={notes[claim.id] ?? ''}
                    onChange={(e) => setNotes({ ...notes, [claim.id]: e.target.value })}
                  />
                </div>
                {claim.status === 'pending' ? (
                  <>
                    <Button size="sm" onClick={() => decide(claim, 'approved')}>
                      Approve<span className="sr-only"> claim for {claim.brand_name}</span>
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => decide(claim, 'rejected')}>
                      Reject<span className="sr-only"> claim for {claim.brand_name}</span>
                    </Button>
                  </>
                ) : (
                  <Button size="sm" variant="outline" onClick={() => decide(claim, 'revoked')}>
                    Revoke<span className="sr-only"> representative of {claim.brand_name}</span>
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** /admin/brands: the brand directory (create, edit, verify a licence, archive, merge, claims). */
export function BrandsSection() {
  const [q, setQ] = useState('');
  const [archived, setArchived] = useState(false);
  const brands = useQuery(adminBrandsQueryOptions(q, archived));
  const write = useBrandWrite();
  const [editing, setEditing] = useState<Brand | 'new' | null>(null);
  const [merging, setMerging] = useState<Brand | null>(null);

  const setArchivedAt = (brand: Brand, archivedAt: string | null) =>
    write.mutate(
      { kind: 'update', id: brand.id, input: { archived_at: archivedAt } },
      {
        onSuccess: () => toast({ title: archivedAt ? 'Brand archived' : 'Brand restored' }),
        onError: (error) =>
          toast({ variant: 'destructive', title: 'Not saved', description: errorText(error) }),
      },
    );

  return (
    <section aria-labelledby="brands-heading" className="grid gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="brands-heading" className="font-semibold text-xl">
            Brands
          </h2>
          <p className="text-muted-foreground">
            The brand directory: profiles, licences and representatives.
          </p>
        </div>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          New brand
        </Button>
      </div>
      <SampleRetirementNotice area="brands" />
      {editing ? (
        <BrandForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {editing && editing !== 'new' ? (
        <LicencesPanel key={editing.id} brandId={editing.id} brandName={editing.name} />
      ) : null}
      <Claims />
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="admin-brand-search">Find a brand</Label>
          <Input id="admin-brand-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <label className="flex items-center gap-2 pb-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={archived}
            onChange={(e) => setArchived(e.target.checked)}
          />
          Show archived brands
        </label>
      </div>
      {brands.isPending ? (
        <Skeleton className="h-40" />
      ) : brands.isError ? (
        <p className="text-destructive">{errorText(brands.error)}</p>
      ) : brands.data.length === 0 ? (
        <EmptyState icon={Store} title={q ? 'No brands match' : 'No brands yet'} headingLevel={3}>
          {q ? 'Try another name.' : 'Create the first brand; the directory’s sample brands then disappear.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {brands.data.map((brand) => (
            <li
              key={brand.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              data-testid="admin-brand"
            >
              <div className="flex flex-wrap items-center gap-2">
                <Link className="font-medium hover:underline" to={`/brand-directory/${brand.slug}`}>
                  {brand.name}
                </Link>
                <ShownVerification
                  verification={brand.verification}
                  shown={brand.shown_verification}
                  checkedAt={brand.verified_at}
                />
                {brand.is_sample ? <Badge variant="outline">Sample</Badge> : null}
                {brand.archived_at ? <Badge variant="outline">Archived</Badge> : null}
              </div>
              <div className="flex flex-wrap gap-2">
                <Button size="sm" variant="outline" onClick={() => setEditing(brand)}>
                  Edit<span className="sr-only"> {brand.name}</span>
                </Button>
                {brand.archived_at ? (
                  <Button size="sm" variant="outline" onClick={() => setArchivedAt(brand, null)}>
                    Restore<span className="sr-only"> {brand.name}</span>
                  </Button>
                ) : (
                  <>
                    <Button size="sm" variant="outline" onClick={() => setMerging(brand)}>
                      Merge<span className="sr-only"> {brand.name}</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setArchivedAt(brand, new Date().toISOString())}
                    >
                      Archive<span className="sr-only"> {brand.name}</span>
                    </Button>
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <MergeDialog from={merging} onClose={() => setMerging(null)} />
    </section>
  );
}
