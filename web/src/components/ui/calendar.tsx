import 'react-day-picker/style.css';
import type { CSSProperties } from 'react';
import { DayPicker, type DayPickerProps } from 'react-day-picker';

/**
 * The app's colours for react-day-picker's CSS variables. Set on the element itself: its stylesheet
 * loads with the page's chunk, after ours, so class-based overrides of `.rdp-root` would lose. (Styles
 * set from script through the CSSOM are not inline markup, so the CSP allows them.)
 */
const THEME = {
  '--rdp-accent-color': 'var(--primary)',
  '--rdp-accent-background-color': 'var(--accent)',
  '--rdp-today-color': 'var(--primary)',
  '--rdp-day-height': '2.5rem',
  '--rdp-day-width': '2.5rem',
  '--rdp-day_button-height': '2.5rem',
  '--rdp-day_button-width': '2.5rem',
  '--rdp-weekday-opacity': '1',
} as CSSProperties;

/**
 * A month calendar (react-day-picker: a labelled grid of day buttons, arrow keys, Page Up/Down for
 * months, Home/End for the week, disabled days announced as such — decision 082), in the app's colours.
 */
export function Calendar({ style, ...props }: DayPickerProps) {
  return <DayPicker style={{ ...THEME, ...style }} {...props} />;
}
