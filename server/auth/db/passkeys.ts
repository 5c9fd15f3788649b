import type { Queryable } from '../../db/driver.ts';
import { one } from '../../db/sql.ts';

/**
 * The auth service's SQL: passkeys (auth.webauthn_credentials, auth.webauthn_challenges; decision 149).
 * Every value is a bind parameter; the service runs as the connecting (owner) role, as GoTrue runs as
 * supabase_auth_admin, so no request scope applies.
 */

// ----------------------------------------------------------------------------------------------
// Passkeys (auth.webauthn_credentials, auth.webauthn_challenges; decision 149)
// ----------------------------------------------------------------------------------------------

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: string;
  transports: string[];
  friendly_name: string;
  created_at: string;
  last_used_at: string | null;
}

const PASSKEY_COLUMNS = `id, user_id, encode(credential_id, 'base64') as credential_id,
  encode(public_key, 'base64') as public_key, sign_count::text as sign_count, transports, friendly_name,
  created_at, last_used_at`;

export async function passkeysOfUser(tx: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await tx.query<PasskeyRow>(
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

export function findPasskeyByCredentialId(
  tx: Queryable,
  credentialId: Buffer,
): Promise<PasskeyRow | undefined> {
  return one<PasskeyRow>(
    tx,
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where credential_id = $1 for update`,
    [credentialId],
  );
}

export function findPasskey(tx: Queryable, userId: string, id: string): Promise<PasskeyRow | undefined> {
  return one<PasskeyRow>(
    tx,
    `select ${PASSKEY_COLUMNS} from auth.webauthn_credentials where id = $1 and user_id = $2 for update`,
    [id, userId],
  );
}

export async function insertPasskey(
  tx: Queryable,
  passkey: {
    userId: string;
    credentialId: Buffer;
    publicKey: Buffer;
    aaguid: string | null;
    signCount: number;
    transports: string[];
    backupEligible: boolean;
    backedUp: boolean;
    friendlyName: string;
  },
): Promise<PasskeyRow> {
  const row = await one<PasskeyRow>(
    tx,
    `insert into auth.webauthn_credentials (user_id, credential_id, public_key, attestation_type, aaguid,
       sign_count, transports, backup_eligible, backed_up, friendly_name)
     values ($1, $2, $3, 'none', $4, $5, $6, $7, $8, $9)
     returning ${PASSKEY_COLUMNS}`,
    [
      passkey.userId,
      passkey.credentialId,
      passkey.publicKey,
      passkey.aaguid,
      passkey.signCount,
      JSON.stringify(passkey.transports),
      passkey.backupEligible,
      passkey.backedUp,
      passkey.friendlyName,
    ],
  );
  return row as PasskeyRow;
}

export async function passkeyUsed(tx: Queryable, id: string, signCount: number): Promise<void> {
  await tx.query(
    'update auth.webauthn_credentials set sign_count = $2, last_used_at = now(), updated_at = now() where id = $1',
    [id, signCount],
  );
}

export async function renamePasskey(tx: Queryable, id: string, name: string): Promise<PasskeyRow> {
  return (await one<PasskeyRow>(
    tx,
    `update auth.webauthn_credentials set friendly_name = $2, updated_at = now() where id = $1
     returning ${PASSKEY_COLUMNS}`,
    [id, name],
  )) as PasskeyRow;
}

export async function deletePasskey(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.webauthn_credentials where id = $1', [id]);
}

export async function insertWebAuthnChallenge(
  tx: Queryable,
  challenge: {
    userId: string | null;
    type: 'registration' | 'authentication';
    sessionData: Record<string, unknown>;
    expirySeconds: number;
  },
): Promise<{ id: string; expires_at: string }> {
  return (await one<{ id: string; expires_at: string }>(
    tx,
    `insert into auth.webauthn_challenges (user_id, challenge_type, session_data, expires_at)
     values ($1, $2, $3, now() + make_interval(secs => $4)) returning id, expires_at`,
    [challenge.userId, challenge.type, JSON.stringify(challenge.sessionData), challenge.expirySeconds],
  )) as { id: string; expires_at: string };
}

/** Takes (deletes and returns) a challenge of this type and user: each is answered at most once. */
export function takeWebAuthnChallenge(
  tx: Queryable,
  id: string,
  type: 'registration' | 'authentication',
  userId: string | null,
): Promise<{ session_data: Record<string, unknown>; expired: boolean } | undefined> {
  return one(
    tx,
    `delete from auth.webauthn_challenges
     where id = $1 and challenge_type = $2 and user_id is not distinct from $3
     returning session_data, expires_at <= now() as expired`,
    [id, type, userId],
  );
}
