import { useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { useAuth } from '#web/lib/auth/hooks/use-auth.ts';
import { MyReports } from './my-reports.tsx';
import { ScammerReportForm } from './scammer-report-form.tsx';

/**
 * Product §report-dialog, with a My reports tab where the member follows their reports'
 * status (design.md "Scammer database"). Closing keeps nothing half-typed only after a successful
 * submission (§report-dialog: the dialog closes and the form clears); Cancel or Escape keep the draft.
 */
export default function ScammerReportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const auth = useAuth();
  const [tab, setTab] = useState('new');
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setTab('new');
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-w-2xl">
        <div className="grid gap-1 pr-8">
          <DialogTitle>Submit a Scammer Report</DialogTitle>
          <DialogDescription>
            Help protect the cannabis community by reporting scammers. Fields marked * are required.
          </DialogDescription>
        </div>
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="new">New report</TabsTrigger>
            <TabsTrigger value="mine">My reports</TabsTrigger>
          </TabsList>
          {/* Kept mounted while hidden, so switching tabs does not lose a draft. */}
          <TabsContent value="new" forceMount className="data-[state=inactive]:hidden">
            <ScammerReportForm onCancel={() => onOpenChange(false)} onSubmitted={() => onOpenChange(false)} />
          </TabsContent>
          <TabsContent value="mine">
            {auth.user ? (
              <MyReports userId={auth.user.id} />
            ) : (
              <p className="text-muted-foreground text-sm">Please sign in to see your reports.</p>
            )}
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
