/**
 * What an emailed link's redirect left in the fragment (GoTrue: `#access_token=…&type=signup` on
 * success, `#error=…&error_code=…&error_description=…` on failure).
 */
export type LinkOutcome =
  | { kind: 'none' }
  | { kind: 'session'; accessToken: string }
  | { kind: 'error'; description: string };

export function parseLinkFragment(hash: string): LinkOutcome {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.has('error') || params.has('error_code') || params.has('error_description')) {
    return {
      kind: 'error',
      description: params.get('error_description') || 'The link is invalid or has expired.',
    };
  }
  const accessToken = params.get('access_token');
  return accessToken ? { kind: 'session', accessToken } : { kind: 'none' };
}
