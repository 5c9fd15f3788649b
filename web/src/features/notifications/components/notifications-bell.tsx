import { Bell } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '#web/components/ui/button.tsx';
import { useHydrated } from '#web/lib/use-hydrated.ts';
import { useNotifications } from '../hooks/use-notifications.ts';
import { formatUnreadCount } from '../notifications-state.ts';

const loadPanel = () => import('./notifications-panel.tsx');
// The popover machinery (positioning, dismissal) loads on first use, not with every page.
const NotificationsPanel = lazy(loadPanel);

export interface NotificationsBellProps {
  signedIn: boolean;
  /** Whose notifications to load and follow; null for a visitor, or until the session is confirmed. */
  userId: string | null;
}

/**
 * The notifications bell of the top navigation (product §notifications): unread badge capped at 99+, and its
 * panel.
 */
export function NotificationsBell({ signedIn, userId }: NotificationsBellProps) {
  const notifications = useNotifications(userId);
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // A portal needs the page's body: not in the build's prerender, nor while hydrating it (decision 157).
  const hydrated = useHydrated();
  const { unread } = notifications;
  const label = unread > 0 ? `Notifications, ${formatUnreadCount(unread)} unread` : 'Notifications';

  return (
    <>
      <Button
        ref={button}
        variant="ghost"
        size="icon"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? 'notifications-panel' : undefined}
        className="relative"
        onPointerEnter={() => void loadPanel().catch(() => {})}
        onClick={() => {
          setUsed(true);
          if (!open) notifications.reload();
          setOpen((value) => !value);
        }}
      >
        <Bell aria-hidden="true" />
        {/* Beside the icon, not over it: it starts where the 16 px icon ends (the button's middle + 8 px). */}
        {unread > 0 ? (
          <span
            aria-hidden="true"
            data-testid="notifications-badge"
            className="pointer-events-none absolute top-0.5 left-1/2 ml-2 min-w-4 rounded-full bg-destructive px-1 text-center font-bold text-[0.625rem] text-destructive-foreground leading-4"
          >
            {formatUnreadCount(unread)}
          </span>
        ) : null}
      </Button>
      {/*
        New arrivals are announced here too: toasts can be dismissed or pile up, this stays. Outside the
        app's root: modal dialogs hide the page from assistive technology but keep live regions, and
        would keep everything around this one (the whole header) with it.
      */}
      {hydrated
        ? createPortal(
            <span role="status" aria-live="polite" className="sr-only">
              {notifications.announcement}
            </span>,
            document.body,
          )
        : null}
      {used ? (
        <Suspense fallback={null}>
          <NotificationsPanel
            open={open}
            onOpenChange={setOpen}
            anchor={button}
            signedIn={signedIn}
            notifications={notifications}
          />
        </Suspense>
      ) : null}
    </>
  );
}
