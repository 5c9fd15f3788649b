/**
 * What an emailed link's redirect left in the address. GoTrue: a PKCE link (decision 165) adds
 * `?code=…` (with supabase-js's `sb_flow_id`, naming the verifier's slot); an implicit link
 * `#access_token=…&type=signup`; a refused link `#error=…&error_code=…&error_description=…`.
 */
export type LinkOutcome =
  | { kind: 'none' }
  | { kind: 'code'; code: string; flowId: string | null }
  | { kind: 'session'; accessToken: string }
  | { kind: 'error'; description: string };

export function parseLinkFragment(hash: string, search = ''): LinkOutcome {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.has('error') || params.has('error_code') || params.has('error_description')) {
    return {
      kind: 'error',
      description: params.get('error_description') || 'The link is invalid or has expired.',
    };
  }
  const query = new URLSearchParams(search.replace(/^\?/, ''));
  const code = query.get('code');
  if (code) return { kind: 'code', code, flowId: query.get('sb_flow_id') };
  const accessToken = params.get('access_token');
  return accessToken ? { kind: 'session', accessToken } : { kind: 'none' };
}
