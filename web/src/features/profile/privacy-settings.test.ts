import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PRIVACY_SETTINGS,
  exportFileName,
  type PrivacySettings,
  privacyFormOf,
  privacySettingsFrom,
  privacySettingsOf,
  VISIBILITY_OPTIONS,
} from './privacy-settings.ts';

describe('privacySettingsOf', () => {
  it('starts with every optional sharing setting off without a row (decision 193)', () => {
    expect(privacySettingsOf(null)).toEqual({
      profile_visibility: 'public',
      show_email: false,
      show_activity: false,
      allow_analytics: false,
      allow_marketing: false,
      data_processing_consent: false,
      auto_delete_inactive: false,
      inactive_period_months: 24,
    });
  });

  it('takes the stored values', () => {
    const row = {
      user_id: 'x',
      profile_visibility: 'friends',
      show_email: true,
      show_activity: false,
      allow_analytics: false,
      allow_marketing: true,
      data_processing_consent: true,
      auto_delete_inactive: true,
      inactive_period_months: 60,
    };
    const { user_id: _id, ...settings } = row;
    expect(privacySettingsOf(row)).toEqual(settings);
  });

  it('keeps analytics off whatever a row says: there is no analytics to consent to', () => {
    expect(privacySettingsOf({ allow_analytics: true, show_activity: true })).toEqual({
      ...DEFAULT_PRIVACY_SETTINGS,
      show_activity: true,
      allow_analytics: false,
    });
  });

  it('ignores malformed values', () => {
    expect(
      privacySettingsOf({ profile_visibility: 'everyone', show_email: 'yes', inactive_period_months: 7 }),
    ).toEqual(DEFAULT_PRIVACY_SETTINGS);
  });
});

describe('exportFileName', () => {
  it('is user_data_export_{userId}.json', () => {
    expect(exportFileName('abc')).toBe('user_data_export_abc.json');
  });
});

describe('VISIBILITY_OPTIONS', () => {
  it('keep the spec wording and say what Friends does while there are no connections (decision 146)', () => {
    expect(
      VISIBILITY_OPTIONS.map((option) => [option.value, option.label, option.description, option.hint]),
    ).toEqual([
      ['public', 'Public', 'Anyone can see your profile', undefined],
      ['private', 'Private', 'Only you can see your profile', undefined],
      [
        'friends',
        'Friends',
        'Only your connections can see your profile',
        'Connections are not available yet, so for now only you can see it.',
      ],
    ]);
  });
});

describe('privacyFormOf and privacySettingsFrom', () => {
  const stored: PrivacySettings = {
    profile_visibility: 'friends',
    show_email: true,
    show_activity: false,
    allow_analytics: false,
    allow_marketing: true,
    data_processing_consent: true,
    auto_delete_inactive: true,
    inactive_period_months: 60,
  };

  it('keeps the visibility and the months as text, the on/off settings beside them', () => {
    expect(privacyFormOf(stored)).toEqual({
      values: { profileVisibility: 'friends', inactivePeriodMonths: '60' },
      switches: {
        show_email: true,
        show_activity: false,
        allow_analytics: false,
        allow_marketing: true,
        data_processing_consent: true,
        auto_delete_inactive: true,
      },
    });
  });

  it('gives back the same settings to save', () => {
    const { values, switches } = privacyFormOf(stored);
    expect(privacySettingsFrom(values, switches)).toEqual(stored);
  });

  it('saves the chosen months as a number and the chosen visibility', () => {
    const { switches } = privacyFormOf(DEFAULT_PRIVACY_SETTINGS);
    const saved = privacySettingsFrom({ profileVisibility: 'private', inactivePeriodMonths: '12' }, switches);
    expect(saved.profile_visibility).toBe('private');
    expect(saved.inactive_period_months).toBe(12);
    expect(saved.allow_analytics).toBe(false);
  });
});
