/**
 * Issue 7 item 2: typescript-json-schema finds a root DTO by its class name and keys the classes it
 * reaches by name, so two classes under one name gave a tool the other class's schema, or a nested
 * class without its decorators. Generation now fails, naming both files and asking for a rename.
 */
import path from 'node:path';
import { generateManifest, type GenerationResult } from '../../lib/schema';

let result: GenerationResult;
beforeAll(() => {
  result = generateManifest({ tsconfig: path.join(__dirname, 'fixtures', 'names', 'tsconfig.json') });
});

describe('issue 7: two DTO classes under one name', () => {
  it('refuses two roots named SearchInput in orders.ts and users.ts (search_users used to get the orders schema)', () => {
    expect(result.errors.filter((e) => e.tool?.startsWith('search_'))).toEqual([
      {
        tool: 'search_orders',
        message:
          'SearchInput: users.ts:4 declares another SearchInput, and the generator finds a DTO class by its name, so this tool ' +
          'would get the schema of the other one; rename one of them (the class at orders.ts:6 or the one at users.ts:4)',
        file: 'orders.ts',
        line: 6,
      },
      {
        tool: 'search_users',
        message:
          'SearchInput: orders.ts:6 declares another SearchInput, and the generator finds a DTO class by its name, so this tool ' +
          'would get the schema of the other one; rename one of them (the class at users.ts:4 or the one at orders.ts:6)',
        file: 'users.ts',
        line: 4,
      },
    ]);
  });

  it('refuses a root reaching two nested classes named Address (the second lost its @MaxLength)', () => {
    expect(result.errors.filter((e) => e.tool === 'ship')).toEqual([
      {
        tool: 'ship',
        message:
          'Shipment: reaches two classes named Address (orders.ts:10 and users.ts:8), and schema definitions are keyed by name, ' +
          'so a class would lose its decorators; rename one of them',
        file: 'users.ts',
        line: 8,
      },
    ]);
  });

  it('refuses a root reaching a class and an enum of one name (the class, renamed Kind_1, lost its @MaxLength)', () => {
    expect(result.errors.filter((e) => e.tool === 'parcel')).toEqual([
      {
        tool: 'parcel',
        message:
          'Parcel: reaches an enum and a class named Kind (users.ts:13 and orders.ts:21), and schema definitions are keyed by ' +
          'name, so a class would lose its decorators; rename one of them',
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
