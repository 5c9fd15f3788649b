/**
 * The admins' member search through the data API (decision 255): the filter on
 * `admin_member_search.search_words` for a search as typed. The member list asks `admin_find_members`
 * instead (decision 280), which splits a search into the same words in the database; the tests compare
 * the two, and the bench reads the view to show the plan the list no longer depends on.
 */

/**
 * Where a search splits into words: ASCII spaces, punctuation and symbols, the characters
 * private.member_search_words() splits the email, username and name at (decision 255). Letters and
 * digits of any script stay inside a word.
 */
const WORD_BREAKS = /[^0-9A-Za-z\u0080-\u{10ffff}]+/u;

/**
 * The full-text query for a search (`to_tsquery('simple', …)` over admin_member_search.search_words, which
 * holds every beginning of every word): every word of it must begin a word of the member's email,
 * username or name, in any case — "mel.mem" finds mel.member@example.com. Each word is an exact term
 * (a prefix term, `'mem':*`, would make the index read the posting list of every word so starting) and
 * quoted (no quote or backslash is left inside one). A search with no letters or digits is a query
 * without words, which finds no one.
 */
export function memberSearchQuery(q: string): string {
  return q
    .split(WORD_BREAKS)
    .filter(Boolean)
    .map((word) => `'${word}'`)
    .join(' & ');
}
