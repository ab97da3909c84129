import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

/** Answers to what a waiting execution's upstream asked (`result.inputRequests` while `awaiting_input`). */
export class ExecutionInputDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: true },
    example: { '5b0c…': { action: 'accept', content: { confirm: true } } },
    description: 'Each answer under the key of the request it answers (an elicitation or sampling result, a roots list). Keys naming no open request are ignored; some may be answered now and the rest later.',
  })
  @IsObject()
  inputResponses!: Record<string, unknown>;
}
