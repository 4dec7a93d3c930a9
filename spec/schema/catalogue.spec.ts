/**
 * The decorator catalogue is complete for class-validator 0.15 and each row does what it says:
 * every decorator exported by class-validator's decorator/decorators.d.ts has a row; the fixture
 * spec/schema/fixtures/catalogue/all.tools.ts uses each decorator once (DTO `Row<Name>`, member
 * `value`) and the generator maps it, warns about it (naming DTO and field) or refuses it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as validator from 'class-validator';
import { DECORATOR_CATALOGUE } from '../../lib/schema/catalogue';
import { generateManifest, type GenerationResult } from '../../lib/schema';
import { reported } from './verdicts';

const DECORATORS_DIR = path.join(__dirname, '..', '..', 'node_modules', 'class-validator', 'types', 'decorator');

/** Decorator functions (capitalised `export declare function`) of every module decorators.d.ts re-exports. */
function exportedDecorators(): string[] {
  const index = readFileSync(path.join(DECORATORS_DIR, 'decorators.d.ts'), 'utf8');
  const names = new Set<string>();
  for (const [, mod] of index.matchAll(/export \* from '\.\/([^']+)'/g)) {
    const text = readFileSync(path.join(DECORATORS_DIR, `${mod}.d.ts`), 'utf8');
    for (const [, name] of text.matchAll(/export declare function ([A-Z]\w*)/g))
      if (name !== 'ValidatorConstraint') names.add(name as string);
  }
  return [...names].sort();
}

const DECORATORS = exportedDecorators();
const result: GenerationResult = generateManifest({
  tsconfig: path.join(__dirname, 'fixtures', 'catalogue', 'tsconfig.json'),
});

describe('the decorator catalogue', () => {
  it('has a row for every decorator class-validator 0.15 exports, and no class-validator row it does not export', () => {
    expect(DECORATORS.length).toBeGreaterThan(100);
    expect(DECORATORS.filter((d) => !(d in DECORATOR_CATALOGUE))).toEqual([]);
    const transformer = new Set(['Type', 'Expose', 'Exclude', 'Transform']);
    const rows = Object.keys(DECORATOR_CATALOGUE).filter((d) => !transformer.has(d));
    expect(rows.filter((d) => typeof (validator as Record<string, unknown>)[d] !== 'function')).toEqual([]);
  });
});

describe.each(Object.entries(DECORATOR_CATALOGUE))('@%s', (name, rule) => {
  const tool = `row_${name}`;
  const entry = result.manifest.tools.find((t) => t.name === tool);
  const warnings = result.warnings.filter((w) => w.tool === tool).map(reported);
  const errors = result.errors.filter((e) => e.tool === tool).map(reported);
  const value = (entry?.definition.input_schema.properties as Record<string, Record<string, unknown>> | undefined)?.[
    'value'
  ];

  if (rule.kind === 'refused') {
    it('is refused, saying what to write instead', () => {
      expect(errors).toContainEqual(`Row${name}.value: refused_decorator @${name}`);
      expect(entry).toBeUndefined();
    });
  } else if (rule.kind === 'decoder-only') {
    it('is a warning naming the DTO, the field and why', () => {
      expect(errors).toEqual([]);
      expect(warnings).toContainEqual(`Row${name}.value: decoder_only @${name}`);
      expect(result.warnings).toContainEqual(
        expect.objectContaining({ tool, message: expect.stringContaining(rule.why) }),
      );
    });
  } else if (rule.kind === 'pattern') {
    it('is the pattern of validator.js under its default options', () => {
      expect(errors).toEqual([]);
      expect(value?.['pattern']).toBe(rule.pattern);
    });
  } else if (rule.kind === 'enum') {
    it('is the value list', () => {
      expect(value?.['enum']).toEqual(rule.values);
    });
  } else {
    it(`maps to JSON Schema without warnings or errors (${rule.says})`, () => {
      expect(errors).toEqual([]);
      expect(warnings.filter((w) => !w.endsWith('@ValidateIf') && !w.endsWith('@Validate'))).toEqual([]);
      expect(entry).toBeDefined();
    });
  }
});

/** Pattern rows against validator.js (through class-validator's own check functions). */
const SAMPLES: Record<string, { check: (v: string) => boolean; values: string[] }> = {
  IsAscii: { check: validator.isAscii, values: ['abc', '', 'é', '~\u007f', 'a\u0080'] },
  IsHexColor: {
    check: validator.isHexColor,
    values: ['#fff', 'fff', '#ffff', '#ffffff', '#fffffff', '#ggg', '#FFFFFFFF', ''],
  },
  IsHexadecimal: { check: validator.isHexadecimal, values: ['ff', '0xff', '0hFF', '0x', 'xyz', '0XAB', ''] },
  IsMongoId: {
    check: validator.isMongoId,
    values: [
      '507f1f77bcf86cd799439011',
      '507f1f77bcf86cd79943901',
      '0x7f1f77bcf86cd799439011',
      'zz7f1f77bcf86cd799439011',
    ],
  },
  IsFirebasePushId: {
    check: validator.isFirebasePushId,
    values: ['-KpX_-kZ9i7f6r0Y9sN0', '-KpX_-kZ9i7f6r0Y9sN', 'KpX.-kZ9i7f6r0Y9sN00'],
  },
  IsMilitaryTime: { check: validator.isMilitaryTime, values: ['00:00', '23:59', '2359', '24:00', '7:00', '12:60'] },
  IsEthereumAddress: {
    check: validator.isEthereumAddress,
    values: ['0x' + 'a'.repeat(40), '0X' + 'A'.repeat(40), '0x' + 'a'.repeat(39), 'a'.repeat(42)],
  },
};

describe.each(Object.entries(SAMPLES))('the %s pattern', (name, { check, values }) => {
  it('agrees with validator.js on both sides of the rule', () => {
    const rule = DECORATOR_CATALOGUE[name];
    if (rule?.kind !== 'pattern') throw new Error(`${name} is not a pattern row`);
    const re = new RegExp(rule.pattern, 'u');
    for (const v of values) expect([v, re.test(v)]).toEqual([v, check(v)]);
  });
});
