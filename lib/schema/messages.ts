/**
 * Every message of the schema generator, worded in one place (as NestJS's
 * packages/core/errors/messages.ts does): each builder returns a {@link SchemaIssue}, whose `code`
 * names the case and whose `where` names the place (`Class.member`, `Class`, `Class.method`); the
 * sentence says what is wrong, where, and the fix. Tests assert codes and places; the sentences are
 * tested once, in spec/schema/messages.spec.ts.
 * @internal
 */

/** One message of the generator: a named case, the place it concerns, and the sentence. @internal */
export interface SchemaIssue<C extends string = string> {
  /** The case, snake_case (`decoder_only`, `each_missing`, ...): what tests and tools match on. */
  readonly code: C;
  /** `Class.member`, `Class`, `Class.method`, or `''` when the message concerns no declaration. */
  readonly where: string;
  /** The decorator the message is about, without `@`, when there is one. */
  readonly decorator?: string;
  /** The sentence for people: `where: what; fix`. */
  readonly message: string;
}

function at<C extends string>(code: C, where: string, text: string, decorator?: string): SchemaIssue<C> {
  return { code, where, ...(decorator === undefined ? {} : { decorator }), message: `${where}: ${text}` };
}

const valueText = (values: readonly unknown[]): string => values.map((v) => JSON.stringify(v)).join(', ');

/** How value kinds read in messages. */
const KIND_WORDS: Readonly<Record<string, string>> = {
  string: 'strings',
  number: 'numbers',
  boolean: 'booleans',
  array: 'arrays',
  object: 'objects',
  date: 'Date values',
  null: 'null',
  any: 'values',
};

/** How to write a pattern without each flag JSON Schema lacks. */
function flagFixes(flags: string): string {
  const fixes: string[] = [];
  if (flags.includes('g'))
    fixes.push(
      'drop the g flag: it only makes the RegExp remember lastIndex between calls, so a repeated value can fail',
    );
  if (flags.includes('y')) fixes.push('drop the y flag and anchor the pattern with ^');
  if (flags.includes('i')) fixes.push('for the i flag, write both cases, for example [Aa]');
  if (flags.includes('s')) fixes.push('for the s flag, write [\\s\\S] where the pattern has .');
  if (flags.includes('m'))
    fixes.push('for the m flag, write (?:^|\\n) where the pattern has ^ and (?:$|\\n) where it has $');
  if (fixes.length === 0) fixes.push('write the pattern without them');
  return fixes.join('; ');
}

/** What `@Type(() => X)` names, for {@link SCHEMA_MESSAGES.typeTargetMismatch}. */
export interface TypeTargetText {
  /** `Number`, `Date`, or the class name. */
  readonly name: string;
  /** A primitive wrapper or Date rather than a DTO class. */
  readonly primitive: boolean;
}

/**
 * The message builders, by case. Each returns a SchemaIssue whose `code` is the builder's case.
 * @internal
 */
