import type { ReactNode } from 'react';
import { Badge } from '#web/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';

/** A vote as the profile pages show it: Gas or Pass, with its thumb. */
export function VoteBadge({ type }: { type: 'gas' | 'pass' }) {
  return (
    <Badge variant={type === 'gas' ? 'default' : 'secondary'}>{type === 'gas' ? '👍 Gas' : '👎 Pass'}</Badge>
  );
}

/** A tab of the member's activity (product §profile-activity): its title with the count, the list or what an empty one says. */
export function ActivityTabCard({
  title,
  isEmpty,
  emptyText,
  children,
}: {
  title: string;
  isEmpty: boolean;
  emptyText: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {isEmpty ? <p className="py-8 text-center text-muted-foreground">{emptyText}</p> : children}
      </CardContent>
    </Card>
  );
}
