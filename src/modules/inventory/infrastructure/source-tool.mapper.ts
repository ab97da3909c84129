import { SourceTool } from '../domain/source-tool.js';
import { declaredTool } from '../domain/tool-definition.js';
import { SourceToolOrmEntity } from './source-tool.orm-entity.js';

export function toolToDomain(row: SourceToolOrmEntity): SourceTool {
  return SourceTool.restore({
    id: row.id,
    sourceId: row.sourceId,
    name: row.name,
    qualifiedName: row.qualifiedName,
    title: row.title ?? undefined,
    description: row.description ?? undefined,
    inputSchema: row.definition.inputSchema as Record<string, unknown>,
    outputSchema: (row.definition.outputSchema as Record<string, unknown> | undefined) ?? undefined,
    declared: row.definition,
    annotations: row.annotations ?? undefined,
    unusableReason: row.unusableReason ?? undefined,
    definitionHash: row.definitionHash,
    declaredHash: row.declaredHash,
    status: row.status,
    enabled: row.enabled,
    reviewState: row.reviewState,
    approvedHash: row.approvedHash,
    approvedDefinition: row.approvedDefinition,
    findings: row.findings,
    listPosition: row.listPosition,
    firstSeenAt: row.firstSeenAt,
    lastSeenAt: row.lastSeenAt,
    updatedAt: row.updatedAt,
    retiredAt: row.retiredAt,
  });
}

export function toolToRow(tool: SourceTool): SourceToolOrmEntity {
  const p = tool.snapshot();
  return Object.assign(new SourceToolOrmEntity(), {
    id: p.id,
    sourceId: p.sourceId,
    name: p.name,
    qualifiedName: p.qualifiedName,
    title: p.title ?? null,
    description: p.description ?? null,
    definition: declaredTool(p),
    annotations: p.annotations ?? null,
    unusableReason: p.unusableReason ?? null,
    definitionHash: p.definitionHash,
    declaredHash: p.declaredHash,
    status: p.status,
    enabled: p.enabled,
    reviewState: p.reviewState,
    approvedHash: p.approvedHash,
    approvedDefinition: p.approvedDefinition,
    findings: p.findings,
    listPosition: p.listPosition,
    firstSeenAt: p.firstSeenAt,
    lastSeenAt: p.lastSeenAt,
    updatedAt: p.updatedAt,
    retiredAt: p.retiredAt,
  });
}
