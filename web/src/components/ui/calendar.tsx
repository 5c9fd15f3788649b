import 'react-day-picker/style.css';
import { DayPicker, type DayPickerProps } from 'react-day-picker';
import { cn } from '../../lib/utils.ts';

/**
 * A month calendar (react-day-picker: a labelled grid of day buttons, arrow keys, Page Up/Down for
 * months, Home/End for the week, disabled days announced as such — decision 082), in the app's colours.
 */
export function Calendar({ className, ...props }: DayPickerProps) {
  return (
    <DayPicker
      className={cn(
        '[--rdp-accent-background-color:var(--accent)] [--rdp-accent-color:var(--primary)] [--rdp-day-height:2.5rem] [--rdp-day-width:2.5rem] [--rdp-day_button-height:2.5rem] [--rdp-day_button-width:2.5rem] [--rdp-today-color:var(--primary)] [--rdp-weekday-opacity:1]',
        className,
      )}
      {...props}
    />
  );
}
