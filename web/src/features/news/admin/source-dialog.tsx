import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { InputField } from '#web/components/ui/form-field.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useForm } from '#web/lib/use-form.ts';
import type { NewsSource } from './api/get-news-sources.ts';
import { useSaveNewsSource } from './api/save-news-source.ts';
import { type FeedTestResult, testNewsFeed } from './api/test-news-feed.ts';
import { SOURCE_MAX_LENGTH, validateSource } from './source-form.ts';

/** What a tested feed would bring: its title, format and first items, or why it could not be read. */
function FeedPreview({ result }: { result: FeedTestResult }) {
  if (!result.ok) {
    return (
      <p role="alert" className="rounded-md border border-destructive/50 p-3 text-destructive text-sm">
        The feed could not be read: {result.error}
      </p>
    );
  }
  return (
    <section aria-label="Feed preview" className="rounded-md border p-3 text-sm">
      <p className="font-medium">
        {result.title ?? 'Untitled feed'} — {result.format.toUpperCase()}, {result.item_count} item
        {result.item_count === 1 ? '' : 's'}
      </p>
      <ul className="mt-2 max-h-48 list-disc space-y-1 overflow-y-auto pl-5">
        {result.items.slice(0, 10).map((item) => (
          <li key={item.url}>{item.title}</li>
        ))}
      </ul>
    </section>
  );
}

/** A new source, or a source's changes, with a test of its feed before saving. */
export function SourceDialog({
  source,
  open,
  onOpenChange,
}: {
  source: NewsSource | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const form = useForm(
    { name: source?.name ?? '', feedUrl: source?.feed_url ?? '', category: source?.category ?? '' },
    { maxLength: SOURCE_MAX_LENGTH },
  );
  const save = useSaveNewsSource();
  const [testing, setTesting] = useState(false);
  const [preview, setPreview] = useState<FeedTestResult | null>(null);

  const runTest = async () => {
    const problems = validateSource(form.values);
    if (problems.feedUrl) {
      form.showErrors({ feedUrl: problems.feedUrl });
      return;
    }
    setTesting(true);
    try {
      setPreview(await testNewsFeed(form.values.feedUrl.trim()));
    } catch (error) {
      setPreview({ ok: false, error: errorText(error) });
    } finally {
      setTesting(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogTitle>{source ? `Edit ${source.name}` : 'Add a news source'}</DialogTitle>
        <DialogDescription>
          An RSS, Atom, RDF or JSON feed. Test it to see what it would bring before saving.
        </DialogDescription>
        <form
          ref={form.ref}
          noValidate
          className="grid gap-4"
          onSubmit={form.handleSubmit(async (values) => {
            if (form.showErrors(validateSource(values))) return;
            try {
              await save.mutateAsync({
                id: source?.id ?? null,
                input: {
                  name: values.name.trim(),
                  feedUrl: values.feedUrl.trim(),
                  category: values.category.trim(),
                },
              });
              toast({ title: source ? 'Source updated' : 'Source added', description: values.name.trim() });
              onOpenChange(false);
            } catch (error) {
              // A rule of the database also shows under its field (decision 180).
              const note = form.showRefusal(error);
              toast({ variant: 'destructive', title: 'Error', description: note ?? errorText(error) });
            }
          })}
        >
          <InputField label="Name" required {...form.field('name')} />
          <InputField label="Feed URL" required type="url" inputMode="url" {...form.field('feedUrl')} />
          <InputField
            label="Category"
            required
            hint="Shown as the article's badge and chip"
            {...form.field('category')}
          />
          {preview ? <FeedPreview result={preview} /> : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" variant="outline" onClick={() => void runTest()} disabled={testing}>
              {testing ? 'Testing…' : 'Test feed'}
            </Button>
            <Button type="submit" disabled={form.busy}>
              {form.busy ? 'Saving…' : 'Save source'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
