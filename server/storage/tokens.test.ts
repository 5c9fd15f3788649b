import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { SignedUrls } from './tokens.ts';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
const urls = new SignedUrls(SECRET);

describe('signed download URLs', () => {
  it('verify for the object they name, until they expire', async () => {
    const token = await urls.signDownload('docs/a/b.txt', 60);
    const { expiresAt } = await urls.verifyDownload(token, 'docs/a/b.txt');
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now());
    await expect(urls.verifyDownload(token, 'docs/a/c.txt')).rejects.toMatchObject({
      status: 400,
      code: 'InvalidSignature',
    });
  });

  it('refuse expired, forged, alg:none and missing tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ url: 'docs/x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now - 10)
      .sign(new TextEncoder().encode(SECRET));
    await expect(urls.verifyDownload(expired, 'docs/x')).rejects.toMatchObject({ message: 'jwt expired' });
    const forged = await new SignJWT({ url: 'docs/x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('another-secret-of-sufficient-length!!'));
    await expect(urls.verifyDownload(forged, 'docs/x')).rejects.toMatchObject({
      message: 'invalid signature',
    });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ url: 'docs/x', exp: now + 60 }),
    ).toString('base64url')}.`;
    await expect(urls.verifyDownload(none, 'docs/x')).rejects.toMatchObject({ status: 400 });
    await expect(urls.verifyDownload(undefined, 'docs/x')).rejects.toMatchObject({ status: 400 });
    const forever = await new SignJWT({ url: 'docs/x' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    await expect(urls.verifyDownload(forever, 'docs/x')).rejects.toMatchObject({ status: 400 });
  });
});

describe('signed upload URLs', () => {
  it('carry who created them, the upsert flag and a unique id', async () => {
    const token = await urls.signUpload('docs/up.txt', { owner: 'user-1', role: 'authenticated' }, true, 60);
    const grant = await urls.verifyUpload(token, 'docs/up.txt');
    expect(grant).toMatchObject({ owner: 'user-1', role: 'authenticated', upsert: true });
    expect(grant.tokenId).toMatch(/^[0-9a-f-]{36}$/);
    const other = await urls.signUpload('docs/up.txt', { owner: undefined, role: 'service_role' }, false, 60);
    expect((await urls.verifyUpload(other, 'docs/up.txt')).tokenId).not.toBe(grant.tokenId);
  });

  it('never pass for an access token (no sub, no role claim)', async () => {
    const token = await urls.signUpload('docs/up.txt', { owner: 'user-1', role: 'authenticated' }, false, 60);
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
    expect(claims.sub).toBeUndefined();
    expect(claims.role).toBeUndefined();
  });

  it('are not interchangeable with download tokens', async () => {
    const upload = await urls.signUpload('docs/f', { owner: undefined, role: 'service_role' }, false, 60);
    const download = await urls.signDownload('docs/f', 60);
    await expect(urls.verifyDownload(upload, 'docs/f')).rejects.toMatchObject({ code: 'InvalidSignature' });
    await expect(urls.verifyUpload(download, 'docs/f')).rejects.toMatchObject({ code: 'InvalidSignature' });
  });
});
