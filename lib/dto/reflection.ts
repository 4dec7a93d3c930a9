/**
 * The one place lib/dto reads decorator metadata: TypeScript's `design:type`, class-validator's
 * metadata storage and class-transformer's `@Type` / `@Expose` records.
 *
 * class-validator keeps its store on the global object (`getMetadataStorage()`); class-transformer
 * keeps it in a module (`class-transformer/cjs/storage`), which is why both are peer dependencies:
 * the user's DTO decorators and this reader must load the same copy.
 */
import 'reflect-metadata';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { MetadataStorage } from 'class-validator';
// class-transformer exposes no public reader of @Type/@Expose; its storage module is the stable path.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import { TransformationType } from 'class-transformer';
import type { ClassTransformOptions } from 'class-transformer';
// The executor plainToInstance runs: used to apply a member's @Transform exactly as it would.
import { TransformOperationExecutor } from 'class-transformer/cjs/TransformOperationExecutor.js';
import { defaultOptions } from 'class-transformer/cjs/constants/default-options.constant.js';

/** A DTO class: anything constructible. @internal */
export type DtoClass<T = object> = abstract new (...args: never[]) => T;

/** A class-validator record (one per decorator use). @internal */
export type ValidationRecord = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** The system record types of class-validator, re-exported for lib/dto. @internal */
export const VALIDATION_TYPES = ValidationTypes;

/**
 * Every class-validator record of `dto`, inherited ones included (the subclass wins per property
 * and type, as class-validator decides), with no groups filter. @internal
 */
export function validationRecords(dto: Function): ValidationRecord[] {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
}

/** Whether the constraint class behind a custom record was declared asynchronous. @internal */
export function isAsyncConstraint(record: ValidationRecord): boolean {
  if (record.type === ValidationTypes.PROMISE_VALIDATION) return true;
  if (record.type !== ValidationTypes.CUSTOM_VALIDATION || typeof record.constraintCls !== 'function') return false;
  return getMetadataStorage()
    .getTargetValidatorConstraints(record.constraintCls)
    .some((c) => c.async);
}

/** The name class-validator reports for a record's constraint (`maxLength`, a @ValidatorConstraint name). @internal */
export function constraintName(record: ValidationRecord): string {
  if (record.name) return record.name;
  if (typeof record.constraintCls === 'function') {
    const meta = getMetadataStorage().getTargetValidatorConstraints(record.constraintCls)[0];
    return meta?.name || record.constraintCls.name || record.type;
  }
  return record.type;
}

/**
 * The default message the constraint behind `record` gives for `constraints` (the template, with
 * `$property` and the like unreplaced), or undefined when it has none or reading it throws. @internal
 */
