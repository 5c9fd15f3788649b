import { useQuery } from '@tanstack/react-query';
import { FilePlus2, Newspaper, Star } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { SelectFilter } from '#web/components/ui/filter-form.tsx';
import {
  type Column,
  EmptyList,
  listCaption,
  PagedTable,
  RowLink,
  sortOptions,
  useListFilters,
} from '#web/components/ui/paged-table.tsx';
import {
  type AdminPost,
  POST_SORTS,
  POSTS_PAGE_SIZE,
  type PostFilters,
  parsePostFilters,
  postFiltersSearch,
  postState,
  STATE_LABELS,
} from '../posts.ts';
import { adminPostsQueryOptions } from './api/get-admin-posts.ts';
import { DeletePostButton } from './delete-post-button.tsx';

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

const COLUMNS: Column<AdminPost>[] = [
  {
    header: 'Title',
    cell: (post) => (
      <>
        <RowLink to={post.id}>{post.title}</RowLink>
        {post.featured ? (
          <span className="ml-2 inline-flex items-center gap-1 text-muted-foreground text-xs">
            <Star aria-hidden="true" className="size-3" /> Featured
          </span>
        ) : null}
      </>
    ),
  },
  {
    header: 'State',
    cell: (post) => {
      const state = postState(post);
      return <Badge variant={state === 'published' ? 'default' : 'outline'}>{STATE_LABELS[state]}</Badge>;
    },
  },
  {
    header: 'Publishes',
    className: 'whitespace-nowrap text-muted-foreground',
    cell: (post) => (postState(post) === 'draft' ? '—' : when(post.publishAt ?? post.createdAt)),
  },
  {
    header: <span className="sr-only">Actions</span>,
    className: 'text-right',
    cell: (post) => (
      <DeletePostButton post={post} variant="ghost" size="sm">
        Delete
      </DeletePostButton>
    ),
  },
];

function PostsFilters({
  filters,
  change,
}: {
  filters: PostFilters;
  change: (patch: Partial<PostFilters>) => void;
}) {
  return (
    <fieldset className="flex flex-wrap gap-3">
      <legend className="sr-only">Filter and sort</legend>
      <SelectFilter
        id="posts-state"
        label="State"
        value={filters.state}
        onChange={(value) => change({ state: (value || null) as PostFilters['state'] })}
        all="All posts"
        options={[
          ['published', 'Published'],
          ['scheduled', 'Scheduled'],
          ['draft', 'Drafts'],
        ]}
      />
      <SelectFilter
        id="posts-sort"
        label="Sort by"
        value={filters.sort}
        onChange={(value) => change({ sort: value === 'oldest' ? 'oldest' : 'newest' })}
        options={sortOptions(POST_SORTS)}
      />
    </fieldset>
  );
}

/** Every post, newest first, with its state; the filters and the page are in the URL. */
export function PostsList() {
  const { filters, change, paging } = useListFilters(parsePostFilters, postFiltersSearch);
  const list = useQuery(adminPostsQueryOptions(filters));

  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Button asChild>
          <Link to="new">
            <FilePlus2 aria-hidden="true" />
            New post
          </Link>
        </Button>
        <PostsFilters filters={filters} change={change} />
      </div>
      <PagedTable
        what="posts"
        query={list}
        empty={
          <EmptyList
            icon={Newspaper}
            filtered={filters.state !== null}
            none={[
              'No posts yet',
              'Posts the team writes appear in the news feed; featured ones also on the home page.',
            ]}
            noMatch={['No posts in this state', 'Choose another state, or show all posts.']}
          />
        }
        caption={(pages, approximate) =>
          listCaption('Posts', POST_SORTS[filters.sort].label, filters.page, pages, approximate)
        }
        columns={COLUMNS}
        minWidth="min-w-[40rem]"
        paging={paging(['post', 'posts'], POSTS_PAGE_SIZE)}
      />
    </div>
  );
}
