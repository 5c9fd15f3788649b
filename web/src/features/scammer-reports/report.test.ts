import { describe, expect, it } from 'vitest';
import {
  cleaningNote,
  EMPTY_REPORT,
  firstProblem,
  localIsoDate,
  parseAmount,
  REPORT_MAX_LENGTH,
  REPORT_RATE_LIMIT,
  reportProblems,
  statusLabel,
  toReportRow,
} from './report.ts';

const valid = {
  ...EMPTY_REPORT,
  scammerName: 'Jay Greenleaf',
  scammerDescription: 'Sells "premium" flower online.',
  incidentDetails: 'Paid upfront for two ounces; nothing ever shipped.',
  truthConfirmed: 'yes',
};
const NOW = new Date(2026, 10, 21, 22, 0);

describe('report rules (product §report-dialog)', () => {
  it('requires name 2-100, description 10-1000 and details 20-2000', () => {
    expect(reportProblems(EMPTY_REPORT, NOW)).toEqual({
      scammerName: 'Scammer Name is required.',
      scammerDescription: 'Scammer Description is required.',
      incidentDetails: 'Incident Details is required.',
      truthConfirmed: 'Confirm that your report is true to the best of your knowledge.',
    });
    expect(
      reportProblems(
        { ...valid, scammerName: 'J', scammerDescription: 'too short', incidentDetails: 'x'.repeat(19) },
        NOW,
      ),
    ).toEqual({
      scammerName: 'Scammer Name must be between 2 and 100 characters.',
      scammerDescription: 'Scammer Description must be between 10 and 1000 characters.',
      incidentDetails: 'Incident Details must be between 20 and 2000 characters.',
    });
    expect(reportProblems(valid, NOW)).toEqual({});
  });

  it('checks optional lengths only when given: business 2-200, contact 5-500, location 2-200', () => {
    expect(reportProblems({ ...valid, businessName: 'A', contactInfo: '1234', location: 'X' }, NOW)).toEqual({
      businessName: 'Business Name must be between 2 and 200 characters.',
      contactInfo: 'Contact Info must be between 5 and 500 characters.',
      location: 'Location must be between 2 and 200 characters.',
    });
    expect(REPORT_MAX_LENGTH).toMatchObject({ location: 100, contactInfo: 200, scammerName: 100 });
  });

  it('judges the text as it will be saved, after cleaning; names are kept as typed (decision 200)', () => {
    expect(reportProblems({ ...valid, scammerDescription: '<"<>">' }, NOW).scammerDescription).toBe(
      'Scammer Description is required.',
    );
    expect(reportProblems({ ...valid, scammerName: '<">' }, NOW).scammerName).toBeUndefined();
  });

  it('asks the reporter to confirm the report is true to their knowledge', () => {
    expect(reportProblems({ ...valid, truthConfirmed: '' }, NOW)).toEqual({
      truthConfirmed: 'Confirm that your report is true to the best of your knowledge.',
    });
  });

  it('accepts an amount of 0 or more with up to two decimals, else "Please enter a valid amount."', () => {
    for (const good of ['', '0', '450', '450.5', '1200.99']) expect(parseAmount(good)).not.toBe('invalid');
    for (const bad of ['-1', 'abc', '1e3', '1.999', '10000000000000']) {
      expect(reportProblems({ ...valid, amountScammed: bad }, NOW).amountScammed, bad).toBe(
        'Please enter a valid amount.',
      );
    }
  });

  it('refuses an incident date after today: "Incident date cannot be in the future."', () => {
    expect(localIsoDate(NOW)).toBe('2026-11-21');
    expect(reportProblems({ ...valid, dateOfIncident: '2026-11-21' }, NOW)).toEqual({});
    expect(reportProblems({ ...valid, dateOfIncident: '2026-11-22' }, NOW).dateOfIncident).toBe(
      'Incident date cannot be in the future.',
    );
  });

  it('names the first problem in form order for the toast', () => {
    expect(firstProblem(reportProblems({ ...valid, scammerName: '', amountScammed: '-5' }, NOW))).toBe(
      'Scammer Name is required.',
    );
    expect(firstProblem({})).toBeNull();
  });
});

describe('the stored row', () => {
  it('is cleaned and trimmed, with empty optional fields as null and status submitted', () => {
    expect(toReportRow(valid, 'user-1', NOW)).toEqual({
      scammer_name: 'Jay Greenleaf',
      scammer_description: 'Sells premium flower online.',
      incident_details: 'Paid upfront for two ounces; nothing ever shipped.',
      location: null,
      business_name: null,
      contact_info: null,
      amount_scammed: null,
      date_of_incident: null,
      reporter_user_id: 'user-1',
      status: 'submitted',
      truth_confirmed_at: NOW.toISOString(),
    });
    const full = toReportRow(
      {
        ...valid,
        location: ' Denver ',
        scammerName: ' Dave "Top Shelf" Miller ',
        businessName: "Green & Co's <Shop>",
        contactInfo: 'javascript:@jay',
        amountScammed: '450.50',
        dateOfIncident: '2026-10-01',
      },
      'user-1',
    );
    expect(full).toMatchObject({
      location: 'Denver',
      scammer_name: 'Dave "Top Shelf" Miller',
      business_name: "Green & Co's <Shop>",
      contact_info: '@jay',
      amount_scammed: 450.5,
      date_of_incident: '2026-10-01',
    });
  });

  it('uses the report limits of §report-dialog', () => {
    expect(REPORT_RATE_LIMIT).toEqual({
      actionType: 'scammer_report',
      maxAttempts: 3,
      timeWindowMinutes: 15,
      maxIpAttempts: 10,
    });
  });

  it('labels the statuses', () => {
    expect(['submitted', 'under_review', 'published', 'rejected'].map(statusLabel)).toEqual([
      'Submitted',
      'Under review',
      'Published',
      'Rejected',
    ]);
  });
});

describe('what saving leaves out, said at the field (issue 32)', () => {
  it('names the characters a cleaned field will lose, and nothing for names or clean text', () => {
    expect(cleaningNote('incidentDetails', 'He said "trust me" & left')).toBe(
      'Saved without " and &. This field keeps no < > \' " & ` and no javascript:, data: or vbscript: (names keep every character).',
    );
    expect(cleaningNote('contactInfo', 'javascript:alert(1)')).toMatch(/^Saved without javascript:\. /);
    expect(cleaningNote('location', "O'Fallon, <MO>")).toMatch(/^Saved without < > and '\. /);
    expect(cleaningNote('scammerName', 'Dave "Top Shelf" Miller')).toBeNull();
    expect(cleaningNote('businessName', "O'Brien & Sons")).toBeNull();
    expect(cleaningNote('incidentDetails', 'Paid upfront, nothing came.')).toBeNull();
  });

  it('says exactly what the saved row loses', () => {
    const typed = { ...valid, incidentDetails: 'Paid upfront; he said "it ships" & it never did.' };
    const row = toReportRow(typed, 'user-1', NOW);
    expect(row.incident_details).toBe('Paid upfront; he said it ships  it never did.');
    expect(cleaningNote('incidentDetails', typed.incidentDetails)).toMatch(/^Saved without " and &\./);
  });
});
