import { type ChangeEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** A value as a filter writes it; null, '' and false take the parameter out of the address. */
export type UrlValue = string | number | boolean | null;

/**
 * A screen's filters as its address keeps them (architecture.md: filters belong in the URL): each
 * filter's parameter, how the address reads as filters, and the filter that counts pages.
 */
export interface UrlFilterSpec<F extends object> {
  /** Each filter's search parameter (verifiedOnly → 'verified'). */
  params: { readonly [K in keyof F]: string };
  /** The filters in an address; anything missing or malformed reads as its default. */
  read: (params: URLSearchParams) => F;
  /** The filter that counts pages or "show more" steps: back to the first when another filter changes. */
  page?: keyof F & string;
  /** A change of page adds an entry to the history (Back returns to the previous page); else replaced. */
  pushPages?: boolean;
  /** The filter a search box writes (useUrlFilters gives its box). */
  search?: keyof F & string;
}

/** A spec with its defaults: the filters of an address without parameters, never written to it. */
export interface UrlFilters<F extends object> extends UrlFilterSpec<F> {
  defaults: F;
}

export type FilterChanges<F extends object> = { [K in keyof F]?: UrlValue };

/** The spec of a screen's filters, with the defaults its `read` gives an empty address. */
export function defineUrlFilters<F extends object>(spec: UrlFilterSpec<F>): UrlFilters<F> {
  return { ...spec, defaults: spec.read(new URLSearchParams()) };
}

/** A value as its parameter's text; null when it leaves the parameter out. */
function asParam(value: unknown): string | null {
  if (value === null || value === undefined || value === false || value === '') return null;
  return value === true ? '1' : String(value);
}

/**
 * The address after some filters changed: each changed filter's parameter set, or removed when the new
 * value is empty or the filter's default; the page back to the first unless the change is the page.
 * Parameters the spec does not know are kept.
 */
export function changedParams<F extends object>(
  filters: UrlFilters<F>,
  current: URLSearchParams,
  changes: FilterChanges<F>,
): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of Object.keys(changes) as (keyof F)[]) {
    const param = filters.params[key];
    const value = asParam(changes[key]);
    if (value === null || value === asParam(filters.defaults[key])) next.delete(param);
    else next.set(param, value);
  }
  if (filters.page !== undefined && !(filters.page in changes)) next.delete(filters.params[filters.page]);
  return next;
}

/** The address with the given filters (all when none are named) back to their defaults. */
export function clearedParams<F extends object>(
  filters: UrlFilters<F>,
  current: URLSearchParams,
  keys: readonly (keyof F)[] = Object.keys(filters.params) as (keyof F)[],
): URLSearchParams {
  return changedParams(
    filters,
    current,
    Object.fromEntries(keys.map((key) => [key, null])) as FilterChanges<F>,
  );
}

/** A page number from the address: a whole number from 1 to `max`, else 1. */
export function pageNumber(raw: string | null, max: number): number {
  const page = Number.parseInt(raw ?? '1', 10);
  return Number.isFinite(page) && page >= 1 && page <= max ? page : 1;
}

/** One of the allowed values, or null. */
export function oneOf<T extends string>(raw: string | null, allowed: readonly T[]): T | null {
  return raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : null;
}

/** What a search box needs: its text (shown at once), its change handler, and submit. */
export interface SearchBox {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** Writes the typed text now (the form's submit). */
  submit: () => void;
}

export interface UrlFilterState<F extends object> {
  filters: F;
  /** Writes changes to the address (replacing its entry; a page change adds one when `pushPages`). */
  set: (changes: FilterChanges<F>) => void;
  /** Puts the given filters (all when none are named) back to their defaults, the search box too. */
  clear: (keys?: readonly (keyof F)[]) => void;
  /** The search box of the spec's `search` filter. */
  search: SearchBox;
}

/** The search box writes the address this long after typing stops. */
export const SEARCH_DELAY_MS = 300;

/**
 * A screen's filters from the address and the way to change them (decision 090). The first render reads
 * only the router's address, so a prerendered page renders the same in Node and in the browser.
 */
export function useUrlFilters<F extends object>(spec: UrlFilters<F>): UrlFilterState<F> {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => spec.read(params), [spec, params]);

  // Changes apply to the address as it is now: react-router hands an updater the parameters of the
  // render that created it, so the search box's delayed write would put back filters that "Clear
  // filters" had just removed.
  const write = useCallback(
    (next: URLSearchParams, replace: boolean) => setParams(next, { replace }),
    [setParams],
  );
  const set = useCallback(
    (changes: FilterChanges<F>) => {
      const paging = spec.page !== undefined && spec.page in changes;
      write(
        changedParams(spec, new URLSearchParams(window.location.search), changes),
        !(paging && spec.pushPages),
      );
    },
    [spec, write],
  );

  const typed = spec.search === undefined ? '' : String(filters[spec.search] ?? '');
  const [text, setText] = useState(typed);
  const writeSearch = useCallback(
    (value: string) => {
      if (spec.search !== undefined) set({ [spec.search]: value.trim() } as FilterChanges<F>);
    },
    [spec, set],
  );

  // The box writes the address a moment after typing stops, only when the typed text changes (the address
  // may change meanwhile: the write works from the address of the moment it runs).
  const current = useRef(typed);
  current.current = typed;
  const writeLater = useRef(writeSearch);
  writeLater.current = writeSearch;
  useEffect(() => {
    if (text.trim() === current.current) return;
    const timer = setTimeout(() => writeLater.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const clear = useCallback(
    (keys?: readonly (keyof F)[]) => {
      if (spec.search !== undefined && (keys === undefined || keys.includes(spec.search))) setText('');
      write(clearedParams(spec, new URLSearchParams(window.location.search), keys), true);
    },
    [spec, write],
  );

  return {
    filters,
    set,
    clear,
    search: {
      value: text,
      onChange: (event) => setText(event.target.value),
      submit: () => writeSearch(text),
    },
  };
}
