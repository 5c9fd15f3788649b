import { useParams } from 'react-router';
import { PublicProfileView } from '#web/features/profile/components/public-profile-view.tsx';
import { useReaderId } from '#web/lib/auth/hooks/use-auth.ts';

/** `/u/:username`: a member's public profile (product §public-profile). */
export default function MemberProfilePage() {
  const { username = '' } = useParams();
  const viewer = useReaderId();
  return <PublicProfileView key={username} username={username} viewer={viewer} />;
}
