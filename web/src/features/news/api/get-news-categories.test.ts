import { describe, expect, it } from 'vitest';
import { byName } from './get-news-categories.ts';

describe('byName', () => {
  it('orders the categories case-insensitively, then exactly, the same on every database', () => {
    const categories = [
      'Policy',
      'cbd',
      'Business',
      'CBD',
      'Team',
      'Cannabis',
      'business',
      'Éclairage',
      'Hemp',
    ];
    expect([...categories].sort(byName)).toEqual([
      'Business',
      'business',
      'Cannabis',
      'CBD',
      'cbd',
      'Hemp',
      'Policy',
      'Team',
      'Éclairage',
    ]);
  });
});
