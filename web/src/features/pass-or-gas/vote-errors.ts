import { errorMessageOf, errorText } from '#web/lib/error-text.ts';

/** The database's own messages for refused votes and comments, written for members (decision 116). */
const MEMBER_MESSAGES = [
  'Confirm your email address before voting.',
  'There is no product with this id.',
  'This product is archived: voting on it has closed.',
  'This product is archived: comments have closed.',
  'You cannot report your own comment.',
  'A moderator has hidden this comment: it can no longer be edited.',
  'This comment has been hidden.',
];

/** What to tell the member when a vote or comment write fails. */
export function writeErrorText(error: unknown): string {
  const message = errorMessageOf(error);
  if (MEMBER_MESSAGES.includes(message)) return message;
  if (error && typeof error === 'object' && 'code' in error && error.code === '23505') {
    return message.includes('product_comment_reports')
      ? 'You have already reported this comment.'
      : errorText(error);
  }
  return errorText(error);
}
