import type { ContentBlock, Execution } from '../types.js';
import { Badge, JsonView, Link, ms } from './common.js';

/** What the result view shows of a call; its error may be one the console words itself (a call refused before its record). */
export type ShownCall = Pick<Execution, 'id' | 'status' | 'durationMs' | 'result'> & { error: Pick<NonNullable<Execution['error']>, 'code' | 'message' | 'details'> | null };

/** One MCP content block as itself: text, an image, audio, a resource, a link, else its JSON. */
export function ContentBlockView(props: { block: ContentBlock }) {
  const { block } = props;
  switch (block.type) {
    case 'text':
      return <pre class="result-text">{block.text}</pre>;
    case 'image':
      return <img class="result-image" src={`data:${block.mimeType ?? 'image/png'};base64,${block.data}`} alt={`Image returned by the tool (${block.mimeType ?? 'image'})`} />;
    case 'audio':
      return (
        <audio controls src={`data:${block.mimeType ?? 'audio/wav'};base64,${block.data}`} aria-label={`Audio returned by the tool (${block.mimeType ?? 'audio'})`}>
          Audio
        </audio>
      );
    case 'resource': {
      const resource = block.resource;
      return (
        <div class="result-resource">
          <div>
            Resource <code>{resource?.uri}</code> {resource?.mimeType && <span class="muted">({resource.mimeType})</span>}
          </div>
          {resource?.text !== undefined && <pre class="result-text">{resource.text}</pre>}
          {resource?.blob !== undefined && <p class="muted">{Math.round((resource.blob.length * 3) / 4)} bytes of binary content</p>}
        </div>
      );
    }
    case 'resource_link':
      return (
        <div class="result-resource">
          Link to resource <code>{block.uri}</code> {block.name && <span>({block.name})</span>}
        </div>
      );
    default:
      return <JsonView value={block} label="Content block" />;
  }
}

/** What a call returned: its record's id, status and duration, then each content block as itself. */
export function ResultView(props: { execution: ShownCall }) {
  const { execution } = props;
  return (
    <div class="result" data-status={execution.status}>
      <p class="result-head">
        <Badge value={execution.status} /> in {ms(execution.durationMs)} · execution <Link to={`/executions/${execution.id}`}>{execution.id}</Link>
      </p>
      {execution.error && (
        <div class="state state-error">
          <strong>{execution.error.code}</strong>
          <p>{execution.error.message}</p>
          {execution.error.details?.length ? (
            <ul>
              {execution.error.details.map((detail, index) => (
                <li key={index}>
                  <code>{detail.path}</code> {detail.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      {execution.result?.content?.map((block, index) => <ContentBlockView key={index} block={block} />)}
      {execution.result?.structuredContent !== undefined && execution.result.structuredContent !== null && (
        <>
          <h4>Structured content</h4>
          <JsonView value={execution.result.structuredContent} label="Structured content" />
        </>
      )}
      {execution.result?.truncated && <p class="muted">The result was truncated ({execution.result.originalBytes} bytes).</p>}
    </div>
  );
}
