import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { stringify } from 'yaml';
import { AppModule } from '../app.module.js';
import { loadConfig } from '../config/app-config.js';
import { processEnvironment } from '../config/host-environment.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** The API description as committed in openapi.yaml, built from the controllers without a database. */
export async function renderOpenApiYaml(): Promise<string> {
  const config = loadConfig({ PATH: processEnvironment().PATH });
  const app = await NestFactory.create(AppModule.forRoot(config, 'unused-in-preview'), new FastifyAdapter(), { preview: true, logger: false });
  try {
    return stringify(buildOpenApiDocument(app), { aliasDuplicateObjects: false, lineWidth: 0 });
  } finally {
    await app.close();
  }
}
