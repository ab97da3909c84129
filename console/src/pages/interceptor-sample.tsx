import { useState } from 'preact/hooks';
import { ApiError, describeError, query, send } from '../api.js';
import { Badge, JsonView, ms } from '../components/common.js';
import { Problems, under } from '../components/problems.js';
import { ContentBlockView } from '../components/result-view.js';
import { useDebounced, useResource } from '../hooks.js';
import type { ContentBlock, InterceptorPreview, InterceptorPreviewInput, JsonSchema, Problem, ToolPage } from '../types.js';

/** How each decision reads, as one of the badge tones. */
const DECISION_TONES: Record<InterceptorPreview['decision'], string> = { allow: 'active', modify: 'degraded', deny: 'unhealthy', hold: 'degraded', error: 'unhealthy' };

const parsed = (text: string, path: string, what: string, problems: Problem[]): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    problems.push({ path, message: `must be JSON: ${what}` });
    return undefined;
  }
};

/**
 * "Try on a sample call": the interceptor as the form has it, run once on a call described here
 * (`POST /api/v1/interceptors/preview`: no upstream called, nothing saved). The tool is picked from
 * the catalog; the answer shows the decision, what changed (paths and counts) and the arguments or
 * result after it. Problems of the interceptor go beside the form's fields, those of the call
 * beside these.
 */
