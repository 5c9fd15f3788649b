import { useParams } from 'react-router';
import { PublicProfileView } from '#web/features/profile/components/public-profile-view.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';

/** `/u/:username`: a member's public profile (product §public-profile). */
export default function MemberProfilePage() {
  const { username = '' } = useParams();
  const { user, confirmed } = useAuth();
  // A stored session asks as its member once supabase-js has confirmed it, never first as a visitor.
  const viewer = user === null ? null : confirmed ? user.id : undefined;
  return <PublicProfileView key={username} username={username} viewer={viewer} />;
}
