import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { TypeormAuditLog } from './typeorm-audit-log.js';

/** At start, before requests are served: events written before the chain existed are sealed into it. */
@Injectable()
export class AuditChainSealer implements OnApplicationBootstrap {
  private readonly logger = new Logger('audit');

  constructor(@Inject(TypeormAuditLog) private readonly log: TypeormAuditLog) {}

  async onApplicationBootstrap(): Promise<void> {
    const sealed = await this.log.sealPending();
    if (sealed > 0) this.logger.log(`sealed ${sealed} earlier audit event(s) into the hash chain`);
  }
}
