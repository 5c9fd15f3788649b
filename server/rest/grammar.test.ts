import { describe, expect, it } from 'vitest';
import {
  GrammarError,
  parseColumns,
  parseEmbedPath,
  parseFilterKey,
  parseFilterValue,
  parseLogic,
  parseLogicKey,
  parseOrder,
  parseSelect,
} from './grammar.ts';

const field = (name: string, jsonPath: unknown[] = []) => ({ name, jsonPath });

describe('select', () => {
  it('parses columns, star, aliases and casts', () => {
    expect(parseSelect('*,id,full:full_name,salary::text,a:b::int4')).toEqual([
      { kind: 'star' },
      { kind: 'field', field: field('id') },
      { kind: 'field', field: field('full_name'), alias: 'full' },
      { kind: 'field', field: field('salary'), cast: 'text' },
      { kind: 'field', field: field('b'), alias: 'a', cast: 'int4' },
    ]);
  });

  it("parses PostgREST 13's aggregates: count(), col.fn(), an input cast and a result cast", () => {
    expect(
      parseSelect('count(),n:count()::text,amount.sum(),t:data->>x::int.max()::text,id.count()'),
    ).toEqual([
      { kind: 'field', field: field('*'), aggregate: 'count' },
      { kind: 'field', field: field('*'), aggregate: 'count', alias: 'n', aggregateCast: 'text' },
      { kind: 'field', field: field('amount'), aggregate: 'sum' },
      {
        kind: 'field',
        field: field('data', [{ arrow: '->>', operand: { key: 'x' } }]),
        alias: 't',
        cast: 'int',
        aggregate: 'max',
        aggregateCast: 'text',
      },
      { kind: 'field', field: field('id'), aggregate: 'count' },
    ]);
    // `count(` without the closing parenthesis is an embed named count, as before.
    expect(parseSelect('count(id)')).toEqual([
      { kind: 'embed', name: 'count', spread: false, children: [{ kind: 'field', field: field('id') }] },
    ]);
    expect(() => parseSelect('amount.total()')).toThrow(GrammarError);
  });

  it('parses JSON paths with keys and indexes', () => {
    expect(parseSelect('data->>blood_type,data->phones->0->>number,x->-1')).toEqual([
      { kind: 'field', field: field('data', [{ arrow: '->>', operand: { key: 'blood_type' } }]) },
      {
        kind: 'field',
        field: field('data', [
          { arrow: '->', operand: { key: 'phones' } },
          { arrow: '->', operand: { index: 0 } },
          { arrow: '->>', operand: { key: 'number' } },
        ]),
      },
      { kind: 'field', field: field('x', [{ arrow: '->', operand: { index: -1 } }]) },
    ]);
  });

  it('parses embeds with aliases, hints, join types, spreads and nesting', () => {
    expect(
      parseSelect(
        'title,director:directors!films_director_id_fkey!inner(id,last_name),...roles(character,actors(*)),empty()',
      ),
    ).toEqual([
      { kind: 'field', field: field('title') },
      {
        kind: 'embed',
        name: 'directors',
        alias: 'director',
        hint: 'films_director_id_fkey',
        join: 'inner',
        spread: false,
        children: [
          { kind: 'field', field: field('id') },
          { kind: 'field', field: field('last_name') },
        ],
      },
      {
        kind: 'embed',
        name: 'roles',
        spread: true,
        children: [
          { kind: 'field', field: field('character') },
          { kind: 'embed', name: 'actors', spread: false, children: [{ kind: 'star' }] },
        ],
      },
      { kind: 'embed', name: 'empty', spread: false, children: [] },
    ]);
  });

  it('accepts quoted names, dashes and spaces', () => {
    expect(parseSelect('"a,b":"weird(col)",my-col, spaced name ')).toEqual([
      { kind: 'field', field: field('weird(col)'), alias: 'a,b' },
      { kind: 'field', field: field('my-col') },
      { kind: 'field', field: field('spaced name') },
    ]);
  });

  it.each([
    ['id,', 'failed to parse select parameter (id,)'],
    ['rel(id', 'failed to parse select parameter (rel(id)'],
    ['*!hint', 'failed to parse select parameter (*!hint)'],
    ['name::', 'failed to parse select parameter (name::)'],
    ['id)', 'failed to parse select parameter (id))'],
    ['id;drop table films', 'failed to parse select parameter (id;drop table films)'],
  ])('rejects %j', (text, what) => {
    try {
      parseSelect(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GrammarError);
      expect((error as GrammarError).message).toMatch(
        new RegExp(`^"${what.replace(/[()*]/g, '\\$&')}" \\(line 1, column \\d+\\)$`),
      );
    }
  });
});

