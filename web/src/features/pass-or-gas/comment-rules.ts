/** The database's limit of a comment's length (product_comments_content_length). */
export const COMMENT_MAX_LENGTH = 2000;

/** The database's limit of a report's reason (product_comment_reports_reason_length). */
export const REPORT_REASON_MAX_LENGTH = 500;

/** The no-script-markup rule of product §input-rules, checked before sending (the database checks again). */
const SCRIPT_MARKUP =
  /<\s*\/?\s*script|javascript\s*:|vbscript\s*:|\bon(load|click|error|mouseover|focus)\s*=/i;

/** What is wrong with a comment's text before it is sent, or null when nothing is. */
export function commentProblem(content: string): string | null {
  const length = content.trim().length;
  if (length === 0) return 'Comment is required.';
  if (length > COMMENT_MAX_LENGTH) return `Comment must be between 1 and ${COMMENT_MAX_LENGTH} characters.`;
  if (SCRIPT_MARKUP.test(content)) return 'Comment must not contain script markup.';
  return null;
}
