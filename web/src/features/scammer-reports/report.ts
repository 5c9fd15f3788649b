import { type FieldRule, fieldProblem } from '#web/lib/security/field-rules.ts';
import { sanitizeText } from '#web/lib/security/sanitize.ts';

/**
 * The scammer report's rules (product §report-dialog: fields, rules and the report
 * rate limit). The database holds the same lengths and refuses unsanitised text
 * (supabase/migrations/20261121100600_scammer_reports_and_bookings.sql).
 */
export const REPORT_TEXTS = {
  signInRequired: {
    title: 'Authentication Required',
    description: 'Please sign in to submit a scammer report.',
  },
  tokenMissing: {
    title: 'Security Error',
    description: 'Security token missing. Please refresh the page and try again.',
  },
  rateLimited: {
    title: 'Request Limit Exceeded',
    description: 'Please wait before submitting another report.',
  },
  amount: 'Please enter a valid amount.',
  futureDate: 'Incident date cannot be in the future.',
  /** The confirmation's box and its problem (decision 200); the database asks the same. */
  truthLabel: 'I confirm this report is true to the best of my knowledge.',
  truthRequired: 'Confirm that your report is true to the best of your knowledge.',
} as const;

/**
 * What the form tells the reporter before they submit (issue 32 part 6, decision 200): what readers
 * will see, that the person named may reply, and what to leave out.
 */
export const REPORT_RULES_TEXTS = {
  published:
    'If reviewers publish your report, members of the Scammer Network see the name, business, location, contact details, amount, date, description and incident details, your approved evidence files (without their metadata) and a summary by the reviewers. Your name and account are never shown.',
  reply:
    'The person or business you name can read the report and reply to it; accepted replies are shown under it.',
  thirdParties:
    "Leave out other people's personal details (names, phone numbers, addresses of anyone who is not the person you report). Reviewers may mask personal details or whole fields before publishing.",
} as const;

/**
 * §report-dialog: 3 reports per 15 minutes per user, 10 per address — the browser's check and the server's.
 */
export const REPORT_RATE_LIMIT = {
  actionType: 'scammer_report',
  maxAttempts: 3,
  timeWindowMinutes: 15,
  maxIpAttempts: 10,
} as const;

export interface ReportValues {
  scammerName: string;
  location: string;
  scammerDescription: string;
  incidentDetails: string;
  businessName: string;
  contactInfo: string;
  amountScammed: string;
  dateOfIncident: string;
  /** 'yes' once the reporter ticked the confirmation (a form value is text). */
  truthConfirmed: string;
}
export type ReportField = keyof ReportValues;
type TextField = Exclude<ReportField, 'amountScammed' | 'dateOfIncident' | 'truthConfirmed'>;
/** Names keep every character typed (decision 200): shown as text, never rendered. */
const VERBATIM_FIELDS: ReadonlySet<TextField> = new Set(['scammerName', 'businessName']);

export const EMPTY_REPORT: ReportValues = {
  scammerName: '',
  location: '',
  scammerDescription: '',
  incidentDetails: '',
  businessName: '',
  contactInfo: '',
  amountScammed: '',
  dateOfIncident: '',
  truthConfirmed: '',
};

/**
 * The inputs' maxLength: location 100 and contact 200 (§report-dialog input limits), the others their maxima.
 */
export const REPORT_MAX_LENGTH: Record<TextField, number> = {
  scammerName: 100,
  location: 100,
  scammerDescription: 1000,
  incidentDetails: 2000,
  businessName: 200,
  contactInfo: 200,
};

export const REPORT_RULES: Record<TextField, FieldRule> = {
  scammerName: { label: 'Scammer Name', required: true, length: { min: 2, max: 100 } },
  location: { label: 'Location', length: { min: 2, max: 200 } },
  scammerDescription: { label: 'Scammer Description', required: true, length: { min: 10, max: 1000 } },
  incidentDetails: { label: 'Incident Details', required: true, length: { min: 20, max: 2000 } },
  businessName: { label: 'Business Name', length: { min: 2, max: 200 } },
  contactInfo: { label: 'Contact Info', length: { min: 5, max: 500 } },
};

const TEXT_FIELDS = Object.keys(REPORT_RULES) as TextField[];

/** Dollars and cents, at least 0 (the database stores at most two decimals, below a trillion). */
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;

export function parseAmount(value: string): number | null | 'invalid' {
  const text = value.trim();
  if (text === '') return null;
  return AMOUNT.test(text) ? Number(text) : 'invalid';
}

/** The reporter's own today as yyyy-MM-dd (the input's max, and the "future" line). */
export function localIsoDate(now: Date = new Date()): string {
  return [
    String(now.getFullYear()).padStart(4, '0'),
    String(now.getMonth() + 1).padStart(2, '0'),
    String(now.getDate()).padStart(2, '0'),
  ].join('-');
}

