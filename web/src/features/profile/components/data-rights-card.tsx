import { Download, Trash2 } from 'lucide-react';
import { AlertDialog as AlertDialogPrimitive } from 'radix-ui';
import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '#web/components/ui/alert-dialog.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useSignOut } from '#web/lib/auth/hooks/use-sign-out.ts';
import { errorText } from '#web/lib/error-text.ts';
import { deleteUserData } from '../api/delete-user-data.ts';
import { exportUserData } from '../api/export-user-data.ts';
import { forgetDeletedSession } from '../api/forget-deleted-session.ts';
import { NoSessionError } from '../api/gdpr-function.ts';
import { downloadBlob } from '../download-blob.ts';
import { exportFileName } from '../privacy-settings.ts';
import { SectionCard } from './privacy-fields.tsx';

const authRequired = (description: string) =>
  toast({ variant: 'destructive', title: 'Authentication Required', description });

/** Product §data-rights: export everything held about the member, or delete the account after a confirmation. */
export function DataRightsCard({ userId }: { userId: string }) {
  const [exporting, setExporting] = useState(false);

  async function exportData() {
    setExporting(true);
    try {
      downloadBlob(await exportUserData(), exportFileName(userId));
      toast({ title: 'Data Export Complete', description: 'Your data has been exported successfully.' });
    } catch (error) {
      if (error instanceof NoSessionError) authRequired('Please sign in to export your data.');
      else toast({ variant: 'destructive', title: 'Export Failed', description: errorText(error) });
    } finally {
      setExporting(false);
    }
  }

  return (
    <SectionCard title="Data Rights (GDPR)" description="Get a copy of your data or delete your account.">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h4 className="font-medium text-sm">Export your data</h4>
          <p className="text-muted-foreground text-sm">
            Download everything we hold about you as a JSON file.
          </p>
        </div>
        <Button variant="outline" disabled={exporting} onClick={() => void exportData()}>
          <Download aria-hidden="true" />
          {exporting ? 'Exporting...' : 'Export My Data'}
        </Button>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <h4 className="font-medium text-sm">Delete your account</h4>
          <p className="text-muted-foreground text-sm">
            Permanently delete your account and all of your data.
          </p>
        </div>
        <DeleteAccount />
      </div>
    </SectionCard>
  );
}

/** Delete My Account, and the dialog that says what goes and asks for the confirmation. */
function DeleteAccount() {
  const signOut = useSignOut();
  const [deleting, setDeleting] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);

  async function deleteData() {
    setDeleting(true);
    try {
      const message = await deleteUserData();
      setConfirmOpen(false);
      toast({ title: 'Data Deletion Initiated', description: message });
      // §data-rights: after account deletion the user is signed out (and, as with any sign-out, goes to /).
      await forgetDeletedSession();
      await signOut();
    } catch (error) {
      setConfirmOpen(false);
      if (error instanceof NoSessionError) authRequired('Please sign in to delete your data.');
      else toast({ variant: 'destructive', title: 'Deletion Failed', description: errorText(error) });
    } finally {
      setDeleting(false);
    }
  }

  return (
    <AlertDialog open={confirmOpen} onOpenChange={(open) => !deleting && setConfirmOpen(open)}>
      <AlertDialogPrimitive.Trigger asChild>
        <Button variant="destructive">
          <Trash2 aria-hidden="true" />
          Delete My Account
        </Button>
      </AlertDialogPrimitive.Trigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete your account?</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="grid gap-3 text-muted-foreground text-sm">
            <p>This will permanently delete:</p>
            <ul className="list-disc pl-5">
              <li>Your profile information</li>
              <li>Your reviews and comments</li>
              <li>Your bookings and submissions</li>
              <li>All personal data</li>
            </ul>
            <p className="font-medium text-foreground">This action cannot be undone.</p>
          </div>
        </AlertDialogDescription>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <AlertDialogPrimitive.Cancel asChild>
            <Button variant="outline" disabled={deleting}>
              Cancel
            </Button>
          </AlertDialogPrimitive.Cancel>
          <Button variant="destructive" disabled={deleting} onClick={() => void deleteData()}>
            {deleting ? 'Deleting...' : 'Delete Everything'}
          </Button>
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
