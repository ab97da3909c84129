import { ApiProperty } from '@nestjs/swagger';
import type { DefinitionFinding } from '../domain/definition-scan/index.js';

/** One risk the definition scan found in a tool's definition. */
export class DefinitionFindingDto implements DefinitionFinding {
  @ApiProperty({ description: 'The rule that found it.', example: 'sensitive-path' }) rule!: string;
  @ApiProperty({ enum: ['low', 'medium', 'high'], description: 'A high finding holds a new or changed definition for review on a source whose pinning is auto.' })
  severity!: 'low' | 'medium' | 'high';
  @ApiProperty({ description: 'Where in the definition, e.g. description or inputSchema.properties.path.description.', example: 'description' }) path!: string;
  @ApiProperty({ description: 'The text it matched, cut short.', example: 'read ~/.ssh/id_rsa' }) excerpt!: string;
  @ApiProperty({ description: 'What the finding means.' }) message!: string;
}
