import { UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '../../components/layout/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';
import { useAuth } from '../../features/auth/hooks/use-auth.ts';
import { ProfileView } from '../../features/profile/components/profile-view.tsx';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** Spec §2 Profile: a visitor is asked to sign in; a member gets their settings (ProfileView). */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const { user } = useAuth();
  if (user) return <ProfileView user={user} />;
  return (
    <PageContainer className="max-w-lg py-16">
      <Card className="text-center">
        <CardHeader className="items-center">
          <div className="flex size-14 items-center justify-center rounded-full bg-secondary text-primary">
            <UserRound aria-hidden="true" className="size-7" />
          </div>
          <h1 className="mt-2 font-bold text-2xl tracking-tight">Profile</h1>
        </CardHeader>
        <CardContent>
          <p className="text-muted-foreground">Please sign in to view your profile.</p>
          <Button asChild className="mt-6">
            <Link to="/auth">Sign In</Link>
          </Button>
        </CardContent>
      </Card>
    </PageContainer>
  );
}
