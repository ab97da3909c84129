import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, describeError, request, send } from '../api.js';
import { countOf, ErrorState, Link, Loading } from '../components/common.js';
import { useDebounced, useResource } from '../hooks.js';
import { navigate } from '../router.js';
import { useCan } from '../session-context.js';
import { readManifest } from '../manifest.js';
import type { Problem, SecretPage, Source, SourceChanges, SourceRegistration, ValidationReport } from '../types.js';

type Transport = Source['transport'];

/** One env variable or header: a literal (typed, never shown again) or a stored secret picked by name. */
interface ValueRow {
  key: number;
  name: string;
  mode: 'literal' | 'secret' | 'keep';
  value: string;
  secret: string;
  /** What the source has now (edit): the reference it holds, never a value. */
  current?: string;
}

interface FormState {
  name: string;
  description: string;
  transport: Transport;
  pluginDir: string;
  command: string;
  args: string;
  cwd: string;
  lifecycle: Source['lifecycle'];
  url: string;
  env: ValueRow[];
  headers: ValueRow[];
  readOnly: boolean;
  timeoutMs: string;
  refreshIntervalSeconds: string;
}

/** A validation report, or what the console reports itself when the check could not be made. */
type Report = Pick<ValidationReport, 'valid' | 'problems'> & Partial<Pick<ValidationReport, 'connection' | 'tools'>>;

let rowKeys = 0;
const row = (partial: Partial<ValueRow> = {}): ValueRow => ({ key: ++rowKeys, name: '', mode: 'literal', value: '', secret: '', ...partial });

const EMPTY: FormState = {
  name: '', description: '', transport: 'stdio', pluginDir: '', command: '', args: '', cwd: '', lifecycle: 'transient', url: '',
  env: [], headers: [], readOnly: false, timeoutMs: '', refreshIntervalSeconds: '',
};

function fromSource(source: Source): FormState {
  const rows = (views: Source['env']) =>
    views.map((view) => row({ name: view.name, mode: 'keep', current: view.references.length ? view.references.map((name) => `\${secret:${name}}`).join(' ') : view.origin }));
  return {
    name: source.name, description: source.description ?? '', transport: source.transport, pluginDir: source.pluginDir ?? '', command: source.command ?? '',
    args: (source.args ?? []).join('\n'), cwd: source.cwd ?? '', lifecycle: source.lifecycle ?? 'transient', url: source.url ?? '',
    env: rows(source.env ?? []), headers: rows(source.headers ?? []), readOnly: source.readOnly, timeoutMs: String(source.timeoutMs ?? ''),
    refreshIntervalSeconds: String(source.refreshIntervalSeconds ?? ''),
  };
}

function values(rows: ValueRow[]): Record<string, string> | undefined {
  const named = rows.filter((entry) => entry.name.trim() !== '' && entry.mode !== 'keep');
  if (named.length === 0) return undefined;
  return Object.fromEntries(named.map((entry) => [entry.name.trim(), entry.mode === 'secret' ? `\${secret:${entry.secret}}` : entry.value]));
}

/** The registration body the form describes (only what was filled in). */
function body(form: FormState, editing: boolean): Partial<SourceRegistration> {
  const out: Partial<SourceRegistration> = editing ? {} : { name: form.name, transport: form.transport };
  if (form.description) out.description = form.description;
  if (form.transport === 'stdio') {
    if (form.pluginDir) out.pluginDir = form.pluginDir;
    if (form.command) out.command = form.command;
    const args = form.args.split('\n').map((line) => line.trim()).filter(Boolean);
    if (args.length) out.args = args;
    if (form.cwd) out.cwd = form.cwd;
    out.lifecycle = form.lifecycle;
    const env = values(form.env);
    if (env) out.env = env;
  } else {
    if (form.url) out.url = form.url;
    const headers = values(form.headers);
    if (headers) out.headers = headers;
  }
  out.readOnly = form.readOnly;
  if (form.timeoutMs) out.timeoutMs = Number(form.timeoutMs);
  if (form.refreshIntervalSeconds) out.refreshIntervalSeconds = Number(form.refreshIntervalSeconds);
  return out;
}

