import { Badge } from '#web/components/ui/badge.tsx';
import { type BookingStatus, STATUS_LABELS } from '../admin-bookings.ts';

const VARIANT: Record<BookingStatus, 'default' | 'secondary' | 'destructive' | 'outline'> = {
  new: 'outline',
  confirmed: 'default',
  declined: 'destructive',
  completed: 'secondary',
};

export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return <Badge variant={VARIANT[status]}>{STATUS_LABELS[status]}</Badge>;
}
