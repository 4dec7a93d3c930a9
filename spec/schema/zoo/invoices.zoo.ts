import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsDivisibleBy,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Tool, Toolset } from '../fixtures/project/decorators';

export enum Currency {
  Eur = 'EUR',
  Usd = 'USD',
  Gbp = 'GBP',
}

export class LineItem {
  @IsString() @Length(1, 120) description!: string;
  @IsInt() @Min(1) @Max(10000) quantity!: number;
  /** Unit price in cents. */
  @IsInt() @Min(0) unitPrice!: number;
}

/** A new invoice. */
export class CreateInvoice {
  @Matches(/^C-\d{4,8}$/) customerId!: string;
  @IsEnum(Currency) currency!: Currency;
  @ArrayNotEmpty() @ArrayMaxSize(50) @ValidateNested({ each: true }) @Type(() => LineItem) lines!: LineItem[];
  @IsOptional() @IsInt() @Min(0) @Max(100) discountPercent?: number;
}

export class PayInvoice {
  @Matches(/^INV-\d{6}$/) invoiceId!: string;
  @IsNumber() @IsPositive() amount!: number;
  @IsEnum(Currency) currency!: Currency;
}

export class InvoiceQuery {
  @IsOptional() @IsIn(['draft', 'sent', 'paid', 'void']) status?: 'draft' | 'sent' | 'paid' | 'void';
  @IsInt() @Min(1) @Max(200) pageSize = 25;
}

export class TaxRates {
  /** Rate in basis points per country code. */
  @IsObject() rates!: Record<string, number>;
  @IsInt() @IsDivisibleBy(5) roundingCents!: number;
}

export class CreditNote {
  @Matches(/^INV-\d{6}$/) invoiceId!: string;
  @IsInt() @IsPositive() amountCents!: number;
  @IsString() @Length(5, 300) reason!: string;
}

@Toolset()
export class InvoiceZoo {
  @Tool({ name: 'zoo_create_invoice' }) create(input: CreateInvoice): string {
    return input.customerId;
  }
  @Tool({ name: 'zoo_pay_invoice' }) pay(input: PayInvoice): number {
    return input.amount;
  }
  @Tool({ name: 'zoo_list_invoices' }) list(input: InvoiceQuery): number {
    return input.pageSize;
  }
  @Tool({ name: 'zoo_tax_rates' }) tax(input: TaxRates): number {
    return input.roundingCents;
  }
  @Tool({ name: 'zoo_credit_note' }) credit(input: CreditNote): number {
    return input.amountCents;
  }
}
