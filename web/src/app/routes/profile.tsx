import { ArrowLeft, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { PageContainer } from '../../components/layout/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader } from '../../components/ui/card.tsx';
import { useAuth } from '../../features/auth/hooks/use-auth.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/**
 * Spec §2 Profile. A visitor is asked to sign in; the member's settings, tabs and summary card
 * arrive with the profile issue, so a member sees the page's title and their account for now.
 */
export default function ProfilePage() {
  useDocumentTitle('Profile');
  const { user } = useAuth();
  if (user) {
    return (
      <PageContainer className="max-w-3xl py-12">
        <Button asChild variant="ghost" className="-ml-3">
          <Link to="/">
            <ArrowLeft aria-hidden="true" />
            Back to home
          </Link>
        </Button>
        <h1 className="mt-4 font-bold text-3xl tracking-tight">Profile Settings</h1>
        <p className="mt-2 text-muted-foreground">
          Signed in as <span className="font-medium text-foreground">{user.email}</span>.
        </p>
      </PageContainer>
    );
  }
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
