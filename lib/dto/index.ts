/**
 * lib/dto: class-validator DTOs as tool inputs, decoded strictly (docs/architecture.md section 4).
 * Depends on lib/protocol, class-validator, class-transformer and reflect-metadata.
 */
export { dtoInput, emptyInput } from './dto-input';
export type { DtoInput, DtoInputOptions } from './dto-input';
export { EMPTY_INPUT_SCHEMA } from './derive-schema';
export { dtoWireNames } from './wire-names';
export type { DtoClass } from './reflection';
