import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecurityEvent } from './security-events.ts';
import {
  ActivityCounter,
  SUSPICIOUS_ACTIVITY_LIMITS,
  startSuspiciousActivityMonitor,
  suspiciousActivityEvent,
} from './suspicious-activity.ts';

afterEach(() => vi.unstubAllGlobals());

describe('ActivityCounter', () => {
  it('reports above 100 clicks within 60 s, once per burst', () => {
    expect(SUSPICIOUS_ACTIVITY_LIMITS).toEqual({ clicks: 100, keyPresses: 500, windowMs: 60_000 });
    const reports: Array<[string, number]> = [];
    const counter = new ActivityCounter((kind, count) => reports.push([kind, count]));
    for (let i = 0; i < 100; i++) counter.record('click', i * 10);
    expect(reports).toEqual([]);
    counter.record('click', 1000);
    expect(reports).toEqual([['click', 101]]);
    for (let i = 0; i < 50; i++) counter.record('click', 1001 + i);
    expect(reports).toHaveLength(1);
  });

  it('does not report 100 clicks spread over more than 60 s, and reports a new burst later', () => {
    const reports: string[] = [];
    const counter = new ActivityCounter((kind) => reports.push(kind));
    for (let i = 0; i < 300; i++) counter.record('click', i * 700); // ~86 a minute
    expect(reports).toEqual([]);
    const later = 1_000_000;
    for (let i = 0; i <= 100; i++) counter.record('click', later + i);
    expect(reports).toEqual(['click']);
    for (let i = 0; i <= 100; i++) counter.record('click', later + 200_000 + i);
    expect(reports).toEqual(['click', 'click']);
  });

  it('reports above 500 key presses within 60 s, counted apart from clicks', () => {
    const reports: string[] = [];
    const counter = new ActivityCounter((kind) => reports.push(kind));
    for (let i = 0; i < 500; i++) counter.record('keypress', i);
    for (let i = 0; i < 100; i++) counter.record('click', i);
    expect(reports).toEqual([]);
    counter.record('keypress', 600);
    expect(reports).toEqual(['keypress']);
  });
});

describe('the monitor', () => {
  it('logs a high-risk security event from document clicks and key presses', () => {
    const doc = new EventTarget();
    vi.stubGlobal('document', doc);
    const events: SecurityEvent[] = [];
    const stop = startSuspiciousActivityMonitor((event) => events.push(event));
    for (let i = 0; i <= 100; i++) doc.dispatchEvent(new Event('click'));
    expect(events).toEqual([suspiciousActivityEvent('click', 101)]);
    expect(events[0]).toMatchObject({
      type: 'suspicious_activity',
      riskLevel: 'high',
      action: 'rapid_clicking',
    });
    for (let i = 0; i <= 500; i++) doc.dispatchEvent(new Event('keydown'));
    expect(events[1]).toMatchObject({ action: 'rapid_typing', data: { count: 501, window_seconds: 60 } });

    stop();
    for (let i = 0; i <= 300; i++) doc.dispatchEvent(new Event('click'));
    expect(events).toHaveLength(2);
  });
});
