import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

export const API_VERSION = '1.0.0';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Toolplane')
    .setDescription(
      'A control plane for AI tools: register MCP sources, discover their tools, and call them through one audited, ' +
        'validated and protected endpoint. Every error answers `{"error": {code, message, details[]}}`.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key (TOOLPLANE_ADMIN_KEY or the generated admin.key).' })
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}
