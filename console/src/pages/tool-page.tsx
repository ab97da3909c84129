import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, describeError, invokeWithProgress, query, send } from '../api.js';
import { Badge, CopyButton, ErrorState, JsonView, Link, Loading, When } from '../components/common.js';
import { FindingsTable } from '../components/findings-table.js';
import { ResultView, type ShownCall } from '../components/result-view.js';
import { SchemaField, SchemaTable, initialValue } from '../components/schema-form.js';
import { useResource } from '../hooks.js';
import { useCan } from '../session-context.js';
import type { BodyOf, Execution, ExecutionFailure, ProgressEvent, ReviewPage, Tool } from '../types.js';

type Format = 'mcp' | 'openai' | 'anthropic';

/** The definitions an agent receives, as the catalog's formats build them. */
function formatted(tool: Tool, format: Format): unknown {
  const description = tool.description ?? tool.title ?? '';
  if (format === 'openai') return { type: 'function', function: { name: tool.qualifiedName, description, parameters: tool.inputSchema } };
  if (format === 'anthropic') return { name: tool.qualifiedName, description, input_schema: tool.inputSchema };
  return { ...(tool.definition ?? { description, inputSchema: tool.inputSchema }), name: tool.qualifiedName };
}

/** A held tool: why it is out of every catalog, and a link to the review that decides it. */
function HeldNotice(props: { tool: Tool }) {
  const can = useCan();
  const { tool } = props;
  const state = tool.reviewState === 'rejected' ? 'rejected' : 'pending';
  const reviews = useResource<ReviewPage>(can('reviews:read') ? `/api/v1/reviews${query({ state, source: tool.source.id, limit: 200 })}` : null);
  const review = reviews.data?.items.find((item) => item.toolId === tool.id);
  return (
    <div class="state state-warn" role="status">
      <strong>{tool.reviewState === 'rejected' ? 'Definition rejected' : 'Definition pending review'}</strong>{' '}
      <Badge value={tool.reviewState === 'rejected' ? 'rejected' : 'degraded'} label={tool.reviewState.replace(/_/g, ' ')} />
      <p>
        {tool.reviewState === 'rejected'
          ? 'A reviewer rejected its current definition: it is out of every catalog and refused until its upstream changes it again.'
          : 'Its current definition waits for a reviewer: it is out of every catalog and refused until approved.'}{' '}
        {review && <Link to={`/reviews${query({ state, id: review.id })}`}>Open its review</Link>}
      </p>
    </div>
  );
}

