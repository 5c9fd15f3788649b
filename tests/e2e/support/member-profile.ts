import { randomBytes } from 'node:crypto';
import { expect } from '@playwright/test';
import { adminClient, createMember, type Member, type ServerInfo } from './api.ts';

export interface ProfileSubject {
  member: Member;
  username: string;
  productId: string;
  productName: string;
  comment: string;
}

/**
 * A member with a username, a bio, one Gas vote and one comment on a product of their own, arranged
 * with the service key (the public profile's tests are about what others see, not about voting).
 */
export async function profileSubject(server: ServerInfo): Promise<ProfileSubject> {
  const t = randomBytes(3).toString('hex');
  const member = await createMember(server, { fullName: `Robin Grower ${t}` });
  const username = `Robin_${t}`;
  const admin = adminClient(server);
  const profile = await admin
    .from('profiles')
    .update({ username, bio: 'Small-batch grower in Oakland.' })
    .eq('user_id', member.id);
  expect(profile.error).toBeNull();
  const productName = `Profile Haze ${t}`;
  const product = await admin
    .from('products')
    .insert({ name: productName, category: 'Flower', description: 'A product made for a browser test.' })
    .select('id')
    .single();
  expect(product.error).toBeNull();
  const productId = product.data?.id as string;
  const vote = await admin
    .from('product_votes')
    .insert({ user_id: member.id, product_id: productId, vote_type: 'gas' });
  expect(vote.error).toBeNull();
  const comment = `Dense buds, clean burn ${t}.`;
  const written = await admin
    .from('product_comments')
    .insert({ user_id: member.id, product_id: productId, content: comment });
  expect(written.error).toBeNull();
  return { member, username, productId, productName, comment };
}

export async function setPrivacy(
  server: ServerInfo,
  member: Member,
  settings: {
    profile_visibility: 'public' | 'private' | 'friends';
    show_email: boolean;
    show_activity: boolean;
  },
): Promise<void> {
  const { error } = await adminClient(server)
    .from('privacy_settings')
    .upsert({ user_id: member.id, ...settings }, { onConflict: 'user_id' });
  expect(error).toBeNull();
}