export function SamplePanel(props: { spec: Record<string, unknown>; phase: 'pre' | 'post'; localProblems: Problem[]; onInterceptorProblems: (problems: Problem[]) => void }) {
  const [tool, setTool] = useState('');
  const [group, setGroup] = useState('');
  const [args, setArgs] = useState('{}');
  const [resultText, setResultText] = useState('');
  const [structured, setStructured] = useState('');
  const [isError, setIsError] = useState(false);
  const [answer, setAnswer] = useState<InterceptorPreview | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const searched = useDebounced(tool.trim(), 250);
  const catalog = useResource<ToolPage>(`/api/v1/tools${query({ q: searched, limit: 20 })}`);
  const picked = catalog.data?.items.find((item) => item.qualifiedName === tool.trim());
  const required = ((picked?.inputSchema as JsonSchema | undefined)?.required ?? []).filter((name): name is string => typeof name === 'string');
  const at = (path: string) => under(problems, path);
  const invalid = (path: string) => (at(path).length ? 'true' : undefined);
  const described = (path: string, id: string, help?: string) => [help, at(path).length ? id : undefined].filter(Boolean).join(' ') || undefined;

  const run = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    const local: Problem[] = [];
    const call: Record<string, unknown> = { tool: tool.trim(), arguments: args.trim() ? parsed(args, 'call.arguments', 'an object of argument values', local) : {} };
    if (group.trim()) call.group = group.trim();
    if (props.phase === 'post') {
      const result: Record<string, unknown> = { content: resultText ? [{ type: 'text', text: resultText }] : [] };
      if (structured.trim()) result.structuredContent = parsed(structured, 'call.result.structuredContent', 'an object', local);
      if (isError) result.isError = true;
      call.result = result;
    }
    setProblems(local);
    if (local.length || props.localProblems.length) {
      if (props.localProblems.length) setMessage('The interceptor has problems: they are shown beside its fields.');
      return;
    }
    setRunning(true);
    try {
      const body = { interceptor: props.spec, call } as InterceptorPreviewInput;
      setAnswer(await send<InterceptorPreview>('POST', '/api/v1/interceptors/preview', body));
      props.onInterceptorProblems([]);
    } catch (error) {
      setAnswer(null);
      if (error instanceof ApiError && error.details.length) {
        const ofInterceptor = error.details.filter((problem) => problem.path === 'interceptor' || problem.path.startsWith('interceptor.') || problem.path.startsWith('interceptor['));
        props.onInterceptorProblems(ofInterceptor.map((problem) => ({ ...problem, path: problem.path.replace(/^interceptor\.?/, '') || 'body' })));
        setProblems(error.details.filter((problem) => !ofInterceptor.includes(problem)));
        setMessage(ofInterceptor.length ? 'The interceptor has problems: they are shown beside its fields.' : error.message);
      } else setMessage(describeError(error));
    } finally {
      setRunning(false);
    }
  };

  const changes = answer?.changes;
  const counts = Object.entries(changes?.counts ?? {});
  const changed = Boolean(changes?.paths?.length || counts.length || changes?.truncated);
  return (
    <section class="card sample" aria-labelledby="sample-title">
      <h2 id="sample-title">Try on a sample call</h2>
      <p class="help">Runs the interceptor as the form has it once on a call you describe. No tool is called and nothing is saved.</p>
      <form onSubmit={run} noValidate aria-labelledby="sample-title">
        <div class="field">
          <label for="sample-tool">Tool</label>
          <input id="sample-tool" list="sample-tools" value={tool} autocomplete="off" onInput={(event) => setTool(event.currentTarget.value)} aria-invalid={invalid('call.tool')} aria-describedby={described('call.tool', 'sample-tool-problems', 'sample-tool-help')} />
          <datalist id="sample-tools">
            {catalog.data?.items.map((item) => (
              <option key={item.qualifiedName} value={item.qualifiedName}>
                {item.title ?? item.description ?? ''}
              </option>
            ))}
          </datalist>
          <p class="help" id="sample-tool-help">
            {picked ? `${picked.description ?? picked.qualifiedName}${required.length ? ` Required arguments: ${required.join(', ')}.` : ''}` : 'A qualified name from the catalog (source__tool); another name is tried as a stand-in without a schema.'}
          </p>
          <Problems id="sample-tool-problems" problems={at('call.tool')} />
        </div>
        <div class="field">
          <label for="sample-group">Called through group</label>
          <input id="sample-group" value={group} onInput={(event) => setGroup(event.currentTarget.value)} aria-invalid={invalid('call.group')} aria-describedby={described('call.group', 'sample-group-problems', 'sample-group-help')} />
          <p class="help" id="sample-group-help">
            Blank: a call through no group.
          </p>
          <Problems id="sample-group-problems" problems={at('call.group')} />
        </div>
        <div class="field">
          <label for="sample-arguments">Sample arguments (JSON)</label>
          <textarea id="sample-arguments" rows={3} class="mono" value={args} onInput={(event) => setArgs(event.currentTarget.value)} aria-invalid={invalid('call.arguments')} aria-describedby={described('call.arguments', 'sample-arguments-problems')} />
          <Problems id="sample-arguments-problems" problems={at('call.arguments')} />
        </div>
        {props.phase === 'post' && (
          <fieldset>
            <legend>What the tool answered</legend>
            <div class="field">
              <label for="sample-result-text">Sample result text</label>
              <textarea id="sample-result-text" rows={4} value={resultText} onInput={(event) => setResultText(event.currentTarget.value)} aria-invalid={invalid('call.result.content')} aria-describedby={described('call.result.content', 'sample-result-text-problems')} />
              <Problems id="sample-result-text-problems" problems={at('call.result.content')} />
            </div>
            <div class="field">
              <label for="sample-structured">Sample structured content (JSON)</label>
              <textarea id="sample-structured" rows={3} class="mono" value={structured} onInput={(event) => setStructured(event.currentTarget.value)} aria-invalid={invalid('call.result.structuredContent')} aria-describedby={described('call.result.structuredContent', 'sample-structured-problems')} />
              <Problems id="sample-structured-problems" problems={at('call.result.structuredContent')} />
            </div>
            <div class="field checkbox">
              <input id="sample-is-error" type="checkbox" checked={isError} onChange={(event) => setIsError(event.currentTarget.checked)} />
              <label for="sample-is-error">The tool answered an error</label>
            </div>
            <Problems id="sample-result-problems" problems={problems.filter((problem) => problem.path === 'call.result' || (problem.path.startsWith('call.result.') && !/^call\.result\.(content|structuredContent)(\.|\[|$)/.test(problem.path)))} />
          </fieldset>
        )}
        <Problems id="sample-other-problems" problems={problems.filter((problem) => !/^call\.(tool|group|arguments|result)(\.|\[|$)/.test(problem.path))} />
        {message && (
          <p class="notice" role="status">
            {message}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={running}>
            {running ? 'Running…' : 'Run the preview'}
          </button>
        </div>
      </form>
      {answer && (
        <div class="sample-answer" role="region" aria-label="What the interceptor did" aria-live="polite">
          <p class="result-head">
            Decision <Badge value={DECISION_TONES[answer.decision]} label={answer.decision} /> in {ms(answer.durationMs)}
            {answer.refused && <Badge value="unhealthy" label="call refused" />}
          </p>
          {!answer.applies && (
            <div class="state state-warn">
              <strong>It would not apply to this call</strong>: {answer.why}. What it would do if it did is shown below.
            </div>
          )}
          {!answer.tool.known && (
            <p class="muted">
              {answer.tool.qualifiedName} is not in the inventory: it was tried as a stand-in without a schema, of source {answer.tool.source || '(none)'}.
            </p>
          )}
          {answer.refused && (
            <div class="state state-error">
              <strong>{answer.code}</strong>
              <p>{answer.message}</p>
              {answer.details?.length ? (
                <ul>
                  {answer.details.map((detail, index) => (
                    <li key={index}>
                      <code>{detail.path}</code> {detail.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          )}
          {!answer.refused && answer.decision === 'error' && <div class="state state-warn">It failed ({answer.message}); its onError lets the call go on.</div>}
          {answer.warning && <div class="state state-warn">Warning: {answer.warning}</div>}
          <h3>Changes</h3>
          {!changed && <p class="muted">Nothing changed.</p>}
          {changes?.paths?.length ? (
            <ul class="plain" aria-label="Changed paths">
              {changes.paths.map((path) => (
                <li key={path}>
                  <code>{path}</code>
                </li>
              ))}
            </ul>
          ) : null}
          {counts.length > 0 && (
            <table aria-label="Found and changed">
              <thead>
                <tr>
                  <th scope="col">What</th>
                  <th scope="col" class="num">Count</th>
                </tr>
              </thead>
              <tbody>
                {counts.map(([what, count]) => (
                  <tr key={what}>
                    <td>{what}</td>
                    <td class="num">{count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {changes?.truncated && <p>The result was truncated.</p>}
          {answer.arguments && (
            <>
              <h3>Arguments after</h3>
              <JsonView value={answer.arguments} label="Arguments after" />
            </>
          )}
          {answer.result && (
            <div aria-label="Result after" role="group">
              <h3>Result after {answer.result.isError && <Badge value="tool_error" label="tool error" />}</h3>
              {(answer.result.content as ContentBlock[]).map((block, index) => (
                <ContentBlockView key={index} block={block} />
              ))}
              {answer.result.structuredContent !== undefined && <JsonView value={answer.result.structuredContent} label="Structured content after" />}
            </div>
          )}
        </div>
      )}
    </section>
  );
}
