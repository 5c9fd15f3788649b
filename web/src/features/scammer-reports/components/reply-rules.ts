/** The right of reply's rule for the message (decision 126); the database holds the same lengths. */

export const REPLY_BODY_MIN = 20;
export const REPLY_BODY_MAX = 2000;

/** The message's problem before it is sent (its length, spaces around it aside), or null. */
export function replyProblem(body: string): string | null {
  const length = body.trim().length;
  return length < REPLY_BODY_MIN || length > REPLY_BODY_MAX
    ? `Your message must be between ${REPLY_BODY_MIN} and ${REPLY_BODY_MAX} characters.`
    : null;
}
