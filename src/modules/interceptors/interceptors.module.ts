import { Module } from '@nestjs/common';
import { InterceptorChain } from './application/interceptor-chain.js';

/**
 * Interceptors: configured pre- and post-call stages. The chain picks and runs those in force on
 * a call; ExecuteTool reaches it through its CallInterceptors seam (see ExecutionModule).
 */
@Module({
  providers: [InterceptorChain],
  exports: [InterceptorChain],
})
export class InterceptorsModule {}
