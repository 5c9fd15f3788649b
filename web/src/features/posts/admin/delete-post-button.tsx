import type { ButtonProps } from '#web/components/ui/button.tsx';
import { ConfirmButton } from '#web/components/ui/confirm-button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import type { AdminPost } from '../posts.ts';
import { useDeletePost } from './api/delete-post.ts';

/** Deletes the post once confirmed; `onDeleted` runs after (the editor goes back to the list). */
export function DeletePostButton({
  post,
  variant,
  size,
  children,
  onDeleted,
}: {
  post: AdminPost;
  variant: ButtonProps['variant'];
  size?: ButtonProps['size'];
  children: string;
  onDeleted?: () => void;
}) {
  const remove = useDeletePost();
  return (
    <ConfirmButton
      variant={variant}
      size={size}
      disabled={remove.isPending}
      title="Delete this post?"
      description={`"${post.title}" is removed from the news feed and the home page. This cannot be undone.`}
      confirmLabel="Delete post"
      destructive
      onConfirm={() =>
        remove.mutateAsync(post.id).then(
          () => {
            toast({ title: 'Post deleted' });
            onDeleted?.();
          },
          (error: unknown) =>
            toast({ variant: 'destructive', title: 'Failed to delete post', description: errorText(error) }),
        )
      }
    >
      {children}
    </ConfirmButton>
  );
}
