import { describe, expect, it } from 'vitest';
import {
  emailProblem,
  invalidNameMessage,
  newPasswordProblem,
  passwordPresentProblem,
  passwordUpdateProblems,
} from './validation.ts';

describe('auth form rules (product §auth-rules)', () => {
  it('requires a valid email address', () => {
    expect(emailProblem('')).toBe('Email is required.');
    expect(emailProblem('   ')).toBe('Email is required.');
    expect(emailProblem('alex')).toBe('Please enter a valid email address.');
    expect(emailProblem('alex@example')).toBe('Please enter a valid email address.');
    expect(emailProblem('a b@example.com')).toBe('Please enter a valid email address.');
    expect(emailProblem('alex@example.com')).toBeNull();
    expect(emailProblem(' alex@example.com ')).toBeNull();
  });

  it('requires a password to sign in', () => {
    expect(passwordPresentProblem('')).toBe('Password is required.');
    expect(passwordPresentProblem('x')).toBeNull();
  });

  it('wants new passwords of at least 6 characters', () => {
    expect(newPasswordProblem('')).toBe('Password is required.');
    expect(newPasswordProblem('12345')).toBe('Password must be at least 6 characters long.');
    expect(newPasswordProblem('123456')).toBeNull();
  });

  it('checks that the new password entries match, then their length', () => {
    expect(passwordUpdateProblems('secret1', 'secret2')).toEqual({ confirmation: 'Passwords do not match.' });
    expect(passwordUpdateProblems('abc', 'abd')).toEqual({ confirmation: 'Passwords do not match.' });
    expect(passwordUpdateProblems('abc', 'abc')).toEqual({
      password: 'Password must be at least 6 characters long.',
    });
    expect(passwordUpdateProblems('', '')).toEqual({
      password: 'Password must be at least 6 characters long.',
    });
    expect(passwordUpdateProblems('abcdef', 'abcdef')).toEqual({});
  });

  it('joins the name check violations with a comma and a space', () => {
    expect(
      invalidNameMessage(['Full name must not contain HTML.', 'Full name must not contain script markup.']),
    ).toBe('Invalid name: Full name must not contain HTML., Full name must not contain script markup.');
  });
});
