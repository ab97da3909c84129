import type { components, paths } from './openapi.js';

/**
 * The REST API's shapes as its clients (the CLI and the console) use them, every one taken from
 * openapi.ts, which `npm run api-types` generates from openapi.yaml: when the API changes a field
 * a client reads or sends, the client no longer typechecks. Types only: nothing here exists at run time.
 */
export type Schemas = components['schemas'];

export type Execution = Schemas['ExecutionResponseDto'];
export type ExecutionPage = Schemas['ExecutionPageDto'];
/** The body of a call that was refused or failed: the error, and the execution recorded for it. */
export type ExecutionFailure = Schemas['ExecutionFailureDto'];
export type ExecutionChainReport = Schemas['ExecutionChainReportDto'];
export type ExecutionStats = Schemas['ExecutionStatsDto'];
export type ExecutionStatsGroup = Schemas['ExecutionStatsGroupDto'];
export type Tool = Schemas['ToolResponseDto'];
/** A page of GET /api/v1/tools without `format`: every item the full view of its tool. */
export type Review = Schemas['ReviewDto'];
export type ReviewPage = Schemas['ReviewPageDto'];
export type Approval = Schemas['ApprovalDto'];
/** GET /api/v1/approvals/{id}: the approval and its caller's latest executions. */
export type ApprovalDetail = Schemas['ApprovalDetailDto'];
export type ApprovalPage = Schemas['ApprovalPageDto'];
export type ToolPage = Omit<ResponseOf<'/api/v1/tools', 'get'>, 'items' | 'notConvertible'> & { items: Tool[] };
export type Source = Schemas['SourceResponseDto'];
export type SourcePage = Schemas['SourcePageDto'];
/** The body of POST /api/v1/sources (and of POST /api/v1/sources/validate). */
export type SourceRegistration = BodyOf<'/api/v1/sources', 'post'>;
/** The body of PATCH /api/v1/sources/{idOrName}: only the settings to change. */
export type SourceChanges = BodyOf<'/api/v1/sources/{idOrName}', 'patch'>;
export type ValidationReport = Schemas['ValidationReportDto'];
export type InventoryChanges = Schemas['InventoryChangesDto'];
export type ConfigApplyResult = Schemas['ConfigApplyResultDto'];
export type ApiKey = Schemas['ApiKeyDto'];
export type Group = Schemas['GroupDto'];
export type Interceptor = Schemas['InterceptorDto'];
export type InterceptorPage = Schemas['InterceptorPageDto'];
/** The body of POST /api/v1/interceptors: an interceptor in its flat form. */
export type InterceptorInput = BodyOf<'/api/v1/interceptors', 'post'>;
/** The answer of POST /api/v1/interceptors/preview: what an interceptor not saved would do to a sample call. */
export type InterceptorPreview = Schemas['InterceptorPreviewDto'];
/** The body of POST /api/v1/interceptors/preview: the interceptor and the sample call. */
export type InterceptorPreviewInput = BodyOf<'/api/v1/interceptors/preview', 'post'>;
export type GroupPage = Schemas['GroupPageDto'];
/** The answer of POST /api/v1/groups/preview: the tools a group not saved would serve. */
export type GroupPreview = Schemas['GroupPreviewDto'];
export type PreviewedTool = Schemas['PreviewedToolDto'];
/** The body of POST /api/v1/groups. */
export type GroupInput = BodyOf<'/api/v1/groups', 'post'>;
/** A new key: the key itself is in this answer only. */
export type CreatedApiKey = Schemas['CreatedApiKeyDto'];
export type ApiKeyPage = Schemas['ApiKeyPageDto'];
export type CurrentPrincipal = Schemas['CurrentPrincipalDto'];
export type SecretMetadata = Schemas['SecretMetadataDto'];
export type SecretPage = Schemas['SecretPageDto'];
/** GET /api/v1/me/secrets: the names of the caller's own values (never a value). */
export type UserSecretPage = Schemas['UserSecretListDto'];
/** One of the caller's connections to a per-user source, or a source it has none to (`not_connected`). */
export type UpstreamConnection = Schemas['ConnectionDto'];
export type ConnectionStatus = UpstreamConnection['status'];
export type UpstreamConnectionPage = Schemas['ConnectionListDto'];
/** One principal's connection to a source, as an admin sees it. */
export type SourceConnection = Schemas['SourceConnectionDto'];
export type SourceConnectionPage = Schemas['SourceConnectionListDto'];
/** GET /api/v1/sources/{name}/connect with `Accept: application/json`: where to consent. */
export type ConnectLink = Schemas['AuthorizationStartDto'];
export type AuditEvent = Schemas['AuditEventDto'];
export type AuditEventPage = Schemas['AuditEventPageDto'];
export type AuditChainReport = Schemas['AuditChainReportDto'];
export type Health = Schemas['HealthDto'];
/** One problem of an error answer (`error.details[]`) or of a validation report. */
export type Problem = Schemas['ErrorDetailDto'];

/**
 * A `progress` event of an invoke answered as Server-Sent Events (`Accept: text/event-stream`),
 * which openapi.yaml describes in words only.
 */
export interface ProgressEvent {
  progress: number;
  total?: number;
  message?: string;
}

export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
export type ApiPath = keyof paths;
/** The paths that document `method`. */
export type PathWith<M extends Method> = { [P in ApiPath]: [NonNullable<paths[P][M]>] extends [never] ? never : P }[ApiPath];
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;
type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<P extends ApiPath, M extends Method> = Operation<P, M>['responses'];

/** The JSON body of the operation's success (200, 201 or 202) answer. */
export type ResponseOf<P extends ApiPath, M extends Method> = { [S in keyof Responses<P, M>]: S extends 200 | 201 | 202 ? Json<Responses<P, M>[S]> : never }[keyof Responses<P, M>];
/** The operation's JSON request body (never when it takes none). */
export type BodyOf<P extends ApiPath, M extends Method> = Json<NonNullable<Operation<P, M>['requestBody']>>;
/** The operation's query parameters (never when it documents none). */
export type QueryOf<P extends ApiPath, M extends Method> = NonNullable<Operation<P, M>['parameters']['query']>;
/** The values of the path template's `{parameters}` (never when it has none). */
export type PathParamsOf<P extends ApiPath, M extends Method> = NonNullable<Operation<P, M>['parameters']['path']>;
