import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { BrandMark } from '#web/components/layout/brand-logo.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#web/components/ui/dialog.tsx';
import { getConfig } from '#web/lib/config.ts';
import { AUTH_TAB_DESCRIPTIONS, type AuthTab } from '../auth-tabs.ts';
import { AuthScreen } from './auth-screen.tsx';

interface AuthDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the dialog opened (a members-only action a visitor tried), said on the Sign In tab. */
  reason?: string | null;
}

/** The authentication screen inside a dialog (product §auth-screen), titled with the product's name. */
export default function AuthDialog({ open, onOpenChange, reason = null }: AuthDialogProps) {
  const [tab, setTab] = useState<AuthTab>('signin');
  // Opened again (from the store, not Radix's trigger): it starts on Sign In, where its reason is said.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setTab('signin');
  }
  const navigate = useNavigate();
  const { siteName } = getConfig();
  // Opened by a button outside Radix's Trigger (the header's, the drawer's), so the dialog is told
  // where the focus goes back to; not after signing in, when the new page takes it.
  const returnFocus = useRef<HTMLElement | null>(null);
  const leaving = useRef(false);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) setTab('signin');
        onOpenChange(next);
      }}
    >
      <DialogContent
        onOpenAutoFocus={() => {
          leaving.current = false;
          returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!leaving.current && returnFocus.current?.isConnected) returnFocus.current.focus();
        }}
      >
        <div className="flex flex-col items-center gap-1 text-center">
          <BrandMark className="size-10" />
          <DialogTitle className="mt-1">{siteName}</DialogTitle>
          <DialogDescription>
            {tab === 'signin' && reason ? reason : AUTH_TAB_DESCRIPTIONS[tab]}
          </DialogDescription>
        </div>
        <AuthScreen
          tab={tab}
          onTabChange={setTab}
          onSignedIn={() => {
            leaving.current = true;
            onOpenChange(false);
            navigate('/');
          }}
          onSocialStarted={() => {
            leaving.current = true;
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
