import { Link } from 'react-router';
import {
  type ActivityProduct,
  formatDate,
  type ProductComment,
  type ProductVote,
  productPath,
} from '../profile-data.ts';
import { ActivityTabCard, VoteBadge } from './activity-parts.tsx';

/**
 * The product a vote or comment is about, by name and linking to its page, as the public profile shows
 * it; an archived product (no page any more) by its state.
 */
function ProductName({ productId, product }: { productId: string; product: ActivityProduct | null }) {
  if (!product) return <span className="font-medium text-muted-foreground">An archived product</span>;
  return (
    <Link to={productPath(productId)} className="font-medium underline-offset-4 hover:underline">
      {product.name}
    </Link>
  );
}

/** Product §profile-activity, Votes tab. */
export function VotesTab({ votes }: { votes: ProductVote[] }) {
  return (
    <ActivityTabCard
      title={`Voting History (${votes.length})`}
      isEmpty={votes.length === 0}
      emptyText="No votes yet. Start voting on products to see your history here!"
    >
      <ul className="grid gap-3">
        {votes.map((vote) => (
          <li key={vote.id} className="flex items-center justify-between gap-3 rounded-lg border p-4">
            <div className="grid min-w-0 gap-0.5">
              <ProductName productId={vote.product_id} product={vote.product} />
              <span className="text-muted-foreground text-sm">{formatDate(vote.created_at)}</span>
            </div>
            <VoteBadge type={vote.vote_type} />
          </li>
        ))}
      </ul>
    </ActivityTabCard>
  );
}

/** Product §profile-activity, Comments tab. */
export function CommentsTab({ comments }: { comments: ProductComment[] }) {
  return (
    <ActivityTabCard
      title={`Comments (${comments.length})`}
      isEmpty={comments.length === 0}
      emptyText="No comments yet. Start commenting on products to see them here!"
    >
      <ul className="grid gap-3">
        {comments.map((comment) => (
          <li key={comment.id} className="grid gap-2 rounded-lg border p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <ProductName productId={comment.product_id} product={comment.product} />
              <span className="text-muted-foreground text-sm">{formatDate(comment.created_at)}</span>
            </div>
            <p className="whitespace-pre-wrap text-sm">{comment.content}</p>
          </li>
        ))}
      </ul>
    </ActivityTabCard>
  );
}
