import { useQuery } from '@tanstack/react-query';
import { FilePlus2, Newspaper, Star } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Pager, QueryState } from '#web/components/layout/list-states.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { NativeSelect } from '#web/components/ui/native-select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { adminPostsQueryOptions, POSTS_PAGE_SIZE, useDeletePost } from '../api/admin-posts.ts';
import {
  type AdminPost,
  POST_SORTS,
  type PostFilters,
  parsePostFilters,
  postFiltersSearch,
  postState,
  STATE_LABELS,
} from '../posts.ts';

const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('en-US', {
        month: 'short',
        day: 'numeric',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      })
    : '—';

function DeletePost({ post }: { post: AdminPost }) {
  const remove = useDeletePost();
  return (
    <ConfirmButton
      variant="ghost"
      size="sm"
      disabled={remove.isPending}
      title="Delete this post?"
      description={`"${post.title}" is removed from the news feed and the home page. This cannot be undone.`}
      confirmLabel="Delete post"
      destructive
      onConfirm={() =>
        remove.mutateAsync(post.id).then(
          () => toast({ title: 'Post deleted' }),
          (error: unknown) =>
            toast({ variant: 'destructive', title: 'Failed to delete post', description: errorText(error) }),
        )
      }
    >
      Delete
    </ConfirmButton>
  );
}

/** Every post, newest first, with its state; the page number is in the URL. */
export function PostsList() {
  const [params, setParams] = useSearchParams();
  const filters = parsePostFilters(params);
  const { page } = filters;
  const change = (patch: Partial<PostFilters>) =>
    setParams(new URLSearchParams(postFiltersSearch({ ...filters, page: 1, ...patch })));
  const list = useQuery(adminPostsQueryOptions(filters));
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / POSTS_PAGE_SIZE));

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Button asChild>
          <Link to="new">
            <FilePlus2 aria-hidden="true" />
            New post
          </Link>
        </Button>
        <fieldset className="flex flex-wrap gap-3">
          <legend className="sr-only">Filter and sort</legend>
          <div className="grid gap-1.5">
            <Label htmlFor="posts-state">State</Label>
            <NativeSelect
              id="posts-state"
              value={filters.state ?? ''}
              onChange={(event) => change({ state: (event.target.value || null) as PostFilters['state'] })}
            >
              <option value="">All posts</option>
              <option value="published">Published</option>
              <option value="scheduled">Scheduled</option>
              <option value="draft">Drafts</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="posts-sort">Sort by</Label>
            <NativeSelect
              id="posts-sort"
              value={filters.sort}
              onChange={(event) => change({ sort: event.target.value === 'oldest' ? 'oldest' : 'newest' })}
            >
              {Object.entries(POST_SORTS).map(([key, sort]) => (
                <option key={key} value={key}>
                  {sort.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        </fieldset>
      </div>
      {list.isPending || list.isError ? (
        <QueryState what="posts" query={list} />
      ) : list.data.rows.length === 0 ? (
        <EmptyState icon={Newspaper} title={filters.state ? 'No posts in this state' : 'No posts yet'}>
          {filters.state
            ? 'Choose another state, or show all posts.'
            : 'Posts the team writes appear in the news feed; featured ones also on the home page.'}
        </EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-xl border">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">
                Posts, {POST_SORTS[filters.sort].label.toLowerCase()}, page {page} of {pages}
              </caption>
              <thead className="bg-muted/50 text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Title
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    State
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Publishes
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((post) => {
                  const state = postState(post);
                  return (
                    <tr key={post.id} className="border-t">
                      <td className="px-4 py-3">
                        <Link
                          to={post.id}
                          className="font-medium text-primary underline-offset-4 hover:underline"
                        >
                          {post.title}
                        </Link>
                        {post.featured ? (
                          <span className="ml-2 inline-flex items-center gap-1 text-muted-foreground text-xs">
                            <Star aria-hidden="true" className="size-3" /> Featured
                          </span>
                        ) : null}
                      </td>
                      <td className="px-4 py-3">
                        <Badge variant={state === 'published' ? 'default' : 'outline'}>
                          {STATE_LABELS[state]}
                        </Badge>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3 text-muted-foreground">
                        {state === 'draft' ? '—' : when(post.publishAt ?? post.createdAt)}
                      </td>
                      <td className="px-4 py-3 text-right">
                        <DeletePost post={post} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager
            label="posts"
            summary={`${total.toLocaleString('en-US')} post${total === 1 ? '' : 's'} · page ${page} of ${pages}`}
            page={page}
            pages={pages}
            onPage={(next) =>
              setParams(next > 1 ? new URLSearchParams({ page: String(next) }) : new URLSearchParams())
            }
          />
        </>
      )}
    </div>
  );
}
