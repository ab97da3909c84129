import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorDetailDto {
  @ApiProperty({ example: 'env.GITHUB_TOKEN' }) path!: string;
  @ApiProperty({ example: 'is required by the manifest' }) message!: string;
}

export class ErrorBodyDto {
  @ApiProperty({ example: 'VALIDATION_FAILED', description: 'Stable, machine-readable code.' }) code!: string;
  @ApiProperty() message!: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto] }) details?: ErrorDetailDto[];
}

/** The one error shape of every endpoint. */
export class ErrorResponseDto {
  @ApiProperty({ type: ErrorBodyDto }) error!: ErrorBodyDto;
}
