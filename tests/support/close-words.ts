import type { Queryable } from '#server/db/driver.ts';

/**
 * Words for the close-word tests (decisions 273 and 274), all about "kalmeno", none a completion of it.
 * `oneLetterIn`: "kalmeno" with one letter put in, each sharing 6 of its trigrams (similarity 6/11) and one
 * letter away. `twoLettersAway(db, n)`: the first `n`, in byte order, of the words exactly as close by
 * trigrams as those but two letters away (two letters changed or put in), all before "kalmzeno".
 */
export const KALMENO = 'kalmeno';

export function oneLetterIn(at: number, letters: string): string[] {
  return [...letters].map((x) => KALMENO.slice(0, at) + x + KALMENO.slice(at));
}

export async function twoLettersAway(db: Queryable, n: number): Promise<string[]> {
  const rows = await db.query<{ word: string }>(
    `with letter as (select chr(c) as x from generate_series(97, 122) c),
     edited as (
       select substr($1, 1, i) || a.x || substr($1, i + 2, j - i - 1) || b.x || substr($1, j + 1) as word
       from generate_series(0, 6) i, generate_series(0, 7) j, letter a, letter b where j > i
       union
       select substr($1, 1, i) || a.x || b.x || substr($1, i + 1)
       from generate_series(0, 7) i, letter a, letter b
     )
     select word from edited
     where extensions.similarity(word, $1) = extensions.similarity('kalmzeno', $1)
       and extensions.levenshtein(word, $1) = 2 and word < 'kalmzeno' and word not like $1 || '%'
     order by word collate "C" limit $2`,
    [KALMENO, n],
  );
  return rows.rows.map((row) => row.word);
}
