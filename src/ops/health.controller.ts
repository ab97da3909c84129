import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { DomainError } from '../shared/domain-error.js';
import { TypeormUnitOfWork } from '../shared/database/typeorm-unit-of-work.js';
import { Public } from '../modules/access/interface/auth.guard.js';

class HealthDto {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

@ApiTags('ops')
@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(TypeormUnitOfWork) private readonly uow: TypeormUnitOfWork) {}

  @Get('live')
  @ApiOkResponse({ type: HealthDto, description: 'The process is up.' })
  live(): HealthDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOkResponse({ type: HealthDto, description: 'The database answers.' })
  @ApiResponse({ status: 503, description: 'Not ready.' })
  async ready(): Promise<HealthDto> {
    try {
      await this.uow.manager().query('SELECT 1');
    } catch {
      throw new DomainError('unavailable', 'NOT_READY', 'The database does not answer.');
    }
    return { status: 'ok' };
  }
}
