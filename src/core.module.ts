import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from './config/app-config.js';
import { processEnvironment } from './config/host-environment.js';
import { assertGeneratedKeyFitsDatabase, loadEncryptionKey } from './shared/crypto/encryption-key.js';
import { SecretCipher } from './shared/crypto/secret-cipher.js';
import { DATABASE, openDatabase, type Database, type Entities } from './shared/database/database.js';
import { TypeormUnitOfWork } from './shared/database/typeorm-unit-of-work.js';
import { Clock, IdGenerator, UnitOfWork } from './shared/unit-of-work.js';

/** Closes the database in the last shutdown phase, after every module let go of it. */
@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}

/** Process-wide infrastructure every module shares: config, database, time, ids, encryption. */
@Global()
@Module({})
export class CoreModule {
  /** `entities`: every module's (see AppModule). */
  static forRoot(config: AppConfig, entities: Entities = []): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: DATABASE, useFactory: () => openDatabase({ ...config, environment: processEnvironment() }, entities) },
        { provide: TypeormUnitOfWork, useFactory: (db: Database) => new TypeormUnitOfWork(db.dataSource), inject: [DATABASE] },
        { provide: UnitOfWork, useExisting: TypeormUnitOfWork },
        { provide: Clock, useValue: { now: () => new Date() } satisfies Clock },
        { provide: IdGenerator, useValue: { next: () => randomUUID() } satisfies IdGenerator },
        {
          provide: SecretCipher,
          useFactory: async (db: Database) => {
            const { key, generatedAt } = await loadEncryptionKey(config);
            const cipher = new SecretCipher(key);
            await assertGeneratedKeyFitsDatabase(db.dataSource, cipher.keyId, generatedAt);
            return cipher;
          },
          inject: [DATABASE],
        },
        DatabaseCloser,
      ],
      exports: [APP_CONFIG, DATABASE, TypeormUnitOfWork, UnitOfWork, Clock, IdGenerator, SecretCipher],
    };
  }
}
