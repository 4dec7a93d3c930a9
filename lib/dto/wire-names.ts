/**
 * The wire member names of a DTO, as the container compares them with a manifest's
 * `input_schema.properties` (notes/CONTRACTS.md).
 */
import type { DtoClass } from './reflection';
import { planOf } from './plan';

/**
 * The wire names (after `@Expose({ name })`) of the properties class-validator knows on `dto`,
 * inherited ones included, in declaration order.
 * @throws ToolError ERR_INVALID_TOOL when the DTO itself is refused (see dtoInput)
 */
export function dtoWireNames(dto: DtoClass): string[] {
  return planOf(dto).properties.map((p) => p.wire);
}
