import { describe, expect, it } from 'vitest';
import {
  filterableColumns,
  secretColumns,
  sortableColumns,
  tagColumns,
  writableColumns,
} from '../src/resources/definition.js';
import { RESOURCES } from '../src/resources/definitions/index.js';
import { recordFieldOrder, visibleColumns } from '../src/resources/rows.js';

/**
 * A definition's column lists are derived once and shared by every request (definition.ts's
 * derivedOnce): the same array each time, which no caller can change under the others.
 */
describe.each(RESOURCES.map((definition) => [definition.name, definition] as const))(
  "%s's derived column lists",
  (_name, definition) => {
    it.each([
      ['visibleColumns', visibleColumns],
      ['recordFieldOrder', recordFieldOrder],
      ['secretColumns', secretColumns],
      ['writableColumns', writableColumns],
      ['tagColumns', tagColumns],
      ['filterableColumns', filterableColumns],
      ['sortableColumns', sortableColumns],
    ] as const)('%s: one frozen array', (_derived, derive) => {
      const columns = derive(definition);
      expect(derive(definition)).toBe(columns);
      expect(Object.isFrozen(columns)).toBe(true);
      expect(() => (columns as string[]).push('injected')).toThrow(TypeError);
      expect(derive(definition)).not.toContain('injected');
    });

    it('lists every declared column that is not secret, and no secret one', () => {
      const secrets = Object.entries(definition.columns)
        .filter(([, column]) => column.secret === true)
        .map(([name]) => name);
      expect([...secretColumns(definition)]).toEqual(secrets);
      for (const name of Object.keys(definition.columns)) {
        expect(visibleColumns(definition).includes(name)).toBe(!secrets.includes(name));
        expect(recordFieldOrder(definition).includes(name)).toBe(!secrets.includes(name));
      }
    });
  },
);
