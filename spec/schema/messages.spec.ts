/**
 * The sentences of the schema generator, each builder of lib/schema/messages.ts once: the one spec
 * that asserts whole messages (the other specs of spec/schema assert codes and places). Each case
 * calls a builder and pins its code, place, decorator and sentence.
 */
import { SCHEMA_MESSAGES, type SchemaIssue } from '../../lib/schema/messages';

type Messages = typeof SCHEMA_MESSAGES;

/** [builder, call, fields, sentence] */
const CASES: ReadonlyArray<
  readonly [keyof Messages, (m: Messages) => SchemaIssue, Omit<SchemaIssue, 'message'>, string]
> = [
  [
    'refusedDecorator',
    (m) => m.refusedDecorator('Row.value', 'Transform', 'decode the raw value in the tool'),
    { code: 'refused_decorator', where: 'Row.value', decorator: 'Transform' },
    'Row.value: @Transform is not allowed on a tool input: decode the raw value in the tool',
  ],
  [
    'decoderOnly',
    (m) =>
      m.decoderOnly(
        'CreateNoteInput.title',
        'IsAlpha',
        '@IsAlpha',
        'its locale- and option-dependent rule has no JSON Schema form',
      ),
    { code: 'decoder_only', where: 'CreateNoteInput.title', decorator: 'IsAlpha' },
    'CreateNoteInput.title: @IsAlpha is checked by the decoder only (its locale- and option-dependent rule has no JSON Schema form)',
  ],
  [
    'unknownDecorator',
    (m) => m.unknownDecorator('Note.title', 'IsSlug'),
    { code: 'unknown_decorator', where: 'Note.title', decorator: 'IsSlug' },
    'Note.title: @IsSlug is not a class-validator decorator the generator knows; if it validates, the decoder alone checks it',
  ],
  [
    'eachNeedsArray',
    (m) => m.eachNeedsArray('Note.title', 'MaxLength'),
    { code: 'each_needs_array', where: 'Note.title', decorator: 'MaxLength' },
    'Note.title: @MaxLength({ each: true }) needs an array member; remove each or make the member an array',
  ],
  [
    'eachMissing',
    (m) => m.eachMissing('ListMismatch.tags', 'IsIn', '@IsIn', 'the whole value', 'string[]'),
    { code: 'each_missing', where: 'ListMismatch.tags', decorator: 'IsIn' },
    'ListMismatch.tags: @IsIn checks the whole value, but the member is an array (string[]); add { each: true } to check every item',
  ],
  [
    'dateCheckOnOtherType',
    (m) => m.dateCheckOnOtherType('Event.at', 'MinDate', 'unknown'),
    { code: 'date_check_on_other_type', where: 'Event.at', decorator: 'MinDate' },
    'Event.at: @MinDate checks Date values, but the member is unknown; declare it as Date with @IsDate() @Type(() => Date)',
  ],
  [
    'typeCheckContradiction',
    (m) => m.typeCheckContradiction('Counter.count', 'IsString', 'number'),
    { code: 'type_check_contradiction', where: 'Counter.count', decorator: 'IsString' },
    'Counter.count: @IsString() contradicts the TypeScript type number; change the type or the decorator',
  ],
  [
    'typeCheckContradiction',
    (m) => m.typeCheckContradiction('Counter.list', 'IsArray', 'string'),
    { code: 'type_check_contradiction', where: 'Counter.list', decorator: 'IsArray' },
    'Counter.list: @IsArray() contradicts the TypeScript type string; declare the member as an array',
  ],
  [
    'wrongValueKind',
    (m) => m.wrongValueKind('WrongKind.code', 'Max', ['number'], new Set(['string']), 'string'),
    { code: 'wrong_value_kind', where: 'WrongKind.code', decorator: 'Max' },
    'WrongKind.code: @Max checks numbers only, but the member is string: the decoder would refuse every value the schema accepts; for string lengths use @MinLength / @MaxLength instead, or declare the member as a number',
  ],
  [
    'wrongValueKind',
    (m) => m.wrongValueKind('WrongKind.qty', 'MaxLength', ['string'], new Set(['number']), 'number'),
    { code: 'wrong_value_kind', where: 'WrongKind.qty', decorator: 'MaxLength' },
    'WrongKind.qty: @MaxLength checks strings only, but the member is number: the decoder would refuse every value the schema accepts; for numbers use @Min / @Max instead, or declare the member as a string',
  ],
  [
    'wrongValueKind',
    (m) => m.wrongValueKind('WrongKind.at', 'Contains', ['string'], new Set(['date']), 'Date'),
    { code: 'wrong_value_kind', where: 'WrongKind.at', decorator: 'Contains' },
    'WrongKind.at: @Contains checks strings only, but the member is Date: the decoder would refuse every value the schema accepts; a Date member is decoded to a Date; use @MinDate / @MaxDate, or declare the member as a string',
  ],
  [
    'wrongValueKind',
    (m) => m.wrongValueKind('WrongKind.flag', 'IsNotEmptyObject', ['object'], new Set(['boolean']), 'boolean'),
    { code: 'wrong_value_kind', where: 'WrongKind.flag', decorator: 'IsNotEmptyObject' },
    'WrongKind.flag: @IsNotEmptyObject checks objects only, but the member is boolean: the decoder would refuse every value the schema accepts; remove @IsNotEmptyObject or declare the member as a DTO class or Record',
  ],
  [
    'groupsOption',
    (m) => m.groupsOption('Note.title', 'IsString'),
    { code: 'groups_option', where: 'Note.title', decorator: 'IsString' },
    'Note.title: @IsString({ groups }) is not supported: admission validates without groups, so the schema could not say which checks apply; remove groups and give each tool its own DTO class',
  ],
  [
    'unreadableOptions',
    (m) => m.unreadableOptions('EachCall.tags', 'MaxLength', 'eachOptions()'),
    { code: 'unreadable_options', where: 'EachCall.tags', decorator: 'MaxLength' },
    'EachCall.tags: @MaxLength takes validation options the generator cannot read (eachOptions()), so it cannot tell whether each: true applies; write the options inline ({ each: true }) or as a const object literal',
  ],
  [
    'numberLiteralNeeded',
    (m) => m.numberLiteralNeeded('Page.size', 'Max', 0),
    { code: 'number_literal_needed', where: 'Page.size', decorator: 'Max' },
    'Page.size: @Max needs a number literal as argument 1; write the bound inline',
  ],
  [
    'literalNeeded',
    (m) => m.literalNeeded('Flag.on', 'Equals'),
    { code: 'literal_needed', where: 'Flag.on', decorator: 'Equals' },
    'Flag.on: @Equals needs a string, number, boolean or null literal; write it inline',
  ],
  [
    'seedLiteralNeeded',
    (m) => m.seedLiteralNeeded('Note.title', 'Contains'),
    { code: 'seed_literal_needed', where: 'Note.title', decorator: 'Contains' },
    'Note.title: @Contains needs a string literal; write the seed inline',
  ],
  [
    'arrayLiteralNeeded',
    (m) => m.arrayLiteralNeeded('Tags.list', 'ArrayContains'),
    { code: 'array_literal_needed', where: 'Tags.list', decorator: 'ArrayContains' },
    'Tags.list: @ArrayContains needs an array literal of strings, numbers or booleans; write it inline',
  ],
  [
    'valueListNeeded',
    (m) => m.valueListNeeded('Paint.color', 'IsEnum'),
    { code: 'value_list_needed', where: 'Paint.color', decorator: 'IsEnum' },
    "Paint.color: @IsEnum needs a TypeScript enum or a const object literal of string or number values (const Color = { Red: 'red' } as const) as argument 1; write it inline",
  ],
  [
    'valueListNeeded',
    (m) => m.valueListNeeded('Paint.size', 'IsIn'),
    { code: 'value_list_needed', where: 'Paint.size', decorator: 'IsIn' },
    'Paint.size: @IsIn needs an array literal of strings, numbers or null as argument 1; write it inline',
  ],
  [
    'objectValuesList',
    (m) => m.objectValuesList('StatusFilter.status', 'Status'),
    { code: 'object_values_list', where: 'StatusFilter.status', decorator: 'IsIn' },
    "StatusFilter.status: @IsIn(Object.values(Status)) is not evaluated by the generator; write @IsEnum(Status), which accepts the same values (class-validator checks a value against the object's values), or list the values inline",
  ],
  [
    'uuidVersion',
    (m) => m.uuidVersion('Ref.id', ['4', 'all']),
    { code: 'uuid_version', where: 'Ref.id', decorator: 'IsUUID' },
    'Ref.id: @IsUUID version must be a literal among 4, all; write it inline',
  ],
  [
    'boundNotCount',
    (m) => m.boundNotCount('BadBounds.s', 'MaxLength', -1, 'maxLength'),
    { code: 'bound_not_count', where: 'BadBounds.s', decorator: 'MaxLength' },
    'BadBounds.s: @MaxLength bound -1 is not a whole number of characters (JSON Schema maxLength must be an integer of at least 0); write a whole number of at least 0',
  ],
  [
    'boundNotCount',
    (m) => m.boundNotCount('BadBounds.a', 'ArrayMaxSize', -2, 'maxItems'),
    { code: 'bound_not_count', where: 'BadBounds.a', decorator: 'ArrayMaxSize' },
    'BadBounds.a: @ArrayMaxSize bound -2 is not a whole number of items (JSON Schema maxItems must be an integer of at least 0); write a whole number of at least 0',
  ],
  [
    'divisorNotInteger',
    (m) => m.divisorNotInteger('Qty.n', 1.5),
    { code: 'divisor_not_integer', where: 'Qty.n', decorator: 'IsDivisibleBy' },
    'Qty.n: @IsDivisibleBy(1.5) divides by parseInt(1.5) in validator.js; use a non-zero integer divisor',
  ],
  [
    'divisorNegative',
    (m) => m.divisorNegative('BadBounds.n', -5),
    { code: 'divisor_negative', where: 'BadBounds.n', decorator: 'IsDivisibleBy' },
    'BadBounds.n: @IsDivisibleBy(-5) cannot be said in JSON Schema (multipleOf must be a positive number); write @IsDivisibleBy(5), which validator.js reads the same',
  ],
  [
    'numberNotFinite',
    (m) => m.numberNotFinite('Price.amount', 'allowNaN'),
    { code: 'number_not_finite', where: 'Price.amount', decorator: 'IsNumber' },
    'Price.amount: @IsNumber({ allowNaN: true }) cannot be met: JSON numbers are always finite; remove allowNaN',
  ],
  [
    'emptyOnNonString',
    (m) => m.emptyOnNonString('Empty.n', 'number'),
    { code: 'empty_on_non_string', where: 'Empty.n', decorator: 'IsEmpty' },
    'Empty.n: @IsEmpty() on a number member accepts no value the type allows; remove the member or declare it as a string',
  ],
  [
    'valuesNotInType',
    (m) => m.valuesNotInType('EqualsMismatch.n', 'Equals', ['x'], ['x'], 'number'),
    { code: 'value_not_in_type', where: 'EqualsMismatch.n', decorator: 'Equals' },
    'EqualsMismatch.n: @Equals("x") is not a value of the TypeScript type number, so the member would accept nothing; change the value or the type',
  ],
  [
    'valuesNotInType',
    (m) => m.valuesNotInType('ListMismatch.s', 'IsIn', [1, 2], [1, 2], 'string'),
    { code: 'value_not_in_type', where: 'ListMismatch.s', decorator: 'IsIn' },
    'ListMismatch.s: @IsIn lists no value of the TypeScript type string (1, 2), so the member would accept nothing; list values of the type, or change the type',
  ],
  [
    'valuesNotInType',
    (m) => m.valuesNotInType('ListMismatch.size', 'IsIn', ['m', 'xl'], ['xl'], 'Size'),
    { code: 'value_not_in_type', where: 'ListMismatch.size', decorator: 'IsIn' },
    'ListMismatch.size: @IsIn lists "xl", which the TypeScript type Size does not hold; list only values of the type, or change the type',
  ],
  [
    'listsDisjoint',
    (m) => m.listsDisjoint('ListMismatch.none', 'IsIn', '"a"'),
    { code: 'lists_disjoint', where: 'ListMismatch.none', decorator: 'IsIn' },
    'ListMismatch.none: @IsIn shares no value with the values the member already allows ("a"), so it would accept nothing; keep one value list',
  ],
  [
    'equalsNotAllowed',
    (m) => m.equalsNotAllowed('Pick.v', 'c', '"a", "b"'),
    { code: 'equals_not_allowed', where: 'Pick.v', decorator: 'Equals' },
    'Pick.v: @Equals("c") is not among the values the member already allows ("a", "b"), so it would accept nothing; keep one of them',
  ],
  [
    'patternLiteralNeeded',
    (m) => m.patternLiteralNeeded('Code.value'),
    { code: 'pattern_literal_needed', where: 'Code.value', decorator: 'Matches' },
    'Code.value: @Matches needs a regular expression or string literal; write the pattern inline',
  ],
  [
    'patternFlags',
    (m) => m.patternFlags('GlobalFlag.code', 'g'),
    { code: 'pattern_flags', where: 'GlobalFlag.code', decorator: 'Matches' },
    'GlobalFlag.code: @Matches flags "g" cannot be expressed in JSON Schema (patterns always use the u flag); remove the flags and spell the pattern out (drop the g flag: it only makes the RegExp remember lastIndex between calls, so a repeated value can fail)',
  ],
  [
    'patternFlags',
    (m) => m.patternFlags('Counter.code', 'gi'),
    { code: 'pattern_flags', where: 'Counter.code', decorator: 'Matches' },
    'Counter.code: @Matches flags "gi" cannot be expressed in JSON Schema (patterns always use the u flag); remove the flags and spell the pattern out (drop the g flag: it only makes the RegExp remember lastIndex between calls, so a repeated value can fail; for the i flag, write both cases, for example [Aa])',
  ],
  [
    'patternFlags',
    (m) => m.patternFlags('DotAll.code', 's'),
    { code: 'pattern_flags', where: 'DotAll.code', decorator: 'Matches' },
    'DotAll.code: @Matches flags "s" cannot be expressed in JSON Schema (patterns always use the u flag); remove the flags and spell the pattern out (for the s flag, write [\\s\\S] where the pattern has .)',
  ],
  [
    'patternFlags',
    (m) => m.patternFlags('Multiline.code', 'm'),
    { code: 'pattern_flags', where: 'Multiline.code', decorator: 'Matches' },
    'Multiline.code: @Matches flags "m" cannot be expressed in JSON Schema (patterns always use the u flag); remove the flags and spell the pattern out (for the m flag, write (?:^|\\n) where the pattern has ^ and (?:$|\\n) where it has $)',
  ],
  [
    'patternFlags',
    (m) => m.patternFlags('Sticky.code', 'y'),
    { code: 'pattern_flags', where: 'Sticky.code', decorator: 'Matches' },
    'Sticky.code: @Matches flags "y" cannot be expressed in JSON Schema (patterns always use the u flag); remove the flags and spell the pattern out (drop the y flag and anchor the pattern with ^)',
  ],
  [
    'patternNotRe2',
    (m) => m.patternNotRe2('NotRe2.backref', 'pattern "(a)\\1" uses a backreference'),
    { code: 'pattern_not_re2', where: 'NotRe2.backref', decorator: 'Matches' },
    'NotRe2.backref: @Matches pattern "(a)\\1" uses a backreference; the input schema and the decoder both run @Matches on RE2',
  ],
  [
    'dateTypeContradiction',
    (m) => m.dateTypeContradiction('Slot.startsAt', 'string'),
    { code: 'date_type_contradiction', where: 'Slot.startsAt', decorator: 'IsDate' },
    'Slot.startsAt: @IsDate() contradicts the TypeScript type string; declare the member as Date',
  ],
  [
    'dateNeedsType',
    (m) => m.dateNeedsType('Slot.startsAt'),
    { code: 'date_needs_type', where: 'Slot.startsAt', decorator: 'IsDate' },
    'Slot.startsAt: @IsDate() needs @Type(() => Date) so the decoder turns the ISO 8601 string into a Date; add @Type(() => Date)',
  ],
  [
    'nestedNotClass',
    (m) => m.nestedNotClass('InterfaceNested.addr', 'ValidateNested', 'Addr', 'object'),
    { code: 'nested_not_class', where: 'InterfaceNested.addr', decorator: 'ValidateNested' },
    'InterfaceNested.addr: @ValidateNested() needs a DTO class member, but Addr is not a class (an interface or object type), so class-validator has no checks for it and refuses every value ("an unknown value was passed to the validate function") while the schema accepts it; declare Addr as a class with class-validator decorators and add @Type(() => Addr)',
  ],
  [
    'nestedNotClass',
    (m) => m.nestedNotClass('InterfaceNested.name', 'ValidateNested', 'string', 'string'),
    { code: 'nested_not_class', where: 'InterfaceNested.name', decorator: 'ValidateNested' },
    'InterfaceNested.name: @ValidateNested() needs a DTO class member, but string is not a DTO class, so the decoder refuses every value the schema accepts; remove @ValidateNested()',
  ],
  [
    'nestedNotClass',
    (m) => m.nestedNotClass('InterfaceNested.any', 'ValidateNested', 'unknown', 'any'),
    { code: 'nested_not_class', where: 'InterfaceNested.any', decorator: 'ValidateNested' },
    'InterfaceNested.any: @ValidateNested() needs a DTO class member, but unknown is not a DTO class, so the decoder refuses every value the schema accepts; remove @ValidateNested() or declare the member as a DTO class',
  ],
  [
    'nestedNeedsType',
    (m) => m.nestedNeedsType('Letter.street', 'ValidateNested', 'Street'),
    { code: 'nested_needs_type', where: 'Letter.street', decorator: 'ValidateNested' },
    'Letter.street: @ValidateNested() needs @Type(() => Street) so the decoder builds Street objects; add @Type(() => Street)',
  ],
  [
    'nestedUnchecked',
    (m) => m.nestedUnchecked('UncheckedList.labels', 'Label', true, false),
    { code: 'nested_unchecked', where: 'UncheckedList.labels', decorator: 'ValidateNested' },
    'UncheckedList.labels: holds the DTO class Label without @ValidateNested(), so class-validator does not check the members of Label and the decoder would skip the checks the schema shows for them; add @ValidateNested({ each: true }) @Type(() => Label)',
  ],
  [
    'nestedUnchecked',
    (m) => m.nestedUnchecked('Unchecked.label', 'Label', false, true),
    { code: 'nested_unchecked', where: 'Unchecked.label', decorator: 'ValidateNested' },
    'Unchecked.label: holds the DTO class Label without @ValidateNested(), so class-validator does not check the members of Label and the decoder would skip the checks the schema shows for them; add @ValidateNested()',
  ],
  [
    'dtoUnion',
    (m) => m.dtoUnion('DtoUnion.method', 'Card | Bank', ['Card', 'Bank']),
    { code: 'dto_union', where: 'DtoUnion.method' },
    'DtoUnion.method: the type Card | Bank is a union with the DTO classes Card, Bank: the decoder builds one class per member and refuses the other types, which the schema would accept; declare one DTO type per member (for example card?: Card, bank?: Bank)',
  ],
  [
    'dtoUnion',
    (m) => m.dtoUnion('DtoUnion.where', 'string | Card', ['Card']),
    { code: 'dto_union', where: 'DtoUnion.where' },
    'DtoUnion.where: the type string | Card is a union with the DTO class Card: the decoder builds one class per member and refuses the other types, which the schema would accept; declare one DTO type per member (for example card?: Card and a separate member for the other type)',
  ],
  [
    'typeDiscriminator',
    (m) => m.typeDiscriminator('Discriminated.method'),
    { code: 'type_discriminator', where: 'Discriminated.method', decorator: 'Type' },
    'Discriminated.method: @Type with a discriminator (or options the generator cannot read) is not supported: the schema cannot say which class a value becomes; declare one DTO type per member (one optional member per class)',
  ],
  [
    'typeTargetMismatch',
    (m) =>
      m.typeTargetMismatch(
        'TypeMismatch.v',
        { name: 'Number', primitive: true },
        'unknown',
        false,
        undefined,
        new Set(['any']),
      ),
    { code: 'type_target_mismatch', where: 'TypeMismatch.v', decorator: 'Type' },
    'TypeMismatch.v: @Type(() => Number) contradicts the TypeScript type unknown: the decoder would take only number values where the schema accepts the declared type; declare the member as number and remove @Type (a number member needs none)',
  ],
  [
    'typeTargetMismatch',
    (m) =>
      m.typeTargetMismatch(
        'TypeMismatch.ids',
        { name: 'String', primitive: true },
        'number[]',
        true,
        undefined,
        new Set(['number']),
      ),
    { code: 'type_target_mismatch', where: 'TypeMismatch.ids', decorator: 'Type' },
    'TypeMismatch.ids: @Type(() => String) contradicts the TypeScript type number[]: the decoder would take only string values as items where the schema accepts the declared type; remove @Type (number items need none)',
  ],
  [
    'typeTargetMismatch',
    (m) =>
      m.typeTargetMismatch(
        'TypeMismatch.item',
        { name: 'Other', primitive: false },
        'Item',
        false,
        'Item',
        new Set(['object']),
      ),
    { code: 'type_target_mismatch', where: 'TypeMismatch.item', decorator: 'Type' },
    'TypeMismatch.item: @Type(() => Other) contradicts the TypeScript type Item: the decoder would take only Other objects where the schema accepts the declared type; write @Type(() => Item)',
  ],
  [
    'typeTargetMismatch',
    (m) =>
      m.typeTargetMismatch(
        'ByName.byName',
        { name: 'Address', primitive: false },
        'Record<string, Address>',
        false,
        undefined,
        new Set(['object']),
      ),
    { code: 'type_target_mismatch', where: 'ByName.byName', decorator: 'Type' },
    'ByName.byName: @Type(() => Address) contradicts the TypeScript type Record<string, Address>: the decoder would take only Address objects where the schema accepts the declared type; make @Type name the declared type, or change the type',
  ],
  [
    'typeTargetMismatch',
    (m) =>
      m.typeTargetMismatch('When.at', { name: 'Date', primitive: true }, 'unknown', false, undefined, new Set(['any'])),
    { code: 'type_target_mismatch', where: 'When.at', decorator: 'Type' },
    'When.at: @Type(() => Date) contradicts the TypeScript type unknown: the decoder would take only Date objects where the schema accepts the declared type; declare the member as Date',
  ],
  [
    'arrayOfArrays',
    (m) => m.arrayOfArrays('Matrix.items', 'ValidateNested', 'Item', true, false),
    { code: 'array_of_arrays', where: 'Matrix.items', decorator: 'ValidateNested' },
    'Matrix.items: an array of arrays cannot carry @ValidateNested: the decoder takes each item of the outer array to be one Item object and refuses the rows; wrap each row in a DTO (class ItemRow { @ValidateNested({ each: true }) @Type(() => Item) items!: Item[] }) and declare the member as ItemRow[]',
  ],
  [
    'arrayOfArrays',
    (m) => m.arrayOfArrays('Grids.days', 'Type', 'Date', true, true),
    { code: 'array_of_arrays', where: 'Grids.days', decorator: 'Type' },
    'Grids.days: an array of arrays cannot carry @Type: the decoder takes each item of the outer array to be one Date object and refuses the rows; wrap each row in a DTO (class DateRow { @IsDate({ each: true }) @Type(() => Date) items!: Date[] }) and declare the member as DateRow[]',
  ],
  [
    'arrayOfArrays',
    (m) => m.arrayOfArrays('Grids.grid', 'Type', 'number', false, false),
    { code: 'array_of_arrays', where: 'Grids.grid', decorator: 'Type' },
    'Grids.grid: an array of arrays cannot carry @Type: the decoder takes each item of the outer array to be one number and refuses the rows; remove @Type (an array of arrays of number needs none), or wrap each row in a DTO',
  ],
  [
    'exposeOptions',
    (m) => m.exposeOptions('Renamed.name', ['toClassOnly', 'since']),
    { code: 'expose_options', where: 'Renamed.name', decorator: 'Expose' },
    'Renamed.name: @Expose option toClassOnly, since is not supported on a tool input; keep only { name }',
  ],
  [
    'recordValues',
    (m) => m.recordValues('MixedValues.values', 'string | Address'),
    { code: 'record_values', where: 'MixedValues.values' },
    'MixedValues.values: Record values of type string | Address are not checked by the decoder; use string, number, boolean or unknown values (or a union of them, null included), or an array of a nested DTO',
  ],
  [
    'defaultNotShown',
    (m) => m.defaultNotShown('WithPaging.paging', 'new Paging()'),
    { code: 'default_not_shown', where: 'WithPaging.paging' },
    'WithPaging.paging: the default (new Paging()) is not a literal the generator can evaluate, so the schema shows no default (the decoder still applies it); write the default as a literal or a const to show it',
  ],
  [
    'defaultUnreadable',
    (m) => m.defaultUnreadable('Search.sort', 'pick()'),
    { code: 'default_unreadable', where: 'Search.sort' },
    "Search.sort: the generator cannot evaluate the default (pick()), so the schema cannot show it nor check it against the member's constraints (the decoder applies and validates it); write the default as a literal or a const",
  ],
  [
    'defaultBreaksConstraints',
    (m) => m.defaultBreaksConstraints('OrderLine.qty', 0, 'must be >= 1'),
    { code: 'default_breaks_constraints', where: 'OrderLine.qty' },
    "OrderLine.qty: the default 0 breaks the member's own constraints (must be >= 1); change the initializer or the constraint",
  ],
  [
    'jsDocDefaultWithoutInitializer',
    (m) => m.jsDocDefaultWithoutInitializer('JsDocDefault.limit', 'limit', '10'),
    { code: 'jsdoc_default_without_initializer', where: 'JsDocDefault.limit' },
    'JsDocDefault.limit: the JSDoc @default 10 is shown to the model, but the tool receives undefined when the member is absent; write a property initializer instead (limit = 10) and remove the tag',
  ],
  [
    'jsDocDefaultWithoutInitializer',
    (m) => m.jsDocDefaultWithoutInitializer('JsDocDefault.limit', 'limit', ''),
    { code: 'jsdoc_default_without_initializer', where: 'JsDocDefault.limit' },
    'JsDocDefault.limit: the JSDoc @default  is shown to the model, but the tool receives undefined when the member is absent; write a property initializer instead (limit = ...) and remove the tag',
  ],
  [
    'jsDocDefaultDisagrees',
    (m) => m.jsDocDefaultDisagrees('DisagreeingDefault.sort', "'asc'", "'desc'"),
    { code: 'jsdoc_default_disagrees', where: 'DisagreeingDefault.sort' },
    "DisagreeingDefault.sort: the JSDoc @default 'asc' disagrees with the initializer ('desc'), which is what the tool receives; remove the tag (the initializer is the default the schema shows)",
  ],
  [
    'mixinBase',
    (m) => m.mixinBase('Mixed', 'Timestamped(Plain)'),
    { code: 'mixin_base', where: 'Mixed' },
    'Mixed: extends Timestamped(Plain), which is not a class declaration (a mixin or class factory), so the generator cannot read the decorators of the members it adds and the schema would lose their checks; declare those members in a class and extend that class (class Mixed extends SomeBase { ... })',
  ],
  [
    'noDeclaration',
    (m) => m.noDeclaration('Point.x', 'x'),
    { code: 'no_declaration', where: 'Point.x' },
    'Point.x: the generator cannot find the property declaration of this member (a constructor parameter property, or a member added by a mixin), so its checks cannot be read and the decoder does not see it; declare it as a decorated property of the class (@IsString() x!: string)',
  ],
  [
    'noValidator',
    (m) => m.noValidator('Undecorated.count'),
    { code: 'no_validator', where: 'Undecorated.count' },
    'Undecorated.count: has no class-validator decorator, so the decoder never sees it (whitelist refuses it as an unknown member, and a DTO without any is taken to accept only {}); add a decorator that checks its type (for example @IsString()), or @IsOptional() or @Allow() when its TypeScript type says enough',
  ],
  [
    'notJsonBuiltin',
    (m) => m.notJsonBuiltin('Lookup.map', 'Map'),
    { code: 'not_json_builtin', where: 'Lookup.map' },
    'Lookup.map: a Map is not a JSON value (the schema cannot describe it, and the decoder does not build one from JSON); use a Record<string, T> member (or an array) instead',
  ],
  [
    'definedButOptional',
    (m) => m.definedButOptional('DefinedOptional.x', true),
    { code: 'defined_but_optional', where: 'DefinedOptional.x', decorator: 'IsDefined' },
    'DefinedOptional.x: is optional in TypeScript (?), but @IsDefined() makes the decoder require it; remove the ?',
  ],
  [
    'definedButOptional',
    (m) => m.definedButOptional('DefinedOptional.y', false),
    { code: 'defined_but_optional', where: 'DefinedOptional.y', decorator: 'IsDefined' },
    'DefinedOptional.y: has a type that admits undefined, but @IsDefined() makes the decoder require it; remove undefined from its type',
  ],
  [
    'optionalWithoutDecorator',
    (m) => m.optionalWithoutDecorator('NoOptional.nickname', true),
    { code: 'optional_without_decorator', where: 'NoOptional.nickname' },
    'NoOptional.nickname: is optional in TypeScript (?), but without @IsOptional() the decoder requires it (a ? does not make class-validator skip a member); add @IsOptional() if it may be absent, or remove the ? if it is required',
  ],
  [
    'optionalWithoutDecorator',
    (m) => m.optionalWithoutDecorator('NoOptional.maybe', false),
    { code: 'optional_without_decorator', where: 'NoOptional.maybe' },
    'NoOptional.maybe: has a type that admits undefined, but without @IsOptional() the decoder requires it (a ? does not make class-validator skip a member); add @IsOptional() if it may be absent, or remove undefined from its type if it is required',
  ],
  [
    'prototypeProperty',
    (m) => m.prototypeProperty('ProtoName.valueOf', 'ProtoName.valueOf: the decoder sentence'),
    { code: 'prototype_property', where: 'ProtoName.valueOf' },
    'ProtoName.valueOf: the decoder sentence',
  ],
  [
    'forbiddenWireName',
    (m) => m.forbiddenWireName('CtorName.maker', 'constructor'),
    { code: 'forbidden_wire_name', where: 'CtorName.maker' },
    'CtorName.maker: the wire name "constructor" is refused by the decoder in every argument (it could reach an object prototype); rename the member, or give it another wire name with @Expose({ name })',
  ],
  [
    'wireNameTwice',
    (m) => m.wireNameTwice('Twice.b', 'name'),
    { code: 'wire_name_twice', where: 'Twice.b' },
    'Twice.b: wire name "name" is used twice; give each member its own @Expose({ name })',
  ],
  [
    'decoratedAccessor',
    (m) => m.decoratedAccessor('Getter.upper', 'upper', 'get'),
    { code: 'decorated_accessor', where: 'Getter.upper' },
    'Getter.upper: a decorated accessor (get upper) cannot take an argument: class-transformer does not set it, so the value the schema asks for would be dropped; declare it as a property (upper!: string, or upper?: string with @IsOptional()) and compute derived values in the tool',
  ],
  [
    'computedName',
    (m) => m.computedName('Computed.[key()]'),
    { code: 'computed_name', where: 'Computed.[key()]' },
    'Computed.[key()]: a computed member name the generator cannot read (it is not a string or number literal), so the schema could not name the member; give it a plain name (or a const string literal key)',
  ],
  [
    'memberLeftOut',
    (m) => m.memberLeftOut('Ignored.secret', true),
    { code: 'member_left_out', where: 'Ignored.secret' },
    'Ignored.secret: the JSDoc @ignore tag leaves the member out of the schema, but the decoder still checks (and requires) it; remove the tag, or remove the member from the DTO',
  ],
  [
    'memberLeftOut',
    (m) => m.memberLeftOut('Never.nothing', false),
    { code: 'member_left_out', where: 'Never.nothing' },
    'Never.nothing: the schema leaves this member out (its type is undefined or never), but the decoder still checks it; give it a type that holds a value, or remove it from the DTO',
  ],
  [
    'indexSignature',
    (m) => m.indexSignature('Indexed', '[extra: string]: string'),
    { code: 'index_signature', where: 'Indexed' },
    'Indexed: has an index signature ([extra: string]: string), so the schema would admit members the decoder refuses as unknown; remove the index signature; use a Record member (extra!: Record<string, string>)',
  ],
  [
    'constructorArguments',
    (m) => m.constructorArguments('NeedsArgs', 'NeedsArgs', 'id'),
    { code: 'constructor_arguments', where: 'NeedsArgs' },
    'NeedsArgs: its constructor requires the argument id, but the decoder builds every DTO with new NeedsArgs(); a DTO must be constructible without arguments (make the parameter optional or remove the constructor)',
  ],
  [
    'constructorArguments',
    (m) => m.constructorArguments('Derived', 'Base', 'id'),
    { code: 'constructor_arguments', where: 'Derived' },
    'Derived: the Base constructor requires the argument id, but the decoder builds every DTO with new Derived(); a DTO must be constructible without arguments (make the parameter optional or remove the constructor)',
  ],
  [
    'schemaNotDerived',
    (m) => m.schemaNotDerived('Hidden'),
    { code: 'schema_not_derived', where: 'Hidden' },
    'Hidden: typescript-json-schema cannot derive a schema for this class; check that it is exported and its name is unique in the project',
  ],
  [
    'nestedDefinitionMissing',
    (m) => m.nestedDefinitionMissing('Tag', 'Label', ['label.Label', 'Tone']),
    { code: 'nested_definition_missing', where: 'Tag' },
    'Tag: the generator cannot find the schema typescript-json-schema derived for the nested class Label (definitions: label.Label, Tone), so the constraints of its decorators would be missing; generation stops instead: report this with the compilerOptions module and moduleResolution of the tsconfig',
  ],
  [
    'nestedDefinitionMissing',
    (m) => m.nestedDefinitionMissing('Tag', 'Label', []),
    { code: 'nested_definition_missing', where: 'Tag' },
    'Tag: the generator cannot find the schema typescript-json-schema derived for the nested class Label (definitions: none), so the constraints of its decorators would be missing; generation stops instead: report this with the compilerOptions module and moduleResolution of the tsconfig',
  ],
  [
    'symbolKey',
    (m) => m.symbolKey('Keyed.[sym]'),
    { code: 'symbol_key', where: 'Keyed.[sym]' },
    'Keyed.[sym]: the type has a symbol-keyed member, which typescript-json-schema names with an unstable id and no JSON argument can carry; use a plain class, a Record<string, T> or an array for this member',
  ],
  [
    'genericClass',
    (m) => m.genericClass('Page', ['T']),
    { code: 'generic_class', where: 'Page' },
    'Page: a generic class (Page<T>) cannot describe a tool input: decorator metadata erases T, so the decoder cannot check what the schema says about it; declare a non-generic DTO class that names its member types (for example class ItemPage { @ValidateNested({ each: true }) @Type(() => Item) items!: Item[] })',
  ],
  [
    'namespacedClass',
    (m) => m.namespacedClass('Refund', 'Billing'),
    { code: 'namespaced_class', where: 'Billing.Refund' },
    'Billing.Refund: is declared inside the namespace Billing, and the generator finds a DTO class by its name at the top level of a file, so it cannot derive its schema; move the class out of the namespace (export class Refund at the top level of a module, renamed if the name is taken)',
  ],
  [
    'classTagKeyword',
    (m) => m.classTagKeyword('ConstraintTag', 'maxProperties', 'maxProperties'),
    { code: 'class_tag_keyword', where: 'ConstraintTag' },
    'ConstraintTag: the class JSDoc tag @maxProperties would become the JSON Schema keyword "maxProperties" on the whole object, which the decoder does not check; remove the tag (put constraints on the members, with their decorators)',
  ],
  [
    'schemaDoesNotCompile',
    (m) =>
      m.schemaDoesNotCompile(
        'UnknownFormat.tel',
        'unknown format "phone" ignored in schema at path "#/properties/tel"',
      ),
    { code: 'schema_does_not_compile', where: 'UnknownFormat.tel' },
    'UnknownFormat.tel: the generated schema does not compile (unknown format "phone" ignored in schema at path "#/properties/tel"); change the decorator arguments or JSDoc tags of that member so that they say a valid JSON Schema',
  ],
  [
    'definitionNameClash',
    (m) => m.definitionNameClash('Root', 'Label', 'import("./a").Label', 'import("./b").Label'),
    { code: 'definition_name_clash', where: 'Root' },
    'Root: reaches two types printed as Label (import("./a").Label and import("./b").Label), and schema definitions are keyed by name, so a class would lose its decorators; rename one of them',
  ],
  [
    'syntaxError',
    (m) => m.syntaxError("';' expected."),
    { code: 'syntax_error', where: '' },
    "syntax error: ';' expected.",
  ],
  [
    'experimentalDecoratorsOff',
    (m) => m.experimentalDecoratorsOff('tsconfig.json'),
    { code: 'experimental_decorators_off', where: 'tsconfig.json' },
    'tsconfig.json: "experimentalDecorators" is not true, so @Toolset, @Tool and @Authorize compile as standard (TC39) decorators and every @Tool throws at start-up; set "experimentalDecorators": true and "emitDecoratorMetadata": true in its compilerOptions (docs/install.md)',
  ],
  [
    'decoratorMetadataOff',
    (m) => m.decoratorMetadataOff('tsconfig.json', ['NotesTools.create', 'NotesTools.list', 'NotesTools.get'], 2),
    { code: 'decorator_metadata_off', where: 'tsconfig.json' },
    'tsconfig.json: "emitDecoratorMetadata" is not true, so no parameter types are recorded and every @Tool must name its input: NotesTools.create, NotesTools.list, NotesTools.get and 2 more do not; write @Tool({ input: YourInputClass }) (input: null for a method without input), or set "emitDecoratorMetadata": true in its compilerOptions',
  ],
  [
    'generatorNotStarted',
    (m) => m.generatorNotStarted('Note'),
    { code: 'generator_not_started', where: 'Note' },
    'Note: typescript-json-schema could not start; check the project compiles',
  ],
  [
    'inputNameClash',
    (m) => m.inputNameClash('SearchInput', 'users.ts:4', 'orders.ts:6'),
    { code: 'input_name_clash', where: 'SearchInput' },
    'SearchInput: users.ts:4 declares another SearchInput, and the generator finds a DTO class by its name, so this tool would get the schema of the other one; rename one of them (the class at orders.ts:6 or the one at users.ts:4)',
  ],
  [
    'reachedNameClash',
    (m) => m.reachedNameClash('Shipment', 'two classes', 'Address', 'orders.ts:3', 'users.ts:8'),
    { code: 'reached_name_clash', where: 'Shipment' },
    'Shipment: reaches two classes named Address (orders.ts:3 and users.ts:8), and schema definitions are keyed by name, so a class would lose its decorators; rename one of them',
  ],
  [
    'duplicateToolName',
    (m) => m.duplicateToolName('B.run', 'run', 'A.run'),
    { code: 'duplicate_tool_name', where: 'B.run', decorator: 'Tool' },
    'B.run: tool name "run" is also used by A.run; give one of them another @Tool({ name })',
  ],
  [
    'toolOptionsNotLiteral',
    (m) => m.toolOptionsNotLiteral('NotesTools.create'),
    { code: 'tool_options_not_literal', where: 'NotesTools.create', decorator: 'Tool' },
    'NotesTools.create: @Tool options must be an object literal ({ name, description }); write them inline',
  ],
  [
    'toolOptionNotString',
    (m) => m.toolOptionNotString('NotesTools.create', 'name'),
    { code: 'tool_option_not_string', where: 'NotesTools.create', decorator: 'Tool' },
    'NotesTools.create: @Tool name must be a string literal so the generator can read it; write it inline',
  ],
  [
    'toolNameInvalid',
    (m) => m.toolNameInvalid('BrokenTools.badName', 'bad name'),
    { code: 'tool_name_invalid', where: 'BrokenTools.badName', decorator: 'Tool' },
    'BrokenTools.badName: tool name "bad name" must match ^[A-Za-z0-9_-]{1,64}$; rename it with @Tool({ name })',
  ],
  [
    'toolInputNotClass',
    (m) => m.toolInputNotClass('NotesTools.create'),
    { code: 'tool_input_not_class', where: 'NotesTools.create', decorator: 'Tool' },
    'NotesTools.create: @Tool input must name the input DTO class, or be null for a method without input, so the generator can read it; write the class name inline',
  ],
  [
    'toolOutputNotClass',
    (m) => m.toolOutputNotClass('NotesTools.create'),
    { code: 'tool_output_not_class', where: 'NotesTools.create', decorator: 'Tool' },
    'NotesTools.create: @Tool output must name the output DTO class so the generator can read it; write the class name inline',
  ],
  [
    'toolInputMismatch',
    (m) => m.toolInputMismatch('NotesTools.create', 'OtherInput', 'NoteInput'),
    { code: 'tool_input_mismatch', where: 'NotesTools.create', decorator: 'Tool' },
    "NotesTools.create: @Tool input names OtherInput but the first parameter's type is NoteInput; make them the same class",
  ],
  [
    'inputNotClass',
    (m) => m.inputNotClass('NotesTools.create', 'string'),
    { code: 'input_not_class', where: 'NotesTools.create' },
    "NotesTools.create: the input parameter's type string is not a class; declare the input as a class-validator DTO class",
  ],
];

