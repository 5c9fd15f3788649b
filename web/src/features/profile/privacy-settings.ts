/**
 * Product §data privacy_settings, §privacy: the eight settings and their defaults. Every optional
 * sharing setting starts off (privacy by default, decision 193). `allow_analytics` stays in the row and
 * the upsert (the product's data model), but there is no analytics: it is not offered and always saved
 * off.
 */
export interface PrivacySettings {
  profile_visibility: 'public' | 'private' | 'friends';
  show_email: boolean;
  show_activity: boolean;
  allow_analytics: boolean;
  allow_marketing: boolean;
  data_processing_consent: boolean;
  auto_delete_inactive: boolean;
  inactive_period_months: number;
}

export const DEFAULT_PRIVACY_SETTINGS: PrivacySettings = {
  profile_visibility: 'public',
  show_email: false,
  show_activity: false,
  allow_analytics: false,
  allow_marketing: false,
  data_processing_consent: false,
  auto_delete_inactive: false,
  inactive_period_months: 24,
};

/** The retention periods the database accepts (months). */
export const RETENTION_MONTHS = [12, 24, 36, 60] as const;

/**
 * The visibility options (product §privacy's wording); `hint` says what an option does today where that
 * differs: there are no connections yet, so "Friends" shows the profile to the member only (decision 146).
 */
export const VISIBILITY_OPTIONS: ReadonlyArray<{
  value: PrivacySettings['profile_visibility'];
  label: string;
  description: string;
  hint?: string;
}> = [
  { value: 'public', label: 'Public', description: 'Anyone can see your profile' },
  { value: 'private', label: 'Private', description: 'Only you can see your profile' },
  {
    value: 'friends',
    label: 'Friends',
    description: 'Only your connections can see your profile',
    hint: 'Connections are not available yet, so for now only you can see it.',
  },
];

/**
 * The eight settings of a stored row, defaults for anything missing or malformed; analytics off whatever
 * the row says (an old pre-ticked box was never consent, and nothing would use it).
 */
export function privacySettingsOf(row: Record<string, unknown> | null): PrivacySettings {
  const settings = { ...DEFAULT_PRIVACY_SETTINGS };
  if (!row) return settings;
  const visibility = row.profile_visibility;
  if (visibility === 'public' || visibility === 'private' || visibility === 'friends') {
    settings.profile_visibility = visibility;
  }
  for (const key of [
    'show_email',
    'show_activity',
    'allow_marketing',
    'data_processing_consent',
    'auto_delete_inactive',
  ] as const) {
    if (typeof row[key] === 'boolean') settings[key] = row[key];
  }
  const months = row.inactive_period_months;
  if (typeof months === 'number' && (RETENTION_MONTHS as readonly number[]).includes(months)) {
    settings.inactive_period_months = months;
  }
  return settings;
}

/** GDPR export file name (product §buckets). */
export function exportFileName(userId: string): string {
  return `user_data_export_${userId}.json`;
}

/**
 * The settings the privacy form keeps as text (useForm's values, keyed as their columns): the visibility
 * chosen and the months of the retention select.
 */
export interface PrivacyFormValues {
  profileVisibility: string;
  inactivePeriodMonths: string;
}

/** The on/off settings, which the form keeps beside useForm's values. */
export type PrivacySwitches = Omit<PrivacySettings, 'profile_visibility' | 'inactive_period_months'>;

/** Stored settings as the form holds them. */
export function privacyFormOf(settings: PrivacySettings): {
  values: PrivacyFormValues;
  switches: PrivacySwitches;
} {
  const { profile_visibility, inactive_period_months, ...switches } = settings;
  return {
    values: { profileVisibility: profile_visibility, inactivePeriodMonths: String(inactive_period_months) },
    switches,
  };
}

/**
 * The form's values as the settings to save. What the form cannot offer (a visibility or period not in
 * its lists) is sent as it is: the database refuses it, and the refusal is shown at its field.
 */
export function privacySettingsFrom(values: PrivacyFormValues, switches: PrivacySwitches): PrivacySettings {
  return {
    ...switches,
    profile_visibility: values.profileVisibility as PrivacySettings['profile_visibility'],
    inactive_period_months: Number(values.inactivePeriodMonths),
  };
}
