-- WebAuthn as an MFA factor (issue 24, decision 149), in GoTrue's columns: the factor's credential
-- (id, public key, signature counter, transports; public data) and its authenticator model, and the
-- challenge's session data (the expected challenge) between challenge and verify.
alter table auth.mfa_factors add column if not exists web_authn_credential jsonb;
alter table auth.mfa_factors add column if not exists web_authn_aaguid uuid;
alter table auth.mfa_challenges add column if not exists web_authn_session_data jsonb;