export function defaultMessageOf(record: ValidationRecord, constraints: readonly unknown[]): string | undefined {
  if (typeof record.constraintCls !== 'function') return undefined;
  try {
    const instance = getMetadataStorage().getTargetValidatorConstraints(record.constraintCls)[0]?.instance as
      { defaultMessage?: (args: unknown) => unknown } | undefined;
    const message = instance?.defaultMessage?.({
      value: undefined,
      constraints: [...constraints],
      targetName: '',
      object: {},
      property: '',
    });
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** The `design:type` TypeScript emitted for a decorated property, or undefined. @internal */
export function designType(dto: Function, property: string): unknown {
  return Reflect.getMetadata('design:type', dto.prototype as object, property);
}

/** The class (or primitive constructor) an `@Type(() => X)` names, or undefined. @internal */
export function transformerType(dto: Function, property: string): Function | undefined {
  const meta = defaultMetadataStorage.findTypeMetadata(dto, property);
  if (meta === undefined || typeof meta.typeFunction !== 'function') return undefined;
  const t = meta.typeFunction();
  return typeof t === 'function' ? t : undefined;
}

/** The wire name `@Expose({ name })` gives a property, or the property name itself. @internal */
export function wireName(dto: Function, property: string): string {
  const meta = defaultMetadataStorage.findExposeMetadata(dto, property);
  const name = meta?.options?.name;
  return typeof name === 'string' && name !== '' ? name : property;
}

/**
 * Whether class-transformer knows properties of `dto` (`@Type`, `@Expose`, `@Transform`,
 * `@Exclude`): evidence of properties when class-validator has recorded none. @internal
 */
export function transformerProperties(dto: Function): string[] {
  const names = new Set<string>();
  for (const m of defaultMetadataStorage.getExposedMetadatas(dto)) {
    if (typeof m.propertyName === 'string') names.add(m.propertyName);
  }
  return [...names];
}

/**
 * Whether plainToInstance does nothing to `property` of `dto` but assign it under its wire name
 * `wire`, and adds no key outside `members`: no class strategy (`@Exclude()` / `@Expose()` on the
 * class), no `@Exclude`, no `@Transform`, an `@Expose` with no option but `name`, the wire name read
 * back to this property (class-transformer looks custom names up across the class hierarchy, so a
 * base class's `@Expose({ name })` can claim it), no `@Type` but one whose function reads nothing of
 * its options and names `expected` (the class or constructor the plan builds the member or its items
 * with; undefined: no `@Type` allowed), no exposed property outside `members`. Read by the decoders
 * compiled from plans (lib/dto/fast.ts). @internal
 */
export function transformsPlainly(
  dto: Function,
  property: string,
  wire: string,
  expected: Function | undefined,
  members: ReadonlySet<string>,
): boolean {
  if (defaultMetadataStorage.getStrategy(dto) !== 'none') return false;
  if (defaultMetadataStorage.findExcludeMetadata(dto, property) !== undefined) return false;
  if (hasTransform(dto, property)) return false;
  const expose = defaultMetadataStorage.findExposeMetadata(dto, property);
  if (expose !== undefined && Object.keys(expose.options ?? {}).some((k) => k !== 'name')) return false;
  if ((defaultMetadataStorage.findExposeMetadataByCustomName(dto, wire)?.propertyName ?? wire) !== property)
    return false;
  const type = defaultMetadataStorage.findTypeMetadata(dto, property);
  if (type !== undefined && (type.options?.discriminator !== undefined || !namesStatically(type, expected)))
    return false;
  return defaultMetadataStorage
    .getExposedProperties(dto, TransformationType.PLAIN_TO_CLASS)
    .every((p) => members.has(p));
}

/**
 * Whether a `@Type` function, called as class-transformer calls it (with `{ newObject, object,
 * property }`), reads none of that and names `expected`: the same class whatever the value.
 */
function namesStatically(type: { readonly typeFunction: (options?: never) => Function }, expected: unknown): boolean {
  if (expected === undefined || typeof type.typeFunction !== 'function') return false;
  let read = false;
  const options = new Proxy(
    {},
    {
      get: () => ((read = true), undefined),
      has: () => ((read = true), false),
      ownKeys: () => ((read = true), []),
      getOwnPropertyDescriptor: () => ((read = true), undefined),
    },
  );
  try {
    return type.typeFunction(options as never) === expected && !read;
  } catch {
    return false;
  }
}

/** Whether `property` of `dto` carries `@Expose` (plainToInstance then assigns it even when absent). @internal */
export function isExposed(dto: Function, property: string): boolean {
  return defaultMetadataStorage.findExposeMetadata(dto, property) !== undefined;
}

/** The options the decoder gives plainToInstance (lib/dto/dto-input.ts). @internal */
export const PLAIN_TO_INSTANCE_OPTIONS: ClassTransformOptions = Object.freeze({ enableImplicitConversion: true });

/** Whether class-transformer holds a transform of `property` that plainToInstance applies (`@Transform`). @internal */
export function hasTransform(dto: Function, property: string): boolean {
  return defaultMetadataStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0;
}

/**
 * Applies the `@Transform`s of `property` to `value` as plainToInstance applies them: class-transformer's
 * own executor, built as plainToInstance builds it (its default options and the decoder's), with
 * `key` the property name and `obj` the plain object holding the member. @internal
 */
export function plainTransforms(value: unknown, dto: Function, property: string, obj: unknown): unknown {
  const executor = new TransformOperationExecutor(TransformationType.PLAIN_TO_CLASS, {
    ...defaultOptions,
    ...PLAIN_TO_INSTANCE_OPTIONS,
  });
  const apply = (executor as unknown as { applyCustomTransformations: CustomTransformations })
    .applyCustomTransformations;
  return apply.call(executor, value, dto, property, obj, TransformationType.PLAIN_TO_CLASS);
}

type CustomTransformations = (
  value: unknown,
  target: Function,
  key: string,
  obj: unknown,
  type: TransformationType,
) => unknown;
