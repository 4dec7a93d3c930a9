/**
 * The decorator table of docs/decorators.md is what scripts/decorator-reference.ts generates from the
 * catalogue (lib/schema/catalogue.ts): a row changed in one place and not the other fails here.
 */
import * as fs from 'node:fs';
import { DECORATOR_CATALOGUE } from '../../lib/schema/catalogue';
import { DOC, END, START, decoratorTable, withTable } from '../../scripts/decorator-reference';

describe('the decorator reference (docs/decorators.md)', () => {
  const doc = fs.readFileSync(DOC, 'utf8');

  it('is the table the catalogue generates (regenerate with `npm run docs:decorators`)', () => {
    const upToDate = withTable(doc) === doc;
    expect({ upToDate, regenerate: 'npm run docs:decorators' }).toEqual({
      upToDate: true,
      regenerate: 'npm run docs:decorators',
    });
  });

  it('has one row per catalogue entry, between the markers', () => {
    const rows = decoratorTable()
      .split('\n')
      .filter((l) => l.startsWith('| `@'));
    expect(rows).toHaveLength(Object.keys(DECORATOR_CATALOGUE).length);
    expect(rows[0]).toMatch(/^\| `@Allow` \| structural: /);
    expect(doc.indexOf(START)).toBeLessThan(doc.indexOf(END));
  });

  it('refuses a document without the markers, naming them', () => {
    expect(() => withTable('# no table')).toThrow(START);
  });
});