describe('filters', () => {
  it.each([
    ['eq.1', { negate: false, operation: { kind: 'simple', op: 'eq', value: '1' } }],
    ['not.gte.2', { negate: true, operation: { kind: 'simple', op: 'gte', value: '2' } }],
    ['like.*a.b*', { negate: false, operation: { kind: 'simple', op: 'like', value: '*a.b*' } }],
    [
      'eq(any).{1,2}',
      { negate: false, operation: { kind: 'simple', op: 'eq', value: '{1,2}', quantifier: 'any' } },
    ],
    ['in.(1,"a,b",x y)', { negate: false, operation: { kind: 'in', values: ['1', 'a,b', 'x y'] } }],
    ['in.()', { negate: false, operation: { kind: 'in', values: [] } }],
    ['not.in.(1)', { negate: true, operation: { kind: 'in', values: ['1'] } }],
    ['is.NULL', { negate: false, operation: { kind: 'is', value: 'null' } }],
    ['is.not_null', { negate: false, operation: { kind: 'is', value: 'not_null' } }],
    ['not.is.true', { negate: true, operation: { kind: 'is', value: 'true' } }],
    ['fts.cat & dog', { negate: false, operation: { kind: 'fts', op: 'fts', value: 'cat & dog' } }],
    [
      'wfts(french).amusant',
      { negate: false, operation: { kind: 'fts', op: 'wfts', language: 'french', value: 'amusant' } },
    ],
    ['isdistinct.x', { negate: false, operation: { kind: 'simple', op: 'isdistinct', value: 'x' } }],
    ['eq.', { negate: false, operation: { kind: 'simple', op: 'eq', value: '' } }],
  ])('parses %j', (text, expected) => {
    expect(parseFilterValue(text)).toEqual(expected);
  });

  it.each([
    ['noop.1', 'unknown single value operator noop'],
    ['eq', undefined],
    ['is.maybe', undefined],
    ['in.1,2', undefined],
    ['neq(any).{1}', 'unknown single value operator neq(any)'],
    ['', undefined],
  ])('rejects %j', (text, details) => {
    try {
      parseFilterValue(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GrammarError);
      expect((error as GrammarError).message).toContain(`failed to parse filter (${text})`);
      if (details) expect((error as GrammarError).details).toBe(details);
    }
  });

  it('parses keys with embed paths and JSON paths', () => {
    expect(parseFilterKey('roles.actors.first_name')).toEqual({
      path: ['roles', 'actors'],
      field: field('first_name'),
    });
    expect(parseFilterKey('data->>age')).toEqual({
      path: [],
      field: field('data', [{ arrow: '->>', operand: { key: 'age' } }]),
    });
  });
});

describe('order', () => {
  it('parses directions, nulls and related columns', () => {
    expect(parseOrder('age.desc.nullslast,name,clients(name).asc,data->x.nullsfirst')).toEqual([
      { field: field('age'), direction: 'desc', nulls: 'last' },
      { field: field('name') },
      { relation: 'clients', field: field('name'), direction: 'asc' },
      { field: field('data', [{ arrow: '->', operand: { key: 'x' } }]), nulls: 'first' },
    ]);
  });

  it.each(['id.ac', 'id.descc', 'id.asc.nlsfst', 'id;select', ''])('rejects %j', (text) => {
    expect(() => parseOrder(text)).toThrow(GrammarError);
  });
});

describe('logic trees', () => {
  it('parses nested and/or with negation and quoted values', () => {
    expect(
      parseLogic('or', false, '(age.lt.18,not.and(age.gte.11,name.eq."a,b"),tags.cs.{a,b},id.in.(1,2))'),
    ).toEqual({
      kind: 'tree',
      op: 'or',
      negate: false,
      children: [
        {
          kind: 'filter',
          filter: {
            field: field('age'),
            expr: { negate: false, operation: { kind: 'simple', op: 'lt', value: '18' } },
          },
        },
        {
          kind: 'tree',
          op: 'and',
          negate: true,
          children: [
            {
              kind: 'filter',
              filter: {
                field: field('age'),
                expr: { negate: false, operation: { kind: 'simple', op: 'gte', value: '11' } },
              },
            },
            {
              kind: 'filter',
              filter: {
                field: field('name'),
                expr: { negate: false, operation: { kind: 'simple', op: 'eq', value: 'a,b' } },
              },
            },
          ],
        },
        {
          kind: 'filter',
          filter: {
            field: field('tags'),
            expr: { negate: false, operation: { kind: 'simple', op: 'cs', value: '{a,b}' } },
          },
        },
        {
          kind: 'filter',
          filter: {
            field: field('id'),
            expr: { negate: false, operation: { kind: 'in', values: ['1', '2'] } },
          },
        },
      ],
    });
  });

  it.each(['()', '(id.in.1,2)', 'x(id.eq.1)', '(id.eq.1,not.xor(a.eq.1))', '(id.eq.1'])(
    'rejects %j',
    (text) => {
      expect(() => parseLogic('or', false, text)).toThrow(GrammarError);
    },
  );

  it('reads logic keys', () => {
    expect(parseLogicKey('not.or')).toEqual({ path: [], op: 'or', negate: true });
    expect(parseLogicKey('actors.and')).toEqual({ path: ['actors'], op: 'and', negate: false });
    expect(parseEmbedPath('roles.actors.order', 'order')).toEqual(['roles', 'actors']);
  });
});

describe('columns', () => {
  it('parses plain and quoted names', () => {
    expect(parseColumns('"id", name ,"odd,one"', 'columns')).toEqual(['id', 'name', 'odd,one']);
    expect(() => parseColumns('a,,b', 'on_conflict')).toThrow(GrammarError);
  });
});
