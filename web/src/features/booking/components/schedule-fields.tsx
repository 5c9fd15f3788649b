import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Calendar } from '#web/components/ui/calendar.tsx';
import { FieldError } from '#web/components/ui/form-field.tsx';
import { cn } from '#web/lib/utils.ts';
import { takenSlotsQueryOptions } from '../api/get-taken-slots.ts';
import {
  BOOKING_HORIZON_DAYS,
  BOOKING_TIME_ZONE_LABEL,
  BOOKING_TIME_ZONE_SHORT,
  formatBookingDate,
  slotInZone,
  slotWithZone,
  startOfToday,
  TIME_SLOTS,
} from '../booking.ts';

const longDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'full' });

/** The reader's own time zone (IANA name), to show a chosen slot on their clock too. */
function readerTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

interface ScheduleFieldsProps {
  date: Date | undefined;
  time: string | undefined;
  onDateChange: (date: Date | undefined) => void;
  onTimeChange: (time: string | undefined) => void;
  /** The schedule's problem (no date, no time, or a day that is not offered). */
  error: string | null | undefined;
}

/**
 * The date (from tomorrow to the booking horizon) and the time slot, in the team's time zone; slots
 * admins already confirmed are shown taken.
 */
export function ScheduleFields({ date, time, onDateChange, onTimeChange, error }: ScheduleFieldsProps) {
  const timeLegend = useId();
  const scheduleError = useId();
  // "Earlier than now" is judged when the page opens; a tab left open past midnight still gets the
  // server's check.
  const [today] = useState(() => startOfToday());
  const lastDay = new Date(today.getFullYear(), today.getMonth(), today.getDate() + BOOKING_HORIZON_DAYS);
  // No same-day sessions (issue 21 item 10): tomorrow is the first day offered; the server agrees.
  const firstDay = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const taken = useQuery(takenSlotsQueryOptions(firstDay, lastDay));
  const isTaken = (day: Date | undefined, slot: string) =>
    day !== undefined && (taken.data?.has(`${formatBookingDate(day)} ${slot}`) ?? false);
  const invalid = Boolean(error);
  const localTime = date && time ? slotInZone(formatBookingDate(date), time, readerTimeZone()) : null;

  return (
    <>
      <div className="grid gap-2">
        <p className="font-medium text-sm">
          Date
          <span aria-hidden="true" className="text-destructive dark:text-red-400">
            *
          </span>
        </p>
        <Calendar
          mode="single"
          selected={date}
          onSelect={(day) => {
            onDateChange(day);
            if (time && isTaken(day, time)) onTimeChange(undefined);
          }}
          disabled={[{ before: firstDay }, { after: lastDay }]}
          startMonth={today}
          endMonth={lastDay}
          defaultMonth={date ?? today}
          className={cn('rounded-md border p-3', invalid && !date && 'border-destructive')}
        />
        <p className="text-muted-foreground text-sm" aria-live="polite">
          {date ? `Selected: ${longDate.format(date)}` : 'No date selected'}
        </p>
      </div>
      <fieldset
        className="grid content-start gap-2"
        aria-describedby={scheduleError}
        aria-invalid={invalid && !time ? true : undefined}
      >
        <legend id={timeLegend} className="mb-2 font-medium text-sm">
          Time ({BOOKING_TIME_ZONE_LABEL}, {BOOKING_TIME_ZONE_SHORT})
          <span aria-hidden="true" className="text-destructive dark:text-red-400">
            *
          </span>
        </legend>
        <p className="text-muted-foreground text-sm" data-testid="slot-time-zone">
          Every time is {BOOKING_TIME_ZONE_LABEL}, the HighGrade team's time zone.
        </p>
        <div className="grid grid-cols-3 gap-2">
          {TIME_SLOTS.map((slot) => (
            <TimeSlot
              key={slot}
              slot={slot}
              taken={isTaken(date, slot)}
              checked={time === slot}
              onChoose={() => onTimeChange(slot)}
            />
          ))}
        </div>
        <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="slot-local-time">
          {localTime
            ? `${slotWithZone(time as string)} is ${localTime} where you are.`
            : date && time
              ? `${slotWithZone(time)} is your local time too.`
              : ''}
        </p>
      </fieldset>
      <div className="sm:col-span-2">
        <FieldError id={scheduleError} error={error} />
      </div>
    </>
  );
}

/** One slot as a radio covered by its label; a taken one is struck through and cannot be chosen. */
function TimeSlot({
  slot,
  taken,
  checked,
  onChoose,
}: {
  slot: string;
  taken: boolean;
  checked: boolean;
  onChoose: () => void;
}) {
  return (
    <label className="relative flex h-10 cursor-pointer items-center justify-center gap-1 rounded-md border border-input text-sm transition-colors hover:bg-accent has-checked:border-primary has-checked:bg-primary has-checked:text-primary-foreground has-disabled:cursor-not-allowed has-disabled:bg-muted has-disabled:text-muted-foreground has-disabled:line-through has-focus-visible:ring-2 has-focus-visible:ring-ring has-focus-visible:ring-offset-2">
      <input
        type="radio"
        value={slot}
        disabled={taken}
        aria-label={taken ? `${slot}, taken` : undefined}
        // Invisible but covering its label: clicks, taps and arrow keys reach the real radio.
        className="absolute inset-0 cursor-pointer appearance-none rounded-md opacity-0"
        checked={checked}
        onChange={onChoose}
      />
      {slot}
      {taken ? <span className="text-xs no-underline">taken</span> : null}
    </label>
  );
}
