/**
 * typescript-json-schema finds a root DTO by its class name and keys the classes it
 * reaches by name, so two classes under one name gave a tool the other class's schema, or a nested
 * class without its decorators. Generation now fails, naming both files and asking for a rename.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { located } from './verdicts';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'names', 'tsconfig.json') });
});

describe('two DTO classes under one name', () => {
  it('refuses two roots named SearchInput in orders.ts and users.ts (search_users used to get the orders schema)', () => {
    expect(result.errors.filter((e) => e.tool?.startsWith('search_')).map(located)).toEqual([
      {
        tool: 'search_orders',
        reported: 'SearchInput: input_name_clash',
        file: 'orders.ts',
        line: 6,
      },
      {
        tool: 'search_users',
        reported: 'SearchInput: input_name_clash',
        file: 'users.ts',
        line: 4,
      },
    ]);
  });

  it('refuses a root reaching two nested classes named Address (the second lost its @MaxLength)', () => {
    expect(result.errors.filter((e) => e.tool === 'ship').map(located)).toEqual([
      {
        tool: 'ship',
        reported: 'Shipment: reached_name_clash',
        file: 'users.ts',
        line: 8,
      },
    ]);
  });

  it('refuses a root reaching a class and an enum of one name (the class, renamed Kind_1, lost its @MaxLength)', () => {
    expect(result.errors.filter((e) => e.tool === 'parcel').map(located)).toEqual([
      {
        tool: 'parcel',
        reported: 'Parcel: reached_name_clash',
        file: 'orders.ts',
        line: 21,
      },
    ]);
  });

  it('reports only those errors; a DTO with a unique name generates', () => {
    expect(result.errors).toHaveLength(4);
    expect(result.warnings).toEqual([]);
    expect(result.manifest.tools.map((t) => t.name)).toEqual(['unique']);
  });
});
