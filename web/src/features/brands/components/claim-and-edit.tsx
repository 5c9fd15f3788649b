import { Pencil, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import type { Brand, BrandPageData } from '../types.ts';
import { ClaimForm } from './claim-form.tsx';
import { ProfileForm } from './profile-form.tsx';

/** "Claim this brand" (product §brand-directory): sign-in required; an admin approves after checking. */
export function ClaimBrand({
  brand,
  claim,
  signedIn,
  userId,
  onSignIn,
}: {
  brand: Brand;
  claim: BrandPageData['my_claim'];
  signedIn: boolean;
  userId: string | null;
  onSignIn: () => void;
}) {
  const [open, setOpen] = useState(false);
  let body: React.ReactNode;
  if (!signedIn || !userId) {
    body = (
      <p>
        Do you represent {brand.name}?{' '}
        <button type="button" className="font-medium text-primary hover:underline" onClick={onSignIn}>
          Sign in
        </button>{' '}
        to claim this brand.
      </p>
    );
  } else if (claim?.status === 'pending') {
    body = (
      <p data-testid="claim-status">
        Your claim is waiting for an admin's review. You will get a notification.
      </p>
    );
  } else {
    body = (
      <>
        <p>
          Representatives edit their brand's description, logo and links. The licence and its verification
          stay with HighGrade's admins.
          {claim?.status === 'rejected' ? ' Your earlier claim was not approved; you may ask again.' : ''}
        </p>
        <Button className="justify-self-start" onClick={() => setOpen(true)}>
          <UserCheck aria-hidden="true" />
          Claim this brand
        </Button>
      </>
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Represent this brand</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">{body}</CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle>Claim {brand.name}</DialogTitle>
          <DialogDescription>
            An admin checks that you represent the brand before approving. Tell them how to confirm it.
          </DialogDescription>
          {userId ? (
            <ClaimForm
              brandId={brand.id}
              userId={userId}
              onSent={() => {
                setOpen(false);
                toast({
                  title: 'Claim sent',
                  description: "An admin will review it; you'll get a notification.",
                });
              }}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** The representative's card on the brand page: what they may change, and the edit in a dialog. */
export function EditProfile({ brand }: { brand: Brand }) {
  const [open, setOpen] = useState(false);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">You represent this brand</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p>
          You can edit the description, logo and links. Licence details are changed by HighGrade's admins.
        </p>
        <Button className="justify-self-start" onClick={() => setOpen(true)}>
          <Pencil aria-hidden="true" />
          Edit brand profile
        </Button>
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-lg">
          <DialogTitle>Edit {brand.name}</DialogTitle>
          <DialogDescription>Changes show on the brand's page right away.</DialogDescription>
          <ProfileForm brand={brand} onSaved={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </Card>
  );
}
