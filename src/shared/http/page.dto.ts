import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Page } from '../page.js';

/** The response class of a page of `item`s: `export class ThingPageDto extends PageDto(ThingDto) {}` names its schema. */
export function PageDto<T>(item: Type<T>, itemsDescription?: string): Type<Page<T>> {
  class PageOfItems implements Page<T> {
    @ApiProperty({ type: [item], ...(itemsDescription === undefined ? {} : { description: itemsDescription }) }) items!: T[];
    @ApiProperty({ nullable: true, type: String }) nextCursor!: string | null;
  }
  return PageOfItems;
}