/** Builders that render parts of sentences rather than whole issues. */
const HELPERS = new Set<keyof Messages>(['kindWords', 'valueText']);

describe('the schema message builders', () => {
  it.each(CASES)('%s words its case', (_name, build, fields, sentence) => {
    const issue = build(SCHEMA_MESSAGES);
    expect({ ...issue, message: undefined }).toEqual({ ...fields, message: undefined });
    expect(issue.message).toBe(sentence);
  });

  it('every builder has a case, and every case a code of its own builder', () => {
    const builders = (Object.keys(SCHEMA_MESSAGES) as (keyof Messages)[]).filter((k) => !HELPERS.has(k));
    expect(builders.filter((b) => !CASES.some(([name]) => name === b))).toEqual([]);
    const codes = new Map<string, string>();
    for (const [name, build] of CASES) {
      const { code } = build(SCHEMA_MESSAGES);
      expect([code, codes.get(code) ?? name]).toEqual([code, name]);
      codes.set(code, name);
    }
  });

  it('every sentence starts with its place, except a syntax error, which has none', () => {
    for (const [, build] of CASES) {
      const issue = build(SCHEMA_MESSAGES);
      if (issue.code === 'syntax_error') expect(issue.where).toBe('');
      else expect(issue.message.startsWith(`${issue.where}: `)).toBe(true);
    }
  });

  it('render value kinds and value lists for the sentences', () => {
    expect(SCHEMA_MESSAGES.kindWords('date')).toBe('Date values');
    expect(SCHEMA_MESSAGES.valueText(['a', 1, null])).toBe('"a", 1, null');
  });
});
