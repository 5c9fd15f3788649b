import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useParams } from 'react-router';
import { DetailFrame, DetailState } from '#web/components/layout/detail-shell.tsx';
import { EmptyState } from '#web/components/layout/empty-state.tsx';
import { Skeleton } from '#web/components/ui/skeleton.tsx';
import { adminPostQueryOptions } from './api/get-admin-post.ts';
import { PostForm } from './post-form.tsx';

/** /admin/posts/new and /admin/posts/<id>: write, preview, add media, schedule, feature, save. */
export function PostEditor() {
  const { id } = useParams();
  const existing = useQuery({ ...adminPostQueryOptions(id ?? ''), enabled: id !== undefined });
  return (
    <DetailFrame back={{ to: '..', label: 'All posts' }}>
      <h3 className="font-semibold text-lg">{id === undefined ? 'New post' : 'Edit post'}</h3>
      {id === undefined ? (
        <PostForm post={null} />
      ) : (
        <DetailState
          what="post"
          query={existing}
          loading={
            <>
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-72 w-full" />
            </>
          }
          notFound={
            <EmptyState icon={SearchX} title="Post not found">
              There is no post with this address. It may have been deleted.
            </EmptyState>
          }
        >
          {(post) => <PostForm key={post.updatedAt} post={post} />}
        </DetailState>
      )}
    </DetailFrame>
  );
}
