import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { InputField, SelectField, TextareaField } from '#web/components/ui/form-field.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { refusalOf } from '#web/lib/refusals.ts';
import { useForm } from '#web/lib/use-form.ts';
import {
  type AdminPost,
  EMPTY_POST,
  POST_BODY_MAX,
  POST_TITLE_MAX,
  type PostValues,
  postProblems,
  valuesOf,
  withImage,
} from '../posts.ts';
import { useSavePost } from './api/save-post.ts';
import { DeletePostButton } from './delete-post-button.tsx';
import { MediaPicker } from './post-media-picker.tsx';
import { PostPreview } from './post-preview.tsx';

/** The post's text fields (useForm); whether it is featured and its media are state of their own. */
type PostText = Pick<PostValues, 'title' | 'content' | 'publishAt'> & { status: string };

/** A new post (null) or a saved one: write, preview, add media, schedule, feature, save or delete. */
export function PostForm({ post }: { post: AdminPost | null }) {
  const navigate = useNavigate();
  const save = useSavePost();
  const first = post ? valuesOf(post) : EMPTY_POST;
  const form = useForm<PostText>(
    { title: first.title, content: first.content, status: first.status, publishAt: first.publishAt },
    { maxLength: { title: POST_TITLE_MAX, content: POST_BODY_MAX } },
  );
  const [featured, setFeatured] = useState(first.featured);
  const [mediaUrls, setMediaUrls] = useState(first.mediaUrls);
  const [tab, setTab] = useState('write');
  const { content } = form.values;

  const onSubmit = form.handleSubmit(async (text) => {
    const values: PostValues = {
      ...text,
      status: text.status === 'draft' ? 'draft' : 'published',
      featured,
      mediaUrls,
    };
    const problems = postProblems(values);
    if (form.showErrors(problems)) {
      if (problems.content) setTab('write');
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: post?.id ?? null, values });
      toast({ title: post ? 'Post saved' : saved.status === 'draft' ? 'Draft saved' : 'Post created' });
      if (!post) navigate(`../${saved.id}`, { relative: 'path', replace: true });
    } catch (error) {
      // A rule the post broke is shown at its field and said to be final (decision 180).
      const note = form.showRefusal(error);
      if (refusalOf(error)?.field === 'content') setTab('write');
      toast({
        variant: 'destructive',
        title: post ? 'Failed to update post' : 'Failed to create post',
        description: note ?? errorText(error),
      });
    }
  });

  return (
    <form ref={form.ref} noValidate onSubmit={onSubmit} className="grid gap-5" aria-busy={save.isPending}>
      <InputField label="Title" required {...form.field('title')} />
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
            hint={`Headings, **bold**, _italic_, lists, links and images. ${content.length.toLocaleString('en-US')} / ${POST_BODY_MAX.toLocaleString('en-US')} characters.`}
            {...form.field('content')}
          />
        </TabsContent>
        <TabsContent value="preview">
          <PostPreview content={content} />
        </TabsContent>
      </Tabs>
      <MediaPicker
        urls={mediaUrls}
        onChange={setMediaUrls}
        onInsert={(url) => form.setValues({ ...form.values, content: withImage(content, url) })}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField label="Status" {...form.field('status')}>
          <option value="published">Published</option>
          <option value="draft">Draft</option>
        </SelectField>
        <InputField
          label="Publish time"
          type="datetime-local"
          hint="Empty: as soon as it is saved as published."
          {...form.field('publishAt')}
        />
        <div className="flex items-center gap-3 pt-6">
          <Switch id="post-featured" checked={featured} onCheckedChange={setFeatured} />
          <Label htmlFor="post-featured">Featured on the home page</Label>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : post ? 'Save post' : 'Create post'}
        </Button>
        {post ? (
          <DeletePostButton
            post={post}
            variant="destructive"
            onDeleted={() => navigate('..', { relative: 'path' })}
          >
            Delete post
          </DeletePostButton>
        ) : null}
      </div>
    </form>
  );
}
