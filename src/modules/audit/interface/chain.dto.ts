import { ApiProperty } from '@nestjs/swagger';

export class ChainHeadDto {
  @ApiProperty() seq!: number;
  @ApiProperty() hash!: string;
}

export class ChainProblemDto {
  @ApiProperty() seq!: number;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) id!: string | null;
  @ApiProperty({ enum: ['altered', 'missing', 'inserted', 'bad signature', 'unknown key', 'unsigned'] }) problem!: string;
  @ApiProperty() detail!: string;
}
