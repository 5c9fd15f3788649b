/** The source form's rules (the database checks the same: news_sources constraints). */

export interface NewsSourceInput {
  name: string;
  feedUrl: string;
  category: string;
}

export const SOURCE_MAX_LENGTH = { name: 120, feedUrl: 2048, category: 40 } as const;

export function validateSource(input: NewsSourceInput): Partial<Record<keyof NewsSourceInput, string>> {
  const problems: Partial<Record<keyof NewsSourceInput, string>> = {};
  if (!input.name.trim()) problems.name = 'Name is required';
  else if (/[<>]/.test(input.name)) problems.name = 'HTML is not allowed';
  if (!input.category.trim()) problems.category = 'Category is required';
  else if (/[<>]/.test(input.category)) problems.category = 'HTML is not allowed';
  const url = input.feedUrl.trim();
  if (!url) problems.feedUrl = 'Feed URL is required';
  else if (!/^https?:\/\/[^\s/?#]+\S*$/i.test(url)) problems.feedUrl = 'Enter an http:// or https:// address';
  return problems;
}
