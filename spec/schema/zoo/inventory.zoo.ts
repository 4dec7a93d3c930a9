import { Type } from 'class-transformer';
import {
  ArrayContains,
  ArrayMaxSize,
  ArrayMinSize,
  IsEnum,
  IsInt,
  IsNotEmptyObject,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export enum Warehouse {
  North = 'north',
  South = 'south',
}

export class StockLine {
  @Matches(/^SKU-[A-Z0-9]{6}$/) sku!: string;
  @IsInt() @Min(1) @Max(9999) quantity!: number;
}

export class AdjustStock {
  @IsEnum(Warehouse) warehouse!: Warehouse;
  @ValidateNested({ each: true }) @Type(() => StockLine) @ArrayMinSize(1) @ArrayMaxSize(30) lines!: StockLine[];
}

export class ProductAttributes {
  @IsObject() @IsNotEmptyObject() attributes!: Record<string, string>;
  @Matches(/^SKU-[A-Z0-9]{6}$/) sku!: string;
}

export class ReorderRule {
  @Matches(/^SKU-[A-Z0-9]{6}$/) sku!: string;
  @IsInt() @Min(0) threshold!: number;
  @IsInt() @Min(1) @Max(1000) reorderQuantity!: number;
}

export class ShipmentChecklist {
  @IsString({ each: true }) @ArrayContains(['invoice']) @ArrayMaxSize(6) documents!: string[];
  @IsString() @Length(4, 40) carrier!: string;
}

export class StockQuery {
  @IsOptional() @IsEnum(Warehouse) warehouse?: Warehouse;
  @IsOptional() @IsInt() @Min(0) belowQuantity?: number;
}

@Toolset()
export class InventoryZoo {
  @Tool({ name: 'zoo_adjust_stock' }) adjust(input: AdjustStock): number {
    return input.lines.length;
  }
  @Tool({ name: 'zoo_product_attributes' }) attrs(input: ProductAttributes): string {
    return input.sku;
  }
  @Tool({ name: 'zoo_reorder_rule' }) reorder(input: ReorderRule): string {
    return input.sku;
  }
  @Tool({ name: 'zoo_shipment_checklist' }) checklist(input: ShipmentChecklist): string {
    return input.carrier;
  }
  @Tool({ name: 'zoo_stock_query' }) query(input: StockQuery): string {
    return input.warehouse ?? 'all';
  }
}