/** Which field a problem belongs beside: `env.TOKEN` → env, `args[2]` → args, `server.json:…` → pluginDir. */
function fieldOf(path: string): string {
  if (/^(server|plugin)\.json/.test(path)) return 'pluginDir';
  const head = /^[A-Za-z]+/.exec(path)?.[0] ?? '';
  return head;
}

function ProblemList(props: { id: string; problems: Problem[] }) {
  if (props.problems.length === 0) return null;
  return (
    <ul class="problems" id={props.id}>
      {props.problems.map((problem, index) => (
        <li key={index}>
          {problem.path.includes('.') || problem.path.includes('[') || problem.path.includes(':') ? <code>{problem.path}</code> : null} {problem.message}
        </li>
      ))}
    </ul>
  );
}

/**
 * Register or change a source. Every change is checked (`/sources/validate?connect=false`, after a
 * pause in typing: it starts nothing) and each problem is shown beside its field before anything
 * is saved; only *Test connection* runs the dry run that starts the command or calls the URL.
 */
export function SourceFormPage(props: { name?: string }) {
  const editing = props.name !== undefined;
  const can = useCan();
  const existing = useResource<Source>(editing ? `/api/v1/sources/${encodeURIComponent(props.name!)}` : null);
  const secrets = useResource<SecretPage>(can('secrets:read') ? '/api/v1/secrets?limit=100' : null);
  const [form, setForm] = useState<FormState>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [checking, setChecking] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<unknown>();
  const [saveProblems, setSaveProblems] = useState<Problem[]>([]);
  /** The last connection test, and the form it tested: shown while the form is still that. */
  const [tested, setTested] = useState<{ payload: string; report: Report } | null>(null);
  const [testing, setTesting] = useState(false);
  useEffect(() => {
    if (existing.data) setForm(fromSource(existing.data));
  }, [existing.data]);

  const update = (patch: Partial<FormState>) => {
    setForm((previous) => ({ ...previous, ...patch }));
    setTouched(true);
  };
  const payload = useMemo(() => body(form, false), [form]);
  const settled = useDebounced(JSON.stringify(payload), 600);
  const generation = useRef(0);
  useEffect(() => {
    if (!touched) return;
    const mine = ++generation.current;
    setChecking(true);
    send<Report>('POST', '/api/v1/sources/validate?connect=false', JSON.parse(settled)).then(
      (answer) => mine === generation.current && setReport(answer),
      (error: unknown) => {
        if (mine !== generation.current) return;
        if (error instanceof ApiError && error.details.length) setReport({ valid: false, problems: error.details });
        else setReport({ valid: false, problems: [{ path: '', message: describeError(error) }] });
      },
    ).finally(() => mine === generation.current && setChecking(false));
    // Only a settled change is checked (not the form as it was before the first keystroke).
  }, [settled]);

  const testConnection = async () => {
    const tried = JSON.stringify(payload);
    setTesting(true);
    try {
      setTested({ payload: tried, report: await send<Report>('POST', '/api/v1/sources/validate', payload) });
    } catch (error) {
      setTested({ payload: tried, report: { valid: false, problems: [], connection: { ok: false, error: describeError(error), durationMs: 0 } } });
    } finally {
      setTesting(false);
    }
  };
  const test = tested && tested.payload === JSON.stringify(payload) ? tested.report : null;

  // Editing: the source's own name is not a problem, nor are unchanged secret values the form cannot see.
  const problems = (report?.problems ?? []).filter((problem) => !(editing && /already|taken/i.test(problem.message) && fieldOf(problem.path) === 'name'));
  const allProblems = [...problems, ...saveProblems];
  const byField = (field: string) => allProblems.filter((problem) => fieldOf(problem.path) === field);
  const known = new Set(['name', 'description', 'transport', 'pluginDir', 'command', 'args', 'cwd', 'lifecycle', 'url', 'env', 'headers', 'readOnly', 'timeoutMs', 'refreshIntervalSeconds']);
  const general = allProblems.filter((problem) => !known.has(fieldOf(problem.path)));
  const invalid = (field: string) => (byField(field).length ? 'true' : undefined);
  const described = (field: string) => (byField(field).length ? `${field}-problems` : undefined);

  const [manifestNote, setManifestNote] = useState<string | null>(null);
  const loadManifest = async (file: File | undefined) => {
    if (!file) return;
    try {
      const prefill = readManifest(JSON.parse(await file.text()));
      const rows = (declared: typeof prefill.env) => declared.map((entry) => row({ name: entry.name, mode: entry.secret ? 'secret' : 'literal', value: entry.value ?? '' }));
      update({
        ...(prefill.transport ? { transport: prefill.transport } : {}),
        ...(prefill.command !== undefined ? { command: prefill.command } : {}),
        ...(prefill.args ? { args: prefill.args.join('\n') } : {}),
        ...(prefill.url !== undefined ? { url: prefill.url } : {}),
        ...(prefill.description && !form.description ? { description: prefill.description } : {}),
        env: rows(prefill.env),
        headers: rows(prefill.headers),
      });
      const secrets = [...prefill.env, ...prefill.headers].filter((entry) => entry.secret).map((entry) => entry.name);
      setManifestNote(`Filled from ${file.name}.${secrets.length ? ` Pick a stored secret for ${secrets.join(', ')}.` : ''}`);
    } catch (error) {
      setManifestNote(`${file.name} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setSaving(true);
    setSaveError(undefined);
    setSaveProblems([]);
    try {
      if (editing) {
        const changes: SourceChanges = { ...body(form, true), version: existing.data!.version };
        await send('PATCH', `/api/v1/sources/${encodeURIComponent(props.name!)}`, changes);
        navigate(`/sources/${encodeURIComponent(props.name!)}`);
      } else {
        const created = (await request<Source>('/api/v1/sources', { method: 'POST', body: payload })).body;
        navigate(`/sources/${encodeURIComponent(created.name)}`);
      }
    } catch (error) {
      if (error instanceof ApiError && error.details.length) setSaveProblems(error.details);
      else setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  if (!can('sources:write')) return <ErrorState error={new ApiError(403, 'FORBIDDEN', 'Registering and changing sources needs sources:write.')} />;
  if (editing && existing.error) return <ErrorState error={existing.error} retry={existing.reload} />;
  if (editing && !existing.data) return <Loading />;
  const secretNames = secrets.data?.items.map((secret) => secret.name) ?? [];

  const rowsEditor = (field: 'env' | 'headers', label: string) => (
    <fieldset class="rows" aria-describedby={described(field)}>
      <legend>{label}</legend>
      {form[field].length === 0 && <p class="help">None.</p>}
      {form[field].map((entry, index) => {
        const set = (patch: Partial<ValueRow>) => update({ [field]: form[field].map((other) => (other.key === entry.key ? { ...other, ...patch } : other)) } as Partial<FormState>);
        const rowProblems = allProblems.filter((problem) => problem.path === `${field}.${entry.name}`);
        const id = `${field}-${entry.key}`;
        return (
          <div class="value-row" key={entry.key}>
            <div>
              <label for={`${id}-name`}>Name</label>
              <input id={`${id}-name`} value={entry.name} onInput={(event) => set({ name: event.currentTarget.value })} aria-invalid={rowProblems.length ? 'true' : undefined} />
            </div>
            <div>
              <label for={`${id}-mode`}>Value from</label>
              <select id={`${id}-mode`} value={entry.mode} onChange={(event) => set({ mode: event.currentTarget.value as ValueRow['mode'] })}>
                {entry.current !== undefined && <option value="keep">keep current ({entry.current})</option>}
                <option value="literal">a value typed here</option>
                <option value="secret">a stored secret</option>
              </select>
            </div>
            {entry.mode === 'literal' && (
              <div>
                <label for={`${id}-value`}>Value</label>
                <input id={`${id}-value`} type="password" autoComplete="off" value={entry.value} onInput={(event) => set({ value: event.currentTarget.value })} />
              </div>
            )}
            {entry.mode === 'secret' && (
              <div>
                <label for={`${id}-secret`}>Secret</label>
                <select id={`${id}-secret`} value={entry.secret} onChange={(event) => set({ secret: event.currentTarget.value })}>
                  <option value="">choose…</option>
                  {secretNames.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <button type="button" class="secondary small" aria-label={`Remove ${label.toLowerCase()} ${entry.name || index + 1}`} onClick={() => update({ [field]: form[field].filter((other) => other.key !== entry.key) } as Partial<FormState>)}>
              Remove
            </button>
            <ProblemList id={`${id}-problems`} problems={rowProblems} />
          </div>
        );
      })}
      <button type="button" class="secondary small" onClick={() => update({ [field]: [...form[field], row()] } as Partial<FormState>)}>
        Add {field === 'env' ? 'a variable' : 'a header'}
      </button>
      <ProblemList id={`${field}-problems`} problems={byField(field).filter((problem) => !form[field].some((entry) => problem.path === `${field}.${entry.name}`))} />
    </fieldset>
  );

  const text = (field: keyof FormState, label: string, help?: string, type: 'text' | 'number' = 'text') => (
    <div class="field">
      <label for={`field-${field}`}>{label}</label>
      <input
        id={`field-${field}`}
        type={type as 'text'}
        value={form[field] as string}
        onInput={(event) => update({ [field]: event.currentTarget.value } as Partial<FormState>)}
        aria-invalid={invalid(field)}
        aria-describedby={[help ? `${field}-help` : '', described(field) ?? ''].filter(Boolean).join(' ') || undefined}
      />
      {help && (
        <p class="help" id={`${field}-help`}>
          {help}
        </p>
      )}
      <ProblemList id={`${field}-problems`} problems={byField(field)} />
    </div>
  );

  return (
    <section aria-labelledby="form-title">
      <div class="page-head">
        <h1 id="form-title">{editing ? `Change ${props.name}` : 'Register a source'}</h1>
        <Link to={editing ? `/sources/${encodeURIComponent(props.name!)}` : '/sources'}>Back</Link>
      </div>
      <form class="source-form" onSubmit={save} noValidate>
        {!editing && text('name', 'Name', 'Lowercase letters, digits and dashes; tools are named {source}__{tool}.')}
        {text('description', 'Description')}
        {!editing && (
          <div class="field">
            <label for="field-manifest">Fill from a manifest (server.json or plugin.json)</label>
            <input id="field-manifest" type="file" accept=".json,application/json" onChange={(event) => loadManifest(event.currentTarget.files?.[0])} aria-describedby="manifest-help" />
            <p class="help" id="manifest-help">
              {manifestNote ?? 'Read in this browser only; or give a plugin directory holding it, below.'}
            </p>
          </div>
        )}
        <div class="field">
          <label for="field-transport">Transport</label>
          <select id="field-transport" value={form.transport} disabled={editing} onChange={(event) => update({ transport: event.currentTarget.value as Transport })}>
            <option value="stdio">stdio (a local program)</option>
            <option value="streamable-http">streamable HTTP</option>
            <option value="sse">SSE (legacy)</option>
          </select>
          <ProblemList id="transport-problems" problems={byField('transport')} />
        </div>
        {form.transport === 'stdio' ? (
          <>
            {text('pluginDir', 'Plugin directory', 'A folder holding server.json or plugin.json; it supplies the command and the variables it needs.')}
            {text('command', 'Command', 'A name on PATH or an absolute path; overrides the manifest’s. No shell is involved.')}
            <div class="field">
              <label for="field-args">Arguments (one per line)</label>
              <textarea id="field-args" rows={3} value={form.args} onInput={(event) => update({ args: event.currentTarget.value })} aria-invalid={invalid('args')} aria-describedby={described('args')} />
              <ProblemList id="args-problems" problems={byField('args')} />
            </div>
            {text('cwd', 'Working directory')}
            <div class="field">
              <label for="field-lifecycle">Lifecycle</label>
              <select id="field-lifecycle" value={form.lifecycle} onChange={(event) => update({ lifecycle: event.currentTarget.value as Source['lifecycle'] })} aria-describedby={['lifecycle-help', described('lifecycle')].filter(Boolean).join(' ')}>
                <option value="transient">transient (a process per call)</option>
                <option value="singleton">singleton (one long-lived process)</option>
              </select>
              <p class="help" id="lifecycle-help">
                Transient: a new process for every call and discovery, stopped after it. Nothing stays running, but every call pays the
                start: tens of milliseconds for a node script, a second or more for an npx package (npm starts first; the package is
                downloaded once, into its home in the data directory). Singleton: one process kept running and shared by every call. No
                start per call, but it holds its memory while idle (it stops after 10 minutes unused) and keeps its state between calls.
              </p>
              <ProblemList id="lifecycle-problems" problems={byField('lifecycle')} />
            </div>
            {rowsEditor('env', 'Environment')}
          </>
        ) : (
          <>
            {text('url', 'URL', 'http or https; put credentials in a header with a stored secret.')}
            {rowsEditor('headers', 'Headers')}
          </>
        )}
        <div class="field checkbox">
          <input id="field-readOnly" type="checkbox" checked={form.readOnly} onChange={(event) => update({ readOnly: event.currentTarget.checked })} />
          <label for="field-readOnly">Read-only (only tools annotated readOnlyHint may be called)</label>
        </div>
        <div class="field-pair">
          {text('timeoutMs', 'Call timeout (ms)', undefined, 'number')}
          {text('refreshIntervalSeconds', 'Refresh every (s)', '0: only on demand.', 'number')}
        </div>
        <div class="validation" aria-live="polite">
          {checking && (
            <p>
              <span class="spinner" aria-hidden="true" /> Checking…
            </p>
          )}
          {!checking && report && allProblems.length === 0 && (
            <p class="ok">
              Valid{test?.connection?.ok ? `: connected in ${Math.round(test.connection.durationMs)} ms, ${countOf(test.tools?.length ?? 0, 'tool')} found.` : '. Test connection starts it and lists its tools.'}
            </p>
          )}
          {!checking && allProblems.length > 0 && <p class="problem">{countOf(allProblems.length, 'problem')} to fix before saving.</p>}
          {testing && (
            <p>
              <span class="spinner" aria-hidden="true" /> Connecting…
            </p>
          )}
          {!testing && test?.connection && !test.connection.ok && <p class="problem">Could not connect: {test.connection.error}</p>}
          <ProblemList id="general-problems" problems={general} />
          {test?.tools && test.tools.length > 0 && (
            <details>
              <summary>Tools it would offer ({test.tools.length})</summary>
              <ul class="plain">
                {test.tools.map((tool) => (
                  <li key={tool.qualifiedName}>
                    <code>{tool.qualifiedName}</code>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
        {saveError !== undefined && <ErrorState error={saveError} />}
        <div class="actions">
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : editing ? 'Save changes' : 'Register'}
          </button>
          <button type="button" class="secondary" disabled={testing} onClick={() => void testConnection()}>
            Test connection
          </button>
        </div>
      </form>
    </section>
  );
}