export function ToolPage(props: { name: string }) {
  const can = useCan();
  const path = `/api/v1/tools/${encodeURIComponent(props.name)}`;
  const tool = useResource<Tool>(path);
  const [format, setFormat] = useState<Format>('mcp');
  const [message, setMessage] = useState<string | null>(null);
  if (tool.error) return <ErrorState error={tool.error} retry={tool.reload} />;
  if (!tool.data) return <Loading />;
  const t = tool.data;
  const annotations = Object.entries(t.annotations ?? {});
  const definition = JSON.stringify(formatted(t, format), null, 2);
  return (
    <section aria-labelledby="tool-title">
      <div class="page-head">
        <h1 id="tool-title">
          {t.qualifiedName} {!t.enabled && <Badge value="disabled" />} {t.status !== 'active' && <Badge value={t.status} />}
        </h1>
        <Link to="/catalog">Catalog</Link>
      </div>
      <p>
        {t.title && <strong>{t.title}. </strong>}
        {t.description}
      </p>
      <p class="muted">
        Tool <code>{t.name}</code> of source {can('sources:read') ? <Link to={`/sources/${encodeURIComponent(t.source.name)}`}>{t.source.name}</Link> : t.source.name} · last seen <When at={t.lastSeenAt} />
      </p>
      {t.unusableReason && (
        <div class="state state-error" role="alert">
          <strong>Unusable</strong>
          <p>{t.unusableReason}</p>
        </div>
      )}
      {t.reviewState !== 'approved' && <HeldNotice tool={t} />}
      {can('tools:write') && (
        <div class="toolbar">
          <button
            type="button"
            class="secondary"
            onClick={async () => {
              try {
                await send('PATCH', path, { enabled: !t.enabled } satisfies BodyOf<'/api/v1/tools/{qualifiedName}', 'patch'>);
                setMessage(t.enabled ? 'Disabled: agents no longer see it.' : 'Enabled.');
                tool.reload();
              } catch (error) {
                setMessage(describeError(error));
              }
            }}
          >
            {t.enabled ? 'Disable tool' : 'Enable tool'}
          </button>
        </div>
      )}
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      <div class="two-columns">
        <div>
          <h2>Parameters</h2>
          <SchemaTable schema={t.inputSchema} label="Input parameters" />
          {t.outputSchema && (
            <>
              <h2>Output</h2>
              <SchemaTable schema={t.outputSchema} label="Output fields" />
            </>
          )}
          <h2>Annotations</h2>
          {annotations.length === 0 ? (
            <p class="muted">None declared (MCP's defaults: not read-only, may be destructive, not idempotent, open world).</p>
          ) : (
            <dl class="facts">
              {annotations.map(([name, value]) => (
                <Fragment key={name}>
                  <dt>{name}</dt>
                  <dd>{String(value)}</dd>
                </Fragment>
              ))}
            </dl>
          )}
          <h2>Scan findings</h2>
          <FindingsTable findings={t.findings} label="Scan findings" />
          <h2>What an agent receives</h2>
          <div class="tabs" role="group" aria-label="Format">
            {(['mcp', 'openai', 'anthropic'] as Format[]).map((name) => (
              <button key={name} type="button" class={format === name ? 'tab current' : 'tab'} aria-pressed={format === name} onClick={() => setFormat(name)}>
                {name === 'mcp' ? 'MCP' : name === 'openai' ? 'OpenAI' : 'Anthropic'}
              </button>
            ))}
            <CopyButton text={definition} label="Copy definition" />
          </div>
          <pre class="json" tabIndex={0} aria-label={`${format} definition`}>
            {definition}
          </pre>
        </div>
        <div>{can('tools:invoke') && <TryIt tool={t} />}</div>
      </div>
    </section>
  );
}

/** A form generated from the tool's input schema (or raw JSON), calling the tool for real. */
function TryIt(props: { tool: Tool }) {
  const { tool } = props;
  const [value, setValue] = useState<unknown>(() => initialValue(tool.inputSchema) ?? {});
  const [raw, setRaw] = useState<string | null>(null);
  const [rawError, setRawError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [execution, setExecution] = useState<ShownCall | null>(null);
  const [failure, setFailure] = useState<unknown>();
  const [progress, setProgress] = useState<ProgressEvent | null>(null);
  useEffect(() => {
    if (!running) return;
    const started = performance.now();
    const timer = setInterval(() => setElapsed(performance.now() - started), 100);
    return () => clearInterval(timer);
  }, [running]);

  const invoke = async (event: Event) => {
    event.preventDefault();
    let args = value;
    if (raw !== null) {
      try {
        args = JSON.parse(raw);
      } catch {
        setRawError('The arguments are not valid JSON.');
        return;
      }
    }
    setRunning(true);
    setElapsed(0);
    setExecution(null);
    setFailure(undefined);
    setProgress(null);
    try {
      setExecution(await invokeWithProgress<Execution>(`/api/v1/tools/${encodeURIComponent(tool.qualifiedName)}/invoke`, { arguments: args ?? {} }, setProgress));
    } catch (error) {
      const recorded = error instanceof ApiError ? (error.body as Partial<ExecutionFailure> | undefined)?.execution : undefined;
      if (recorded) setExecution({ ...recorded, error: recorded.error ?? { code: error instanceof ApiError ? error.code : 'ERROR', message: describeError(error), details: error instanceof ApiError ? error.details : [] } });
      else setFailure(error);
    } finally {
      setRunning(false);
    }
  };

  return (
    <section aria-labelledby="try-title" class="try-it">
      <h2 id="try-title">Try it</h2>
      <form onSubmit={invoke}>
        <div class="field checkbox">
          <input
            id="raw-toggle"
            type="checkbox"
            checked={raw !== null}
            onChange={(event) => {
              if (event.currentTarget.checked) setRaw(JSON.stringify(value ?? {}, null, 2));
              else {
                try {
                  if (raw !== null) setValue(JSON.parse(raw));
                  setRaw(null);
                  setRawError(null);
                } catch {
                  setRawError('Fix the JSON before going back to the form.');
                }
              }
            }}
          />
          <label for="raw-toggle">Edit the arguments as JSON</label>
        </div>
        {raw === null ? (
          <SchemaField schema={{ ...tool.inputSchema, title: 'Arguments' }} name="arguments" id="arg" value={value} required={false} onChange={(next) => setValue(next ?? {})} />
        ) : (
          <div class="field">
            <label for="raw-arguments">Arguments (JSON)</label>
            <textarea id="raw-arguments" rows={10} class="code" value={raw} onInput={(event) => setRaw(event.currentTarget.value)} aria-invalid={rawError ? 'true' : undefined} aria-describedby={rawError ? 'raw-problem' : undefined} />
          </div>
        )}
        {rawError && (
          <p class="problem" id="raw-problem" role="alert">
            {rawError}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={running}>
            {running ? 'Running…' : 'Call the tool'}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {running && (
          <div class="progress" role="status">
            <span class="spinner" aria-hidden="true" /> Running for {(elapsed / 1000).toFixed(1)} s…
            {progress && (
              <span class="progress-report">
                {' '}
                {progress.total !== undefined ? `Step ${progress.progress} of ${progress.total}` : `Progress ${progress.progress}`}
                {progress.message ? `: ${progress.message}` : ''}
              </span>
            )}
            {progress?.total !== undefined ? (
              <progress aria-label="Call in progress" value={progress.progress} max={progress.total} />
            ) : (
              <progress aria-label="Call in progress" />
            )}
          </div>
        )}
        {failure !== undefined && <ErrorState error={failure} />}
        {execution && <ResultView execution={execution} />}
      </div>
      <details>
        <summary>Arguments to be sent</summary>
        <JsonView value={raw === null ? value : raw} label="Arguments to be sent" />
      </details>
    </section>
  );
}
