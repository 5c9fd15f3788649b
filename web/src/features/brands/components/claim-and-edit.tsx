import { Pencil, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { errorText } from '#web/lib/error-text.ts';
import { useFieldRefusal } from '#web/lib/use-form.ts';
import { useClaimBrand, useProfileUpdate } from '../api/brands.ts';
import { removeStoredLogo, storedLogoPath } from '../logo/logo.ts';
import { LogoField } from '../logo/logo-field.tsx';
import { useLogoUploads } from '../logo/use-logo-uploads.ts';
import type { Brand, BrandPageData } from '../types.ts';

/** The columns of a claim and of a representative's edit, and the inputs that write them (decision 180). */
const CLAIM_INPUTS = { role_title: 'claim-role', message: 'claim-message' };
const PROFILE_INPUTS = {
  description: 'profile-description',
  website: 'profile-website',
  social_links: 'profile-links',
};

const HTTPS = /^https:\/\/[^\s/?#<>"]+[^\s<>"]*$/i;
const HTTP = /^https?:\/\/[^\s/?#<>"]+[^\s<>"]*$/i;

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
  const [role, setRole] = useState('');
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The database's refusal at the field it concerns (decision 180): the claim's columns and their inputs.
  const refusal = useFieldRefusal(CLAIM_INPUTS);
  const submit = useClaimBrand(brand.id);

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
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (role.trim().length < 2) {
                setProblem('Say your role at the brand in 2 to 100 characters.');
                return;
              }
              if (!userId) return;
              setProblem(null);
              refusal.clear();
              submit.mutate(
                { userId, roleTitle: role.trim(), message: message.trim() },
                {
                  onSuccess: () => {
                    setOpen(false);
                    toast({
                      title: 'Claim sent',
                      description: "An admin will review it; you'll get a notification.",
                    });
                  },
                  onError: (error) => setProblem(refusal.show(error) ?? errorText(error)),
                },
              );
            }}
          >
            <div className="grid gap-1.5">
              <Label htmlFor="claim-role">Your role at the brand</Label>
              <Input
                id="claim-role"
                maxLength={100}
                value={role}
                {...refusal.mark('role_title')}
                onChange={(e) => {
                  setRole(e.target.value);
                  refusal.clear();
                }}
              />
              {refusal.errorFor('role_title') ? (
                <FieldError id={refusal.errorId('role_title')} error={refusal.errorFor('role_title')} />
              ) : null}
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="claim-message">How can an admin confirm it? (optional)</Label>
              <Textarea
                id="claim-message"
                maxLength={2000}
                value={message}
                {...refusal.mark('message')}
                onChange={(e) => {
                  setMessage(e.target.value);
                  refusal.clear();
                }}
              />
              {refusal.errorFor('message') ? (
                <FieldError id={refusal.errorId('message')} error={refusal.errorFor('message')} />
              ) : null}
            </div>
            {problem ? (
              <p role="alert" className="text-destructive text-sm">
                {problem}
              </p>
            ) : null}
            <Button type="submit" disabled={submit.isPending}>
              {submit.isPending ? 'Sending…' : 'Send claim'}
            </Button>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

/** A representative's edit: description, logo (uploaded, or an https address) and links — nothing else. */
export function EditProfile({ brand }: { brand: Brand }) {
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState(brand.description);
  const [logo, setLogo] = useState<string | null>(brand.logo_url);
  const [uploading, setUploading] = useState(false);
  const [website, setWebsite] = useState(brand.website ?? '');
  const [links, setLinks] = useState(brand.social_links.join('\n'));
  const [problem, setProblem] = useState<string | null>(null);
  const refusal = useFieldRefusal(PROFILE_INPUTS);
  const update = useProfileUpdate(brand.id);
  const uploads = useLogoUploads(brand.id);
  // Closed without saving: files uploaded meanwhile go, and the field shows the saved logo again.
  const openChange = (next: boolean) => {
    if (!next) {
      uploads.discard();
      setLogo(brand.logo_url);
    }
    setOpen(next);
  };

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const social = links
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const logoUrl = logo?.trim() ?? '';
    if (logoUrl && !HTTPS.test(logoUrl) && !storedLogoPath(logoUrl, brand.id))
      return setProblem('The logo must be an https:// address of an image.');
    if (website.trim() && !HTTP.test(website.trim()))
      return setProblem('The website must be a full http:// or https:// address.');
    if (social.length > 10 || social.some((url) => !HTTP.test(url)))
      return setProblem('Each social link must be a full http:// or https:// address (at most 10).');
    setProblem(null);
    refusal.clear();
    update.mutate(
      { description, logo_url: logoUrl, website: website.trim(), social_links: social },
      {
        onSuccess: () => {
          if (brand.logo_url !== (logoUrl || null)) void removeStoredLogo(brand.logo_url, brand.id);
          uploads.keep(logoUrl || null);
          setOpen(false);
          toast({ title: 'Brand profile saved' });
        },
        onError: (error) => setProblem(refusal.show(error) ?? errorText(error)),
      },
    );
  }

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
      <Dialog open={open} onOpenChange={openChange}>
        <DialogContent className="max-w-lg">
          <DialogTitle>Edit {brand.name}</DialogTitle>
          <DialogDescription>Changes show on the brand's page right away.</DialogDescription>
          <form className="grid gap-4" onSubmit={submit}>
            <div className="grid gap-1.5">
              <Label htmlFor="profile-description">Description</Label>
              <Textarea
                id="profile-description"
                maxLength={4000}
                rows={5}
                value={description}
                {...refusal.mark('description')}
                onChange={(e) => {
                  setDescription(e.target.value);
                  refusal.clear();
                }}
              />
              {refusal.errorFor('description') ? (
                <FieldError id={refusal.errorId('description')} error={refusal.errorFor('description')} />
              ) : null}
            </div>
            <fieldset className="grid gap-1.5">
              <legend className="mb-1 font-medium text-sm">Logo</legend>
              <LogoField
                brandId={brand.id}
                idPrefix="profile"
                value={logo}
                onChange={setLogo}
                onProblem={setProblem}
                onBusy={setUploading}
                onUploaded={uploads.add}
              />
            </fieldset>
            <div className="grid gap-1.5">
              <Label htmlFor="profile-website">Website</Label>
              <Input
                id="profile-website"
                inputMode="url"
                value={website}
                {...refusal.mark('website')}
                onChange={(e) => {
                  setWebsite(e.target.value);
                  refusal.clear();
                }}
              />
              {refusal.errorFor('website') ? (
                <FieldError id={refusal.errorId('website')} error={refusal.errorFor('website')} />
              ) : null}
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="profile-links">Social links (one per line)</Label>
              <Textarea
                id="profile-links"
                rows={3}
                value={links}
                {...refusal.mark('social_links')}
                onChange={(e) => {
                  setLinks(e.target.value);
                  refusal.clear();
                }}
              />
              {refusal.errorFor('social_links') ? (
                <FieldError id={refusal.errorId('social_links')} error={refusal.errorFor('social_links')} />
              ) : null}
            </div>
            {problem ? (
              <p role="alert" className="text-destructive text-sm">
                {problem}
              </p>
            ) : null}
            <Button type="submit" disabled={update.isPending || uploading}>
              {update.isPending ? 'Saving…' : 'Save'}
            </Button>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
