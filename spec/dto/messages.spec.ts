import 'reflect-metadata';
import { IsNumber, Matches, MaxLength, MinLength, validateSync } from 'class-validator';
import {
  CONSTRAINT_TEXT,
  REQUIRED,
  asyncConstraint,
  constructorThrows,
  dtoNotClass,
  dtoTooDeep,
  forbiddenMember,
  kindMismatch,
  matchesNotLinear,
  moreIssues,
  nestedWithoutValidation,
  noMetadata,
  notDateTime,
  notNull,
  notObject,
  prototypeProperty,
  unknownMember,
  unknownMemberOfEmpty,
  wireNameTaken,
} from '../../lib/dto/messages';

// The one place the DTO layer's sentences are pinned; other specs assert codes, paths and constraints.
describe('DTO messages', () => {
  it('refusals of a DTO class at bind carry ERR_INVALID_TOOL, name Class.property and say the fix', () => {
    const refusals = [
      dtoNotClass(),
      wireNameTaken('Order', 'note', 'text'),
      nestedWithoutValidation('Order', 'lines', 'Line', true),
      nestedWithoutValidation('Order', 'address', 'Address', false),
      constructorThrows('Order', 'boom'),
      noMetadata('Order', ['a', 'b', 'c', 'd', 'e', 'f']),
      asyncConstraint('Order', 'code', 'isUnique'),
      matchesNotLinear('Order', 'code', 'pattern "(?=x)" uses lookaround'),
    ];
    expect(refusals.map((e) => e.code)).toEqual(refusals.map(() => 'ERR_INVALID_TOOL'));
    expect(refusals.map((e) => e.message)).toEqual([
      'tool: invalid tool: dtoInput(): the DTO must be a class; pass the class itself, not an instance',
      'tool: invalid tool: Order.note: wire name "text" is used by two properties; give each a distinct @Expose({ name })',
      'tool: invalid tool: Order.lines: holds the DTO class Line without @ValidateNested(), so class-validator does not ' +
        'check the members of Line and the decoder would skip their checks; add @ValidateNested({ each: true })',
      'tool: invalid tool: Order.address: holds the DTO class Address without @ValidateNested(), so class-validator ' +
        'does not check the members of Address and the decoder would skip their checks; add @ValidateNested()',
      'tool: invalid tool: Order: the constructor throws when called without arguments (boom), and the decoder builds ' +
        'every DTO with new Order(); a DTO must be constructible without arguments (make its parameters optional or ' +
        'remove the constructor)',
      'tool: invalid tool: Order has properties (a, b, c, d, e) but class-validator holds no metadata for it; decorate ' +
        'each member (for example @IsString()), and if it is decorated, two copies of class-validator are likely ' +
        'installed (run `npm ls class-validator` and deduplicate it)',
      'tool: invalid tool: Order.code: constraint "isUnique" is asynchronous, but tool admission is synchronous; make ' +
        'the constraint synchronous, or check it inside the tool method and throw a Failure',
      'tool: invalid tool: Order.code: @Matches pattern "(?=x)" uses lookaround; the decoder runs every @Matches on ' +
        'RE2 (linear time), as the input schema does',
    ]);
  });

  it('a property named after an Object.prototype member: rename it, keeping the wire name unless it is forbidden', () => {
    expect(prototypeProperty('Order', 'valueOf', false)).toBe(
      'Order.valueOf: the property name "valueOf" is a member of Object.prototype, and class-validator groups a ' +
        "DTO's constraints by property name in a plain object, so every call would fail; rename the property and " +
        "keep the wire name with @Expose({ name: 'valueOf' }) if the model must see it",
    );
    expect(prototypeProperty('Order', 'constructor', true)).toBe(
      'Order.constructor: the property name "constructor" is a member of Object.prototype, and class-validator ' +
        "groups a DTO's constraints by property name in a plain object, so every call would fail; rename the " +
        'property (the wire name "constructor" is refused in every argument too)',
    );
  });

  it('structural issues say what the value must be and what was received', () => {
    expect(notObject()).toBe('must be an object');
    expect(notObject('array')).toBe('must be an object, received array');
    expect(kindMismatch('a string', 'number')).toBe('must be a string, received number');
    expect(notDateTime('another string')).toBe(
      'must be an RFC 3339 date-time, e.g. 2025-07-01T00:00:00Z, received another string',
    );
    expect(REQUIRED).toBe('is required');
    expect(notNull()).toBe('must not be null');
    expect(notNull(true)).toBe('must not be null; omit the member instead');
    expect(dtoTooDeep('TreeNode', 100)).toBe(
      'TreeNode objects nest more than 100 levels deep here; send a shallower value',
    );
    expect(forbiddenMember('__proto__')).toBe('member "__proto__" is not allowed anywhere in the arguments; rename it');
    expect(moreIssues(3)).toBe('(3 more issues not shown)');
  });

  it('unknown members: the first is named, the rest counted, and the accepted members listed', () => {
    expect(unknownMemberOfEmpty('x', 1)).toBe('unknown member "x"; this tool takes no arguments, send {}');
    expect(unknownMemberOfEmpty('x', 3)).toBe(
      'unknown member "x" (and 2 more unknown members); this tool takes no arguments, send {}',
    );
    expect(unknownMember('colour', 1, 'Paint', ['color', 'finish'], false)).toBe(
      'unknown member "colour"; remove it (Paint accepts color, finish)',
    );
    expect(unknownMember('colour', 2, 'Paint', ['color'], true)).toBe(
      'unknown member "colour" (and 1 more unknown members); remove it (Paint accepts color, ...)',
    );
    expect(unknownMember('x', 1, 'Empty', [], false)).toBe('unknown member "x"; remove it (Empty accepts no members)');
  });

  it("constraints scope-tool checks itself follow class-validator's default messages", () => {
    expect(CONSTRAINT_TEXT.eachPrefix + CONSTRAINT_TEXT.notString).toBe('each value must be a string');
    expect(CONSTRAINT_TEXT.maxDecimalPlaces).toBe('must be a number conforming to the specified constraints');
    expect(CONSTRAINT_TEXT.matches('/^[a-z]+$/')).toBe('must match /^[a-z]+$/ regular expression');
    expect(CONSTRAINT_TEXT.isEnum(['red', 2])).toBe('must be one of the following values: "red", 2');
    expect(CONSTRAINT_TEXT.tooShort(2)).toBe('must be longer than or equal to 2 characters');
    expect(CONSTRAINT_TEXT.tooLong(120)).toBe('must be shorter than or equal to 120 characters');
  });

  // (For an each: true record class-validator writes "each value in tags"; the issue's path names the item.)
  it("matches class-validator's own text for the constraints it would have judged", () => {
    class Sample {
      @MinLength(2) short!: string;
      @MaxLength(3) long!: string;
      @Matches(/^[a-z]+$/) word!: string;
      @IsNumber({ maxDecimalPlaces: 1 }) price!: number;
    }
    const sample = Object.assign(new Sample(), { short: 'a', long: 'abcd', word: 'A', price: 1.25 });
    const own = Object.fromEntries(
      validateSync(sample).map((e) => [
        e.property,
        Object.values(e.constraints ?? {})[0].replace(`${e.property} `, ''),
      ]),
    );
    expect(own).toEqual({
      short: CONSTRAINT_TEXT.tooShort(2),
      long: CONSTRAINT_TEXT.tooLong(3),
      word: CONSTRAINT_TEXT.matches('/^[a-z]+$/'),
      price: CONSTRAINT_TEXT.maxDecimalPlaces,
    });
  });
});