/** Each field's problem, judged on the text as it will be saved (after cleaning). */
export function reportProblems(
  values: ReportValues,
  now: Date = new Date(),
): Partial<Record<ReportField, string>> {
  const problems: Partial<Record<ReportField, string>> = {};
  for (const field of TEXT_FIELDS) {
    const problem = fieldProblem(cleanText(field, values[field]), REPORT_RULES[field]);
    if (problem) problems[field] = problem;
  }
  if (parseAmount(values.amountScammed) === 'invalid') problems.amountScammed = REPORT_TEXTS.amount;
  const date = values.dateOfIncident.trim();
  if (date !== '') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
      problems.dateOfIncident = 'Please enter a valid date.';
    } else if (date > localIsoDate(now)) {
      problems.dateOfIncident = REPORT_TEXTS.futureDate;
    }
  }
  if (values.truthConfirmed !== 'yes') problems.truthConfirmed = REPORT_TEXTS.truthRequired;
  return problems;
}

/** The first problem in the form's order: the text of the "Validation Error" toast. */
export function firstProblem(problems: Partial<Record<ReportField, string>>): string | null {
  for (const field of Object.keys(EMPTY_REPORT) as ReportField[]) {
    const problem = problems[field];
    if (problem) return problem;
  }
  return null;
}

export interface ReportRow {
  scammer_name: string;
  scammer_description: string;
  incident_details: string;
  location: string | null;
  business_name: string | null;
  contact_info: string | null;
  amount_scammed: number | null;
  date_of_incident: string | null;
  reporter_user_id: string;
  status: 'submitted';
  /** The reporter's confirmation; the database stores its own time (decision 200). */
  truth_confirmed_at: string;
}

const CLEANED_CHARACTERS = ['<', '>', "'", '"', '&', '`'] as const;
const CLEANED_PREFIX = /(javascript|data|vbscript):/i;

/**
 * What saving will leave out of a field (product §text-cleaning), said at the field while the reporter
 * types, so nothing is lost without their knowing (issue 32): null for names (kept as typed) and for
 * text that loses nothing.
 */
export function cleaningNote(field: ReportField, value: string): string | null {
  if (!TEXT_FIELDS.includes(field as TextField) || VERBATIM_FIELDS.has(field as TextField)) return null;
  const found: string[] = CLEANED_CHARACTERS.filter((character) => value.includes(character));
  const prefix = CLEANED_PREFIX.exec(value);
  if (prefix) found.push(`${prefix[0].toLowerCase()}`);
  if (found.length === 0) return null;
  const listed = found.map((piece) => (piece === '`' ? 'the backtick' : piece));
  const joined = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(' ')} and ${listed.at(-1)}`;
  return `Saved without ${joined}. This field keeps no < > ' " & \` and no javascript:, data: or vbscript: (names keep every character).`;
}

/** Names as typed (trimmed); the other text fields lose the characters the database refuses. */
function cleanText(field: TextField, value: string): string {
  return VERBATIM_FIELDS.has(field) ? value : sanitizeText(value);
}

function clean(field: TextField, value: string): string | null {
  const text = cleanText(field, value).trim();
  return text === '' ? null : text;
}

/**
 * The row to insert (§data, §report-dialog): cleaned, trimmed text, empty optional fields as null, status
 * submitted.
 */
export function toReportRow(values: ReportValues, reporterUserId: string, now: Date = new Date()): ReportRow {
  const amount = parseAmount(values.amountScammed);
  return {
    scammer_name: clean('scammerName', values.scammerName) ?? '',
    scammer_description: clean('scammerDescription', values.scammerDescription) ?? '',
    incident_details: clean('incidentDetails', values.incidentDetails) ?? '',
    location: clean('location', values.location),
    business_name: clean('businessName', values.businessName),
    contact_info: clean('contactInfo', values.contactInfo),
    amount_scammed: typeof amount === 'number' ? amount : null,
    date_of_incident: values.dateOfIncident.trim() === '' ? null : values.dateOfIncident.trim(),
    reporter_user_id: reporterUserId,
    status: 'submitted',
    truth_confirmed_at: now.toISOString(),
  };
}

export type ReportStatus = 'submitted' | 'under_review' | 'published' | 'rejected';

/** The badge text of a report's status (design.md: submitted → under review → published | rejected). */
export function statusLabel(status: string): string {
  switch (status) {
    case 'submitted':
      return 'Submitted';
    case 'under_review':
      return 'Under review';
    case 'published':
      return 'Published';
    case 'rejected':
      return 'Rejected';
    default:
      return status;
  }
}
