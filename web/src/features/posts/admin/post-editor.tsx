import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, ImagePlus, SearchX, X } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { QueryState } from '#web/components/layout/list-states.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Progress } from '#web/components/ui/progress.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { checkAvatarFile, SNIFF_BYTES } from '#web/lib/image-file.ts';
import { refusalNote, refusalOf } from '#web/lib/refusals.ts';
import {
  adminPostQueryOptions,
  previewPost,
  uploadPostMedia,
  useDeletePost,
  useSavePost,
} from '../api/admin-posts.ts';
import {
  type AdminPost,
  EMPTY_POST,
  POST_BODY_MAX,
  POST_MEDIA_MAX,
  POST_TITLE_MAX,
  type PostValues,
  postProblems,
  valuesOf,
} from '../posts.ts';

/** Images for the post (spec: community-review-media under admin-posts/), checked and uploaded with progress. */
function MediaPicker({
  urls,
  onChange,
  onInsert,
}: {
  urls: string[];
  onChange: (urls: string[]) => void;
  onInsert: (url: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const id = useId();

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
    const check = checkAvatarFile(file, head);
    if (!check.ok) {
      toast({ variant: 'destructive', title: check.title, description: check.description });
      return;
    }
    setProgress(0);
    try {
      const url = await uploadPostMedia(file, setProgress);
      onChange([...urls, url]);
      toast({
        title: 'Image uploaded',
        description: 'Insert it into the text, or keep it as the post’s media.',
      });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Failed to upload media', description: errorText(error) });
    } finally {
      setProgress(null);
    }
  };

  return (
    <fieldset className="grid gap-3 rounded-xl border p-4">
      <legend className="px-1 font-medium text-sm">Media</legend>
      <p id={`${id}-hint`} className="text-muted-foreground text-sm">
        JPEG, PNG, WebP or GIF images up to 5 MB; at most {POST_MEDIA_MAX}. The first one is the post’s
        picture in the news feed.
      </p>
      {urls.length > 0 ? (
        <ul aria-label="Uploaded media" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {urls.map((url, index) => (
            <li key={url} className="grid gap-2 rounded-lg border p-2">
              <img
                src={url}
                alt={`Media ${index + 1}`}
                className="aspect-video w-full rounded object-cover"
              />
              <div className="flex flex-wrap gap-1">
                <Button type="button" size="sm" variant="outline" onClick={() => onInsert(url)}>
                  Insert in text
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove media ${index + 1}`}
                  onClick={() => onChange(urls.filter((other) => other !== url))}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {progress !== null ? (
        <Progress value={Math.round(progress * 100)} aria-label="Upload progress" />
      ) : null}
      <div>
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          className="sr-only"
          aria-describedby={`${id}-hint`}
          aria-label="Choose an image to upload"
          tabIndex={-1}
          onChange={(event) => void pick(event)}
        />
        <Button
          type="button"
          variant="outline"
          disabled={progress !== null || urls.length >= POST_MEDIA_MAX}
          onClick={() => input.current?.click()}
        >
          <ImagePlus aria-hidden="true" />
          {progress !== null ? 'Uploading…' : 'Upload an image'}
        </Button>
      </div>
    </fieldset>
  );
}

function Preview({ content }: { content: string }) {
  const preview = useQuery({
    queryKey: ['posts', 'preview', { content }],
    queryFn: () => previewPost(content),
    enabled: content.trim() !== '',
  });
  if (content.trim() === '') return <p className="text-muted-foreground text-sm">Nothing to preview yet.</p>;
  if (preview.isPending || preview.isError) return <QueryState what="preview" query={preview} />;
  return (
    <div
      className="prose-post max-w-none rounded-xl border p-4"
      // The server's rendering, sanitised there: the same HTML saving stores.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (decision 103).
      dangerouslySetInnerHTML={{ __html: preview.data }}
    />
  );
}

function PostForm({ post }: { post: AdminPost | null }) {
  const navigate = useNavigate();
  const save = useSavePost();
  const remove = useDeletePost();
  const [values, setValues] = useState<PostValues>(post ? valuesOf(post) : EMPTY_POST);
  const [errors, setErrors] = useState<{ title?: string; content?: string }>({});
  const [tab, setTab] = useState('write');
  const set = (patch: Partial<PostValues>) => setValues((current) => ({ ...current, ...patch }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems = postProblems(values);
    setErrors(problems);
    if (problems.title || problems.content) {
      if (problems.content) setTab('write');
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: post?.id ?? null, values });
      toast({ title: post ? 'Post saved' : saved.status === 'draft' ? 'Draft saved' : 'Post created' });
      if (!post) navigate(`../${saved.id}`, { relative: 'path', replace: true });
    } catch (error) {
      // A rule the post broke is shown at its field and said to be final (decision 180).
      const refusal = refusalOf(error);
      const field = refusal?.field === 'title' || refusal?.field === 'content' ? refusal.field : null;
      if (refusal && field) {
        setErrors({ [field]: refusal.message });
        if (field === 'content') setTab('write');
      }
      toast({
        variant: 'destructive',
        title: post ? 'Failed to update post' : 'Failed to create post',
        description: refusal ? refusalNote(refusal, field !== null) : errorText(error),
      });
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      className="grid gap-5"
      aria-busy={save.isPending}
    >
      <InputField
        label="Title"
        required
        value={values.title}
        maxLength={POST_TITLE_MAX}
        error={errors.title}
        onChange={(event) => {
          set({ title: event.target.value });
          setErrors((current) => ({ ...current, title: undefined }));
        }}
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList aria-label="Content">
          <TabsTrigger value="write">Write</TabsTrigger>
          <TabsTrigger value="preview">Preview</TabsTrigger>
        </TabsList>
        <TabsContent value="write">
          <TextareaField
            label="Content (Markdown)"
            required
            rows={14}
            value={values.content}
            maxLength={POST_BODY_MAX}
            error={errors.content}
            hint={`Headings, **bold**, _italic_, lists, links and images. ${values.content.length.toLocaleString('en-US')} / ${POST_BODY_MAX.toLocaleString('en-US')} characters.`}
            onChange={(event) => {
              set({ content: event.target.value });
              setErrors((current) => ({ ...current, content: undefined }));
            }}
          />
        </TabsContent>
        <TabsContent value="preview">
          <Preview content={values.content} />
        </TabsContent>
      </Tabs>
      <MediaPicker
        urls={values.mediaUrls}
        onChange={(mediaUrls) => set({ mediaUrls })}
        onInsert={(url) =>
          set({
            content: `${values.content}${values.content.endsWith('\n') || values.content === '' ? '' : '\n\n'}![](${url})\n`,
          })
        }
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Status"
          value={values.status}
          onChange={(event) => set({ status: event.target.value === 'draft' ? 'draft' : 'published' })}
        >
          <option value="published">Published</option>
          <option value="draft">Draft</option>
        </SelectField>
        <InputField
          label="Publish time"
          type="datetime-local"
          value={values.publishAt}
          hint="Empty: as soon as it is saved as published."
          onChange={(event) => set({ publishAt: event.target.value })}
        />
        <div className="flex items-center gap-3 pt-6">
          <Switch
            id="post-featured"
            checked={values.featured}
            onCheckedChange={(featured) => set({ featured })}
          />
          <Label htmlFor="post-featured">Featured on the home page</Label>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : post ? 'Save post' : 'Create post'}
        </Button>
        {post ? (
          <ConfirmButton
            variant="destructive"
            disabled={remove.isPending}
            title="Delete this post?"
            description={`"${post.title}" is removed from the news feed and the home page. This cannot be undone.`}
            confirmLabel="Delete post"
            destructive
            onConfirm={() =>
              remove.mutateAsync(post.id).then(
                () => {
                  toast({ title: 'Post deleted' });
                  navigate('..', { relative: 'path' });
                },
                (error: unknown) =>
                  toast({
                    variant: 'destructive',
                    title: 'Failed to delete post',
                    description: errorText(error),
                  }),
              )
            }
          >
            Delete post
          </ConfirmButton>
        ) : null}
      </div>
    </form>
  );
}

/** /admin/posts/new and /admin/posts/<id>: write, preview, add media, schedule, feature, save. */
export function PostEditor() {
  const { id } = useParams();
  const existing = useQuery({ ...adminPostQueryOptions(id ?? ''), enabled: id !== undefined });
  return (
    <div className="grid gap-5">
      <div>
        <Button asChild variant="ghost" className="-ml-3">
          <Link to=".." relative="path">
            <ArrowLeft aria-hidden="true" />
            All posts
          </Link>
        </Button>
      </div>
      <h3 className="font-semibold text-lg">{id === undefined ? 'New post' : 'Edit post'}</h3>
      {id === undefined ? (
        <PostForm post={null} />
      ) : existing.isPending || existing.isError ? (
        <QueryState
          what="post"
          query={existing}
          loading={
            <>
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-72 w-full" />
            </>
          }
        />
      ) : existing.data === null ? (
        <EmptyState icon={SearchX} title="Post not found">
          There is no post with this address. It may have been deleted.
        </EmptyState>
      ) : (
        <PostForm key={existing.data.updatedAt} post={existing.data} />
      )}
    </div>
  );
}
