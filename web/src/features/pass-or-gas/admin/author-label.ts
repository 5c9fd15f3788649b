import type { ModerationItem } from './api/get-moderation-items.ts';

/** The comment's author as the queue names them: "Full Name (@username)", or what there is of it. */
export function authorLabel(author: ModerationItem['author']): string {
  if (!author) return 'a deleted account';
  const name = author.full_name?.trim();
  if (name && author.username) return `${name} (@${author.username})`;
  return name || (author.username ? `@${author.username}` : 'a member without a name');
}