export const SCHEMA_MESSAGES = {
  // ---- decorators, by their catalogue rule (lib/schema/catalogue.ts) ----
  refusedDecorator: (where: string, decorator: string, fix: string) =>
    at('refused_decorator', where, `@${decorator} is not allowed on a tool input: ${fix}`, decorator),
  /** A warning: `usage` (`@IsEmail`, `@ArrayUnique with a selector`) is checked by the decoder only. */
  decoderOnly: (where: string, decorator: string, usage: string, why: string) =>
    at('decoder_only', where, `${usage} is checked by the decoder only (${why})`, decorator),
  /** A warning: a decorator the catalogue does not know. */
  unknownDecorator: (where: string, decorator: string) =>
    at(
      'unknown_decorator',
      where,
      `@${decorator} is not a class-validator decorator the generator knows; if it validates, the decoder alone checks it`,
      decorator,
    ),
  eachNeedsArray: (where: string, decorator: string) =>
    at(
      'each_needs_array',
      where,
      `@${decorator}({ each: true }) needs an array member; remove each or make the member an array`,
      decorator,
    ),
  /** `checks` is `strings`, `the whole value`, ...; `call` is `@IsString()` or `@IsIn`. */
  eachMissing: (where: string, decorator: string, call: string, checks: string, typeText: string) =>
    at(
      'each_missing',
      where,
      `${call} checks ${checks}, but the member is an array (${typeText}); add { each: true } to check every item`,
      decorator,
    ),
  dateCheckOnOtherType: (where: string, decorator: string, typeText: string) =>
    at(
      'date_check_on_other_type',
      where,
      `@${decorator} checks Date values, but the member is ${typeText}; declare it as Date with @IsDate() @Type(() => Date)`,
      decorator,
    ),
  typeCheckContradiction: (where: string, decorator: string, typeText: string) =>
    at(
      'type_check_contradiction',
      where,
      decorator === 'IsArray'
        ? `@IsArray() contradicts the TypeScript type ${typeText}; declare the member as an array`
        : `@${decorator}() contradicts the TypeScript type ${typeText}; change the type or the decorator`,
      decorator,
    ),
  /** A check for one kind of value (`wanted`) on a member whose type (`has`) holds none of it. */
  wrongValueKind: (
    where: string,
    decorator: string,
    wanted: readonly string[],
    has: ReadonlySet<string>,
    typeText: string,
  ) => {
    const first = wanted[0] as string;
    let hint = `remove @${decorator} or declare the member as ${wanted.includes('date') ? 'Date' : `a ${first === 'object' ? 'DTO class or Record' : first}`}`;
    if (first === 'string' && has.has('number'))
      hint = `for numbers use @Min / @Max instead, or declare the member as a string`;
    else if (first === 'string' && has.has('date'))
      hint = `a Date member is decoded to a Date; use @MinDate / @MaxDate, or declare the member as a string`;
    else if ((first === 'number' || first === 'array') && has.has('string'))
      hint = `for string lengths use @MinLength / @MaxLength instead, or declare the member as ${first === 'number' ? 'a number' : 'an array'}`;
    return at(
      'wrong_value_kind',
      where,
      `@${decorator} checks ${wanted.map((k) => KIND_WORDS[k]).join(' and ')} only, but the member is ${typeText}: the decoder would refuse ` +
        `every value the schema accepts; ${hint}`,
      decorator,
    );
  },
  /** How `each_missing` names the kind a check takes. */
  kindWords: (kind: string): string => KIND_WORDS[kind] ?? kind,

  // ---- decorator arguments ----
  groupsOption: (where: string, decorator: string) =>
    at(
      'groups_option',
      where,
      `@${decorator}({ groups }) is not supported: admission validates without groups, so the schema could not say ` +
        'which checks apply; remove groups and give each tool its own DTO class',
      decorator,
    ),
  unreadableOptions: (where: string, decorator: string, text: string) =>
    at(
      'unreadable_options',
      where,
      `@${decorator} takes validation options the generator cannot read (${text}), so it cannot tell ` +
        'whether each: true applies; write the options inline ({ each: true }) or as a const object literal',
      decorator,
    ),
  numberLiteralNeeded: (where: string, decorator: string, index: number) =>
    at(
      'number_literal_needed',
      where,
      `@${decorator} needs a number literal as argument ${index + 1}; write the bound inline`,
      decorator,
    ),
  literalNeeded: (where: string, decorator: string) =>
    at(
      'literal_needed',
      where,
      `@${decorator} needs a string, number, boolean or null literal; write it inline`,
      decorator,
    ),
  seedLiteralNeeded: (where: string, decorator: string) =>
    at('seed_literal_needed', where, `@${decorator} needs a string literal; write the seed inline`, decorator),
  arrayLiteralNeeded: (where: string, decorator: string) =>
    at(
      'array_literal_needed',
      where,
      `@${decorator} needs an array literal of strings, numbers or booleans; write it inline`,
      decorator,
    ),
  valueListNeeded: (where: string, decorator: string) =>
    at(
      'value_list_needed',
      where,
      `@${decorator} needs ${
        decorator === 'IsEnum'
          ? "a TypeScript enum or a const object literal of string or number values (const Color = { Red: 'red' } as const)"
          : 'an array literal of strings, numbers or null'
      } as argument 1; write it inline`,
      decorator,
    ),
  objectValuesList: (where: string, entity: string) =>
    at(
      'object_values_list',
      where,
      `@IsIn(Object.values(${entity})) is not evaluated by the generator; write @IsEnum(${entity}), which accepts ` +
        "the same values (class-validator checks a value against the object's values), or list the values inline",
      'IsIn',
    ),
  uuidVersion: (where: string, versions: readonly string[]) =>
    at(
      'uuid_version',
      where,
      `@IsUUID version must be a literal among ${versions.join(', ')}; write it inline`,
      'IsUUID',
    ),
  boundNotCount: (where: string, decorator: string, n: number, keyword: string) =>
    at(
      'bound_not_count',
      where,
      `@${decorator} bound ${n} is not a whole number of ${keyword.endsWith('Items') ? 'items' : 'characters'} (JSON Schema ${keyword} must be an integer of at least 0); write a whole number of at least 0`,
      decorator,
    ),
  divisorNotInteger: (where: string, n: number) =>
    at(
      'divisor_not_integer',
      where,
      `@IsDivisibleBy(${n}) divides by parseInt(${n}) in validator.js; use a non-zero integer divisor`,
      'IsDivisibleBy',
    ),
  divisorNegative: (where: string, n: number) =>
    at(
      'divisor_negative',
      where,
      `@IsDivisibleBy(${n}) cannot be said in JSON Schema (multipleOf must be a positive number); write @IsDivisibleBy(${Math.abs(n)}), which validator.js reads the same`,
      'IsDivisibleBy',
    ),
  numberNotFinite: (where: string, option: string) =>
    at(
      'number_not_finite',
      where,
      `@IsNumber({ ${option}: true }) cannot be met: JSON numbers are always finite; remove ${option}`,
      'IsNumber',
    ),
  emptyOnNonString: (where: string, typeText: string) =>
    at(
      'empty_on_non_string',
      where,
      `@IsEmpty() on a ${typeText} member accepts no value the type allows; remove the member or declare it as a string`,
      'IsEmpty',
    ),

  // ---- value lists and patterns ----
  valuesNotInType: (
    where: string,
    decorator: string,
    values: readonly unknown[],
    misfits: readonly unknown[],
    typeText: string,
  ) =>
    at(
      'value_not_in_type',
      where,
      decorator === 'Equals'
        ? `@Equals(${valueText(values)}) is not a value of the TypeScript type ${typeText}, so the member would accept nothing; change the value or the type`
        : misfits.length === values.length
          ? `@${decorator} lists no value of the TypeScript type ${typeText} (${valueText(values)}), so the member would accept nothing; list values of the type, or change the type`
          : `@${decorator} lists ${valueText(misfits)}, which the TypeScript type ${typeText} does not hold; list only values of the type, or change the type`,
      decorator,
    ),
  listsDisjoint: (where: string, decorator: string, before: string) =>
    at(
      'lists_disjoint',
      where,
      `@${decorator} shares no value with the values the member already allows (${before}), so it would accept nothing; keep one value list`,
      decorator,
    ),
  equalsNotAllowed: (where: string, value: unknown, before: string) =>
    at(
      'equals_not_allowed',
      where,
      `@Equals(${JSON.stringify(value)}) is not among the values the member already allows (${before}), so it would accept nothing; keep one of them`,
      'Equals',
    ),
  /** How `lists_disjoint` and `equals_not_allowed` show the values a member already allows. */
  valueText,
  patternLiteralNeeded: (where: string) =>
    at(
      'pattern_literal_needed',
      where,
      '@Matches needs a regular expression or string literal; write the pattern inline',
      'Matches',
    ),
  patternFlags: (where: string, flags: string) =>
    at(
      'pattern_flags',
      where,
      `@Matches flags "${flags}" cannot be expressed in JSON Schema (patterns always use the u flag); ` +
        `remove the flags and spell the pattern out (${flagFixes(flags)})`,
      'Matches',
    ),
  /** `reason` is lib/protocol/regex.ts's PatternSyntaxError message (`pattern "..." uses ...`). */
  patternNotRe2: (where: string, reason: string) =>
    at(
      'pattern_not_re2',
      where,
      `@Matches ${reason}; the input schema and the decoder both run @Matches on RE2`,
      'Matches',
    ),

  // ---- member shapes: dates, nested DTOs, @Type, @Expose ----
  dateTypeContradiction: (where: string, typeText: string) =>
    at(
      'date_type_contradiction',
      where,
      `@IsDate() contradicts the TypeScript type ${typeText}; declare the member as Date`,
      'IsDate',
    ),
  dateNeedsType: (where: string) =>
    at(
      'date_needs_type',
      where,
      '@IsDate() needs @Type(() => Date) so the decoder turns the ISO 8601 string into a Date; add @Type(() => Date)',
      'IsDate',
    ),
  /** `kind` is the value kind of the type that is not a DTO class (`object` for an interface). */
  nestedNotClass: (where: string, decorator: string, text: string, kind: string) =>
    at(
      'nested_not_class',
      where,
      `@${decorator}() needs a DTO class member, but ${
        kind === 'object'
          ? `${text} is not a class (an interface or object type), so class-validator has no checks for it and refuses every value ` +
            `("an unknown value was passed to the validate function") while the schema accepts it; declare ${text} as a class with ` +
            `class-validator decorators and add @Type(() => ${text})`
          : `${text} is not a DTO class, so the decoder refuses every value the schema accepts; remove @${decorator}()` +
            (kind === 'any' ? ' or declare the member as a DTO class' : '')
      }`,
      decorator,
    ),
  nestedNeedsType: (where: string, decorator: string, cls: string) =>
    at(
      'nested_needs_type',
      where,
      `@${decorator}() needs @Type(() => ${cls}) so the decoder builds ${cls} objects; add @Type(() => ${cls})`,
      decorator,
    ),
  nestedUnchecked: (where: string, cls: string, array: boolean, typed: boolean) =>
    at(
      'nested_unchecked',
      where,
      `holds the DTO class ${cls} without @ValidateNested(), so class-validator does not check the members of ` +
        `${cls} and the decoder would skip the checks the schema shows for them; ` +
        `add @ValidateNested(${array ? '{ each: true }' : ''})${typed ? '' : ` @Type(() => ${cls})`}`,
      'ValidateNested',
    ),
  dtoUnion: (where: string, typeText: string, classes: readonly string[]) =>
    at(
      'dto_union',
      where,
      `the type ${typeText} is a union with the DTO class${classes.length > 1 ? 'es' : ''} ${classes.join(', ')}: the decoder builds ` +
        `one class per member and refuses the other types, which the schema would accept; declare one DTO type per member ` +
        `(for example ${classes.map((n) => `${n.charAt(0).toLowerCase()}${n.slice(1)}?: ${n}`).join(', ')}${classes.length < 2 ? ' and a separate member for the other type' : ''})`,
    ),
  typeDiscriminator: (where: string) =>
    at(
      'type_discriminator',
      where,
      '@Type with a discriminator (or options the generator cannot read) is not supported: the schema cannot say which ' +
        'class a value becomes; declare one DTO type per member (one optional member per class)',
      'Type',
    ),
  /**
   * `@Type(() => target)` on a member whose type (`typeText`; value kinds `kinds`, the one declared
   * class `declared`) is another; `items` when the member is an array.
   */
  typeTargetMismatch: (
    where: string,
    target: TypeTargetText,
    typeText: string,
    items: boolean,
    declared: string | undefined,
    kinds: ReadonlySet<string>,
  ) => {
    const { name, primitive } = target;
    let fix: string;
    if (declared !== undefined) fix = `write @Type(() => ${declared})`;
    else if (kinds.has('any')) {
      const what = primitive ? (name === 'Date' ? 'Date' : name.toLowerCase()) : name;
      fix =
        `declare the member${items ? "'s items" : ''} as ${what}` +
        (primitive && name !== 'Date' ? ` and remove @Type (a ${what} member needs none)` : '');
    } else if (kinds.size === 1 && ['string', 'number', 'boolean'].includes([...kinds][0] as string)) {
      fix = `remove @Type (${[...kinds][0]} ${items ? 'items need' : 'members need'} none)`;
    } else fix = `make @Type name the declared ${items ? 'item ' : ''}type, or change the type`;
    const what = primitive ? (name === 'Date' ? 'Date objects' : `${name.toLowerCase()} values`) : `${name} objects`;
    return at(
      'type_target_mismatch',
      where,
      `@Type(() => ${name}) contradicts the TypeScript type ${typeText}: the decoder would take only ${what}${items ? ' as items' : ''} ` +
        `where the schema accepts the declared type; ${fix}`,
      'Type',
    );
  },
  /** An array of arrays under `decorator`; `inner` is the innermost type, `dto` whether it is a class (or Date). */
  arrayOfArrays: (where: string, decorator: string, inner: string, dto: boolean, date: boolean) =>
    at(
      'array_of_arrays',
      where,
      dto
        ? `an array of arrays cannot carry @${decorator}: the decoder takes each item of the outer array to be one ${inner} ` +
            `object and refuses the rows; wrap each row in a DTO (class ${inner}Row { @${date ? 'IsDate' : 'ValidateNested'}({ each: true }) @Type(() => ${inner}) ` +
            `items!: ${inner}[] }) and declare the member as ${inner}Row[]`
        : `an array of arrays cannot carry @${decorator}: the decoder takes each item of the outer array to be one ${inner} ` +
            `and refuses the rows; remove @${decorator} (an array of arrays of ${inner} needs none), or wrap each row in a DTO`,
      decorator,
    ),
  exposeOptions: (where: string, options: readonly string[]) =>
    at(
      'expose_options',
      where,
      `@Expose option ${options.join(', ')} is not supported on a tool input; keep only { name }`,
      'Expose',
    ),
  recordValues: (where: string, valueType: string) =>
    at(
      'record_values',
      where,
      `Record values of type ${valueType} are not checked by the decoder; use string, number, boolean or unknown ` +
        'values (or a union of them, null included), or an array of a nested DTO',
    ),

  // ---- defaults ----
  /** A warning: an object default the decoder applies but the schema cannot show. */
  defaultNotShown: (where: string, init: string) =>
    at(
      'default_not_shown',
      where,
      `the default (${init}) is not a literal the generator can evaluate, so the schema shows no default ` +
        '(the decoder still applies it); write the default as a literal or a const to show it',
    ),
  defaultUnreadable: (where: string, init: string) =>
    at(
      'default_unreadable',
      where,
      `the generator cannot evaluate the default (${init}), so the schema cannot show it nor check it ` +
        "against the member's constraints (the decoder applies and validates it); write the default as a literal or a const",
    ),
  defaultBreaksConstraints: (where: string, value: unknown, reason: string) =>
    at(
      'default_breaks_constraints',
      where,
      `the default ${JSON.stringify(value)} breaks the member's own constraints (${reason}); change the initializer or the constraint`,
    ),
  jsDocDefaultWithoutInitializer: (where: string, member: string, text: string) =>
    at(
      'jsdoc_default_without_initializer',
      where,
      `the JSDoc @default ${text} is shown to the model, but the tool receives undefined when the member is ` +
        `absent; write a property initializer instead (${member} = ${text || '...'}) and remove the tag`,
    ),
  jsDocDefaultDisagrees: (where: string, text: string, init: string) =>
    at(
      'jsdoc_default_disagrees',
      where,
      `the JSDoc @default ${text} disagrees with the initializer (${init}), which is what the tool ` +
        'receives; remove the tag (the initializer is the default the schema shows)',
    ),

  // ---- DTO classes and their members (lib/schema/dto-class.ts) ----
  mixinBase: (className: string, base: string) =>
    at(
      'mixin_base',
      className,
      `extends ${base}, which is not a class declaration (a mixin or class factory), so the generator ` +
        'cannot read the decorators of the members it adds and the schema would lose their checks; declare those members in a ' +
        `class and extend that class (class ${className} extends SomeBase { ... })`,
    ),
  noDeclaration: (where: string, member: string) =>
    at(
      'no_declaration',
      where,
      'the generator cannot find the property declaration of this member (a constructor parameter ' +
        'property, or a member added by a mixin), so its checks cannot be read and the decoder does not see it; declare it ' +
        `as a decorated property of the class (@IsString() ${member}!: string)`,
    ),
  noValidator: (where: string) =>
    at(
      'no_validator',
      where,
      'has no class-validator decorator, so the decoder never sees it (whitelist refuses it as an ' +
        'unknown member, and a DTO without any is taken to accept only {}); add a decorator that checks its type ' +
        '(for example @IsString()), or @IsOptional() or @Allow() when its TypeScript type says enough',
    ),
  notJsonBuiltin: (where: string, builtin: string) =>
    at(
      'not_json_builtin',
      where,
      `a ${builtin} is not a JSON value (the schema cannot describe it, and the decoder does not ` +
        `build one from JSON); use a Record<string, T> member (or an array) instead`,
    ),
  /** `question`: optional by `?` (else by a type that admits undefined). */
  definedButOptional: (where: string, question: boolean) =>
    at(
      'defined_but_optional',
      where,
      `${question ? 'is optional in TypeScript (?)' : 'has a type that admits undefined'}, but @IsDefined() makes the decoder require it; ` +
        (question ? 'remove the ?' : 'remove undefined from its type'),
      'IsDefined',
    ),
  optionalWithoutDecorator: (where: string, question: boolean) =>
    at(
      'optional_without_decorator',
      where,
      `${question ? 'is optional in TypeScript (?)' : 'has a type that admits undefined'}, but without @IsOptional() the decoder requires it (a ? does not make ` +
        `class-validator skip a member); add @IsOptional() if it may be absent, or ${question ? 'remove the ?' : 'remove undefined from its type'} if it is required`,
    ),
  /** `text` is the decoder's own sentence (lib/dto/forbidden.ts prototypePropertyProblem), which starts with `where`. */
  prototypeProperty: (where: string, text: string): SchemaIssue<'prototype_property'> => ({
    code: 'prototype_property',
    where,
    message: text,
  }),
  forbiddenWireName: (where: string, wire: string) =>
    at(
      'forbidden_wire_name',
      where,
      `the wire name "${wire}" is refused by the decoder in every argument (it could reach an ` +
        'object prototype); rename the member, or give it another wire name with @Expose({ name })',
    ),
  wireNameTwice: (where: string, wire: string) =>
    at('wire_name_twice', where, `wire name "${wire}" is used twice; give each member its own @Expose({ name })`),
  decoratedAccessor: (where: string, shown: string, kind: 'get' | 'set') =>
    at(
      'decorated_accessor',
      where,
      `a decorated accessor (${kind} ${shown}) cannot take an argument: class-transformer does not set ` +
        `it, so the value the schema asks for would be dropped; declare it as a property (${shown}!: string, or ${shown}?: ` +
        'string with @IsOptional()) and compute derived values in the tool',
    ),
  computedName: (where: string) =>
    at(
      'computed_name',
      where,
      'a computed member name the generator cannot read (it is not a string or number literal), so ' +
        'the schema could not name the member; give it a plain name (or a const string literal key)',
    ),
  /** `ignored`: a JSDoc `@ignore` tag left it out (else a type of undefined or never). */
  memberLeftOut: (where: string, ignored: boolean) =>
    at(
      'member_left_out',
      where,
      ignored
        ? 'the JSDoc @ignore tag leaves the member out of the schema, but the decoder still checks ' +
            '(and requires) it; remove the tag, or remove the member from the DTO'
        : 'the schema leaves this member out (its type is undefined or never), but the decoder ' +
            'still checks it; give it a type that holds a value, or remove it from the DTO',
    ),
  indexSignature: (className: string, signature: string) =>
    at(
      'index_signature',
      className,
      `has an index signature (${signature}), so the schema would admit members the ` +
        'decoder refuses as unknown; remove the index signature; use a Record member (extra!: Record<string, string>)',
    ),
  /** `owner` is the class declaring the constructor (`className` itself, or a base). */
  constructorArguments: (className: string, owner: string, parameter: string) =>
    at(
      'constructor_arguments',
      className,
      `${owner === className ? 'its' : `the ${owner}`} constructor requires the argument ${parameter}, but the decoder ` +
        'builds every DTO with new ' +
        `${className}(); a DTO must be constructible without arguments (make the parameter optional or remove the constructor)`,
    ),

  // ---- input schemas (lib/schema/input-schema.ts) ----
  schemaNotDerived: (className: string) =>
    at(
      'schema_not_derived',
      className,
      'typescript-json-schema cannot derive a schema for this class; check that it is exported and its name is unique in the project',
    ),
  nestedDefinitionMissing: (root: string, nested: string, definitions: readonly string[]) =>
    at(
      'nested_definition_missing',
      root,
      `the generator cannot find the schema typescript-json-schema derived for the nested class ${nested} ` +
        `(definitions: ${definitions.join(', ') || 'none'}), so the constraints of its decorators would be missing; ` +
        'generation stops instead: report this with the compilerOptions module and moduleResolution of the tsconfig',
    ),
  symbolKey: (where: string) =>
    at(
      'symbol_key',
      where,
      'the type has a symbol-keyed member, which typescript-json-schema names with an unstable id and no ' +
        'JSON argument can carry; use a plain class, a Record<string, T> or an array for this member',
    ),
  genericClass: (className: string, parameters: readonly string[]) =>
    at(
      'generic_class',
      className,
      `a generic class (${className}<${parameters.join(', ')}>) cannot describe a tool input: decorator metadata erases ${parameters[0]}, so the ` +
        `decoder cannot check what the schema says about it; declare a non-generic DTO class that names its member types ` +
        `(for example class ItemPage { @ValidateNested({ each: true }) @Type(() => Item) items!: Item[] })`,
    ),
  namespacedClass: (className: string, namespace: string) =>
    at(
      'namespaced_class',
      `${namespace}.${className}`,
      `is declared inside the namespace ${namespace}, and the generator finds a DTO class by ` +
        `its name at the top level of a file, so it cannot derive its schema; move the class out of the namespace ` +
        `(export class ${className} at the top level of a module, renamed if the name is taken)`,
    ),
  classTagKeyword: (className: string, tag: string, keyword: string) =>
    at(
      'class_tag_keyword',
      className,
      `the class JSDoc tag @${tag} would become the JSON Schema keyword "${keyword}" on the whole object, which the ` +
        'decoder does not check; remove the tag (put constraints on the members, with their decorators)',
    ),
  schemaDoesNotCompile: (where: string, reason: string) =>
    at(
      'schema_does_not_compile',
      where,
      `the generated schema does not compile (${reason}); change the decorator arguments or JSDoc tags of that member ` +
        'so that they say a valid JSON Schema',
    ),
  definitionNameClash: (root: string, plain: string, first: string, second: string) =>
    at(
      'definition_name_clash',
      root,
      `reaches two types printed as ${plain} (${first} and ` +
        `${second}), and schema definitions are keyed by name, so a class would lose its decorators; rename one of them`,
    ),

  // ---- the project and its tools (lib/schema/generate.ts, lib/schema/discover.ts) ----
  /**
   * An error: the project's compiler options lack `experimentalDecorators` (`where`: the tsconfig,
   * or `compilerOptions`), so the decorators compile as standard ones and throw at start-up
   * (lib/decorators/messages.ts standardDecorator).
   */
  experimentalDecoratorsOff: (where: string) =>
    at(
      'experimental_decorators_off',
      where,
      '"experimentalDecorators" is not true, so @Toolset, @Tool and @Authorize compile as standard (TC39) decorators ' +
        'and every @Tool throws at start-up; set "experimentalDecorators": true and "emitDecoratorMetadata": true ' +
        'in its compilerOptions (docs/install.md)',
    ),
  /**
   * A warning: the compiler options lack `emitDecoratorMetadata` and the tools in `unnamed`
   * (`Class.method`, `more` others not listed) do not name their input with `@Tool({ input })`, so
   * createRegistry cannot tell their input class (lib/container/messages.ts noInputClass).
   */
  decoratorMetadataOff: (where: string, unnamed: readonly string[], more: number) =>
    at(
      'decorator_metadata_off',
      where,
      `"emitDecoratorMetadata" is not true, so no parameter types are recorded and every @Tool must name its input: ` +
        `${unnamed.join(', ')}${more > 0 ? ` and ${more} more` : ''} do not; write @Tool({ input: YourInputClass }) ` +
        '(input: null for a method without input), or set "emitDecoratorMetadata": true in its compilerOptions',
    ),
  syntaxError: (text: string): SchemaIssue<'syntax_error'> => ({
    code: 'syntax_error',
    where: '',
    message: `syntax error: ${text}`,
  }),
  generatorNotStarted: (className: string) =>
    at('generator_not_started', className, 'typescript-json-schema could not start; check the project compiles'),
  inputNameClash: (className: string, other: string, input: string) =>
    at(
      'input_name_clash',
      className,
      `${other} declares another ${className}, and the generator finds a DTO class by its name, so this tool would ` +
        `get the schema of the other one; rename one of them (the class at ${input} or the one at ${other})`,
    ),
  /** `what` is `two classes`, `a class and an enum`, ...; `first`/`second` are `file:line`. */
  reachedNameClash: (root: string, what: string, name: string, first: string, second: string) =>
    at(
      'reached_name_clash',
      root,
      `reaches ${what} named ${name} (${first} and ${second}), and schema definitions are keyed by ` +
        `name, so a class would lose its decorators; rename one of them`,
    ),
  duplicateToolName: (where: string, name: string, previous: string) =>
    at(
      'duplicate_tool_name',
      where,
      `tool name "${name}" is also used by ${previous}; give one of them another @Tool({ name })`,
      'Tool',
    ),
  toolOptionsNotLiteral: (where: string) =>
    at(
      'tool_options_not_literal',
      where,
      '@Tool options must be an object literal ({ name, description }); write them inline',
      'Tool',
    ),
  toolOptionNotString: (where: string, key: string) =>
    at(
      'tool_option_not_string',
      where,
      `@Tool ${key} must be a string literal so the generator can read it; write it inline`,
      'Tool',
    ),
  toolNameInvalid: (where: string, name: string) =>
    at(
      'tool_name_invalid',
      where,
      `tool name ${JSON.stringify(name)} must match ^[A-Za-z0-9_-]{1,64}$; rename it with @Tool({ name })`,
      'Tool',
    ),
  toolInputNotClass: (where: string) =>
    at(
      'tool_input_not_class',
      where,
      '@Tool input must name the input DTO class, or be null for a method without input, so the generator can read it; write the class name inline',
      'Tool',
    ),
  toolOutputNotClass: (where: string) =>
    at(
      'tool_output_not_class',
      where,
      '@Tool output must name the output DTO class so the generator can read it; write the class name inline',
      'Tool',
    ),
  toolInputMismatch: (where: string, given: string | null, parameter: string | null) =>
    at(
      'tool_input_mismatch',
      where,
      `@Tool input names ${given ?? 'null (no input)'} but the first parameter's type is ${parameter ?? 'none (no parameter)'}; make them the same class`,
      'Tool',
    ),
  inputNotClass: (where: string, typeText: string) =>
    at(
      'input_not_class',
      where,
      `the input parameter's type ${typeText} is not a class; declare the input as a class-validator DTO class`,
    ),
} as const;

type Builders = typeof SCHEMA_MESSAGES;

/** Every case the generator reports, derived from the builders (never kept as a second list). @internal */
export type SchemaIssueCode = {
  [K in keyof Builders]: Builders[K] extends (...args: never[]) => SchemaIssue<infer C> ? C : never;
}[keyof Builders];
