import { useQuery } from '@tanstack/react-query';
import { Megaphone } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '#web/components/ui/badge.tsx';
import { fullDate, postPath, relativeTime } from '#web/features/news/news-feed.ts';
import { cn } from '#web/lib/utils.ts';
import { excerpt } from './excerpt.ts';
import { featuredPostsQueryOptions, HOME_COUNTS } from './home-data.ts';
import { HomeSection, Slots } from './home-section.tsx';

const FEATURED_GRID = 'grid gap-4 md:grid-cols-3';
const FEATURED_ITEM = 'h-44';

export function FeaturedPosts() {
  const query = useQuery(featuredPostsQueryOptions());
  const posts = query.data ?? [];
  return (
    <HomeSection
      id="featured"
      title="Featured from the team"
      link="/news?category=Team"
      linkLabel="All team posts"
      icon={Megaphone}
      query={query}
      isEmpty={posts.length === 0}
      empty="No featured posts yet. When the team features a post, it appears here."
      boxClassName="min-h-44"
      heightEstimate="[--near-view-height:17rem] lg:[--near-view-height:15rem]"
      skeleton={
        <Slots count={HOME_COUNTS.featured} className={FEATURED_GRID} itemClassName={FEATURED_ITEM} />
      }
    >
      <ul className={FEATURED_GRID}>
        {posts.map((post) => (
          <li
            key={post.id}
            className={cn(FEATURED_ITEM, 'flex flex-col rounded-xl border bg-card p-4 shadow-sm')}
          >
            <Badge className="self-start">From the team</Badge>
            <h3 className="mt-2 line-clamp-2 font-semibold text-lg leading-snug">
              <Link to={postPath(post.id)} className="hover:underline focus-visible:underline">
                {post.title}
              </Link>
            </h3>
            <p className="mt-1 line-clamp-2 text-muted-foreground text-sm">{excerpt(post.content)}</p>
            <time
              dateTime={post.publishedAt}
              title={fullDate(post.publishedAt)}
              className="mt-auto text-muted-foreground text-xs"
            >
              {relativeTime(post.publishedAt)}
            </time>
          </li>
        ))}
      </ul>
    </HomeSection>
  );
}
