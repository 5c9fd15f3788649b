import { CheckCheck } from 'lucide-react';
import { type RefObject, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button.tsx';
import { Popover, PopoverAnchor, PopoverContent } from '#web/components/ui/popover.tsx';
import { cn } from '#web/lib/utils.ts';
import type { NotificationsController } from '../hooks/use-notifications.ts';
import { formatNotificationTime } from '../notifications-state.ts';

interface NotificationsPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The bell button, rendered by the eagerly loaded header; the panel positions itself against it. */
  anchor: RefObject<HTMLButtonElement | null>;
  signedIn: boolean;
  notifications: NotificationsController;
}

function NotificationList({
  notifications,
  onOpenLink,
}: {
  notifications: NotificationsController;
  onOpenLink: (link: string) => void;
}) {
  const { status, items, markRead } = notifications;
  if (status === 'error' && items.length === 0) {
    return (
      <div className="mt-3 grid gap-3 text-sm">
        <p className="text-muted-foreground">Your notifications could not be loaded.</p>
        <Button size="sm" variant="outline" onClick={notifications.reload}>
          Try Again
        </Button>
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <p className="mt-3 text-muted-foreground text-sm">
        {status === 'ready' ? 'You have no notifications yet.' : 'Loading notifications…'}
      </p>
    );
  }
  return (
    <ul aria-label="Latest notifications" className="-mx-2 mt-2 grid max-h-96 gap-1 overflow-y-auto">
      {items.map((item) => (
        <li key={item.id}>
          <button
            type="button"
            className={cn(
              'grid w-full cursor-pointer gap-0.5 rounded-md px-2 py-2 text-left text-sm hover:bg-accent hover:text-accent-foreground',
              !item.is_read && 'bg-secondary/60',
            )}
            aria-describedby={`notification-${item.id}-state`}
            onClick={() => {
              markRead(item);
              // The notification's link: what it is about (a booking, a report, the subscription).
              if (item.link) onOpenLink(item.link);
            }}
          >
            <span className="flex items-start gap-2">
              <span
                aria-hidden="true"
                className={cn(
                  'mt-1.5 size-2 shrink-0 rounded-full',
                  item.is_read ? 'bg-transparent' : 'bg-primary',
                )}
              />
              <span className={cn('flex-1', !item.is_read && 'font-semibold')}>{item.title}</span>
            </span>
            <span className="pl-4 text-muted-foreground">{item.message}</span>
            <span className="pl-4 text-muted-foreground text-xs">
              <time dateTime={item.created_at}>{formatNotificationTime(item.created_at)}</time>
              <span id={`notification-${item.id}-state`} className="sr-only">
                {item.is_read ? ', read' : ', unread'}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export default function NotificationsPanel({
  open,
  onOpenChange,
  anchor,
  signedIn,
  notifications,
}: NotificationsPanelProps) {
  const navigate = useNavigate();
  const skipFocusReturn = useRef(false);
  return (
    <Popover open={open} onOpenChange={onOpenChange}>
      <PopoverAnchor virtualRef={anchor as RefObject<HTMLButtonElement>} />
      <PopoverContent
        id="notifications-panel"
        aria-labelledby="notifications-heading"
        className="w-96"
        onInteractOutside={(event) => {
          // A click on the bell itself toggles the panel; the bell's own handler does that.
          if (anchor.current?.contains(event.target as Node)) event.preventDefault();
          else skipFocusReturn.current = true;
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (!skipFocusReturn.current) anchor.current?.focus();
          skipFocusReturn.current = false;
        }}
      >
        <div className="flex items-center justify-between gap-2">
          <h2 id="notifications-heading" className="font-semibold">
            Notifications
          </h2>
          {signedIn ? (
            <Button
              size="sm"
              variant="ghost"
              className="-mr-2"
              // Not `disabled`: that would drop the keyboard focus out of the panel once all are read.
              aria-disabled={notifications.unread === 0}
              onClick={notifications.markAllRead}
            >
              <CheckCheck aria-hidden="true" />
              Mark all read
            </Button>
          ) : null}
        </div>
        {signedIn ? (
          <NotificationList
            notifications={notifications}
            onOpenLink={(link) => {
              skipFocusReturn.current = true;
              onOpenChange(false);
              navigate(link);
            }}
          />
        ) : (
          <>
            <p className="mt-2 text-muted-foreground text-sm">Sign in to see your notifications.</p>
            <Button
              size="sm"
              className="mt-4 w-full"
              onClick={() => {
                skipFocusReturn.current = true;
                onOpenChange(false);
                navigate('/auth');
              }}
            >
              Sign In
            </Button>
          </>
        )}
      </PopoverContent>
    </Popover>
  );
}
