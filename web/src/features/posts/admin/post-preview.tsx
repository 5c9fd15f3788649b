import { useQuery } from '@tanstack/react-query';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { postPreviewQueryOptions } from './api/preview-post.ts';

/** The Preview tab: the server's rendering of the Markdown, sanitised there — the same HTML saving stores. */
export function PostPreview({ content }: { content: string }) {
  const preview = useQuery(postPreviewQueryOptions(content));
  if (content.trim() === '') return <p className="text-muted-foreground text-sm">Nothing to preview yet.</p>;
  if (preview.isPending || preview.isError) return <QueryState what="preview" query={preview} />;
  return (
    <div
      className="prose-post max-w-none rounded-xl border p-4"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (decision 103).
      dangerouslySetInnerHTML={{ __html: preview.data }}
    />
  );
}
