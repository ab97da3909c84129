import { useMemo, useState } from 'preact/hooks';
import { ApiError, describeError, send } from '../api.js';
import { Badge, ConfirmDialog, Empty, ErrorState, Link, Loading } from '../components/common.js';
import { Problems, under } from '../components/problems.js';
import { useResource } from '../hooks.js';
import { navigate } from '../router.js';
import type { Interceptor, InterceptorInput, InterceptorPage, Problem } from '../types.js';
import { SamplePanel } from './interceptor-sample.js';

type Kind = Interceptor['kind'];
type Phase = Interceptor['phase'];
type Detector = NonNullable<Interceptor['detect']>[number];
type Rule = NonNullable<Interceptor['rules']>[number];
type Condition = '' | 'equals' | 'pattern' | 'pathUnder' | 'pathOutside' | 'range';

/** Each kind: what it does and the phases it runs in (docs/interceptors.md); keyed by the API's kinds, so a new kind fails the typecheck until it is here. */
const KINDS: Record<Kind, { summary: string; phases: Phase[] }> = {
  defaults: { summary: 'fills in arguments a call leaves out', phases: ['pre'] },
  lock: { summary: 'fixes argument values; a call giving another is refused', phases: ['pre'] },
  deny: { summary: 'refuses calls by rules on the tool and its arguments', phases: ['pre'] },
  redact: { summary: 'masks personal data and secrets in results', phases: ['post'] },
  cap: { summary: 'limits the size of results', phases: ['post'] },
  'output-schema': { summary: "checks structured results against the tool's outputSchema", phases: ['post'] },
  webhook: { summary: 'asks a service of yours', phases: ['pre', 'post'] },
  approval: { summary: 'holds calls until a person approves them', phases: ['pre'] },
};
const KIND_NAMES = Object.keys(KINDS) as Kind[];

const DETECTORS: Record<Detector, string> = { email: 'E-mail addresses', phone: 'Phone numbers', card: 'Card numbers', iban: 'IBANs', secret: 'Secrets (keys, tokens)' };
const DETECTOR_NAMES = Object.keys(DETECTORS) as Detector[];

const CONDITIONS: Record<Exclude<Condition, ''>, string> = {
  equals: 'the value equals (JSON)',
  pattern: 'the value matches a pattern',
  pathUnder: 'the value is a path under',
  pathOutside: 'the value is a path outside',
  range: 'the value is a number outside',
};

interface RuleDraft {
  tools: string;
  argument: string;
  condition: Condition;
  value: string;
  min: string;
  max: string;
  message: string;
}

interface Draft {
  name: string;
  description: string;
  kind: Kind;
  phase: Phase;
  order: string;
  source: string;
  group: string;
  tools: string;
  onError: Interceptor['onError'];
  timeoutMs: string;
  enabled: boolean;
  arguments: string;
  rules: RuleDraft[];
  detect: Record<Detector, boolean>;
  patterns: { name: string; pattern: string }[];
  maxBytes: string;
  maxBlocks: string;
  maxTextLength: string;
  action: NonNullable<Interceptor['action']>;
  onMismatch: NonNullable<Interceptor['onMismatch']>;
  url: string;
  signingSecret: string;
  /** approval: its approvers, when and notify, as JSON. */
  approval: string;
}

const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const textOf = (value: number | undefined) => (value === undefined ? '' : String(value));
const emptyRule = (): RuleDraft => ({ tools: '', argument: '', condition: '', value: '', min: '', max: '', message: '' });

function ruleDraft(rule: Rule): RuleDraft {
  const draft = { ...emptyRule(), tools: (rule.tools ?? []).join(', '), argument: rule.argument ?? '', message: rule.message };
  if (rule.equals !== undefined) return { ...draft, condition: 'equals', value: JSON.stringify(rule.equals) };
  if (rule.pattern !== undefined) return { ...draft, condition: 'pattern', value: rule.pattern };
  if (rule.pathUnder !== undefined) return { ...draft, condition: 'pathUnder', value: rule.pathUnder };
  if (rule.pathOutside !== undefined) return { ...draft, condition: 'pathOutside', value: rule.pathOutside };
  if (rule.range !== undefined) return { ...draft, condition: 'range', min: textOf(rule.range.min), max: textOf(rule.range.max) };
  return draft;
}

function draftOf(interceptor: Interceptor | undefined): Draft {
  const all = Object.fromEntries(DETECTOR_NAMES.map((name) => [name, true])) as Record<Detector, boolean>;
  if (!interceptor) {
    return {
      name: '', description: '', kind: 'deny', phase: 'pre', order: '', source: '', group: '', tools: '', onError: 'deny', timeoutMs: '', enabled: true,
      arguments: '', rules: [emptyRule()], detect: all, patterns: [], maxBytes: '', maxBlocks: '', maxTextLength: '', action: 'truncate', onMismatch: 'error', url: '', signingSecret: '', approval: '',
    };
  }
  return {
    name: interceptor.name,
    description: interceptor.description,
    kind: interceptor.kind,
    phase: interceptor.phase,
    order: String(interceptor.order),
    source: interceptor.scope.source ?? '',
    group: interceptor.scope.group ?? '',
    tools: (interceptor.scope.tools ?? []).join(', '),
    onError: interceptor.onError,
    timeoutMs: String(interceptor.timeoutMs),
    enabled: interceptor.enabled,
    arguments: interceptor.arguments ? JSON.stringify(interceptor.arguments, null, 2) : '',
    rules: interceptor.rules?.map(ruleDraft) ?? [emptyRule()],
    detect: interceptor.detect ? (Object.fromEntries(DETECTOR_NAMES.map((name) => [name, interceptor.detect!.includes(name)])) as Record<Detector, boolean>) : all,
    patterns: interceptor.patterns?.map((pattern) => ({ ...pattern })) ?? [],
    maxBytes: textOf(interceptor.maxBytes),
    maxBlocks: textOf(interceptor.maxBlocks),
    maxTextLength: textOf(interceptor.maxTextLength),
    action: interceptor.action ?? 'truncate',
    onMismatch: interceptor.onMismatch ?? 'error',
    url: interceptor.url ?? '',
    signingSecret: interceptor.signingSecret ?? '',
    approval: interceptor.kind === 'approval' ? JSON.stringify({ approvers: interceptor.approvers, when: interceptor.when, notify: interceptor.notify }, null, 2) : '',
  };
}

/** A number field as sent: null when blank (its default), the number when it reads as one, else the text (the API says what is wrong with it). */
function numberOf(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : trimmed;
}

/**
 * The draft as the API takes it — every field of its kind, a blank one null (its default, or
 * left out), so a change replaces each field as a whole — and the problems of what the browser
 * reads itself (the JSON of values).
 */
function specOf(draft: Draft): { spec: Record<string, unknown>; problems: Problem[] } {
  const problems: Problem[] = [];
  const json = (text: string, path: string, what: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      problems.push({ path, message: `must be JSON: ${what}` });
      return undefined;
    }
  };
  const scope: Record<string, unknown> = {};
  if (draft.source.trim()) scope.source = draft.source.trim();
  if (draft.group.trim()) scope.group = draft.group.trim();
  if (words(draft.tools).length) scope.tools = words(draft.tools);
  const spec: Record<string, unknown> = {
    name: draft.name,
    description: draft.description,
    kind: draft.kind,
    phase: KINDS[draft.kind].phases.includes(draft.phase) ? draft.phase : KINDS[draft.kind].phases[0],
    order: numberOf(draft.order),
    scope,
    onError: draft.onError,
    timeoutMs: numberOf(draft.timeoutMs),
    enabled: draft.enabled,
  };
  switch (draft.kind) {
    case 'defaults':
    case 'lock':
      spec.arguments = draft.arguments.trim() ? json(draft.arguments, 'arguments', 'an object of argument values, as {"owner": "acme"}') : null;
      break;
    case 'deny':
      spec.rules = draft.rules.map((rule, index) => {
        const out: Record<string, unknown> = {};
        if (words(rule.tools).length) out.tools = words(rule.tools);
        if (rule.argument.trim()) out.argument = rule.argument.trim();
        if (rule.condition === 'equals') out.equals = json(rule.value, `rules[${index}].equals`, 'the value to refuse, as "main" or 42');
        else if (rule.condition === 'range') {
          const range: Record<string, unknown> = {};
          if (numberOf(rule.min) !== null) range.min = numberOf(rule.min);
          if (numberOf(rule.max) !== null) range.max = numberOf(rule.max);
          out.range = range;
        } else if (rule.condition) out[rule.condition] = rule.value;
        out.message = rule.message;
        return out;
      });
      break;
    case 'redact':
      spec.detect = DETECTOR_NAMES.every((name) => draft.detect[name]) ? null : DETECTOR_NAMES.filter((name) => draft.detect[name]);
      spec.patterns = draft.patterns.length ? draft.patterns : null;
      break;
    case 'cap':
      spec.maxBytes = numberOf(draft.maxBytes);
      spec.maxBlocks = numberOf(draft.maxBlocks);
      spec.maxTextLength = numberOf(draft.maxTextLength);
      spec.action = draft.action;
      break;
    case 'output-schema':
      spec.onMismatch = draft.onMismatch;
      break;
    case 'webhook':
      spec.url = draft.url.trim() || null;
      spec.signingSecret = draft.signingSecret.trim() || null;
      break;
    case 'approval': {
      const settings = draft.approval.trim() ? json(draft.approval, 'approvers', 'an object of approvers, when and notify') : {};
      const given = typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : {};
      for (const field of ['approvers', 'when', 'notify'] as const) spec[field] = given[field] ?? null;
      break;
    }
  }
  return { spec, problems };
}

/** What a new interceptor is sent: the fields left blank left out. */
const withoutNulls = (spec: Record<string, unknown>) => Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== null)) as InterceptorInput;

function scopeText(scope: Interceptor['scope']): string {
  const parts = [scope.source && `source ${scope.source}`, scope.group && `group ${scope.group}`, scope.tools && `tools ${scope.tools.join(', ')}`].filter(Boolean);
  return parts.length ? parts.join(' · ') : 'every call';
}

/** The interceptors by phase and order (the order calls run them in), and the form of a new one. */
export function InterceptorsPage() {
  const interceptors = useResource<InterceptorPage>('/api/v1/interceptors?limit=200');
  const items = useMemo(
    () => [...(interceptors.data?.items ?? [])].sort((a, b) => (a.phase === b.phase ? 0 : a.phase === 'pre' ? -1 : 1) || a.order - b.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    [interceptors.data],
  );
  return (
    <section aria-labelledby="interceptors-title">
      <div class="page-head">
        <h1 id="interceptors-title">Interceptors</h1>
      </div>
      <p class="help">Stages of every tool call they apply to: pre interceptors see the arguments before the upstream is called, post interceptors the result it answered. Each phase runs its interceptors by order, then by name.</p>
      {interceptors.error !== undefined && <ErrorState error={interceptors.error} retry={interceptors.reload} />}
      {!interceptors.data && interceptors.error === undefined && <Loading />}
      {interceptors.data && items.length === 0 && <Empty>No interceptors yet.</Empty>}
      {items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Interceptors table">
          <table>
            <thead>
              <tr>
                <th scope="col">Phase</th>
                <th scope="col" class="num">Order</th>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Scope</th>
                <th scope="col">On error</th>
                <th scope="col">Enabled</th>
              </tr>
            </thead>
            <tbody>
              {items.map((interceptor) => (
                <tr key={interceptor.name}>
                  <td>{interceptor.phase}</td>
                  <td class="num">{interceptor.order}</td>
                  <td>
                    <Link to={`/interceptors/${encodeURIComponent(interceptor.name)}`}>{interceptor.name}</Link>
                    {interceptor.description && <div class="muted preview-description">{interceptor.description}</div>}
                  </td>
                  <td>{interceptor.kind}</td>
                  <td>{scopeText(interceptor.scope)}</td>
                  <td>{interceptor.onError}</td>
                  <td>
                    <Badge value={interceptor.enabled ? 'enabled' : 'disabled'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <InterceptorEditor onSaved={(saved) => navigate(`/interceptors/${encodeURIComponent(saved.name)}`)} />
    </section>
  );
}

/** One interceptor: its form, the sample call to try it on, and its removal. */
export function InterceptorPage(props: { name: string }) {
  const interceptor = useResource<Interceptor>(`/api/v1/interceptors/${encodeURIComponent(props.name)}`);
  const [removing, setRemoving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (interceptor.error !== undefined) return <ErrorState error={interceptor.error} retry={interceptor.reload} />;
  if (!interceptor.data) return <Loading />;
  return (
    <section aria-labelledby="interceptor-title">
      <div class="page-head">
        <h1 id="interceptor-title">Interceptor {interceptor.data.name}</h1>
        <div class="actions">
          <Link to="/interceptors" class="button secondary">
            All interceptors
          </Link>
          <button type="button" class="danger" onClick={() => setRemoving(true)}>
            Delete interceptor
          </button>
        </div>
      </div>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {removing && (
        <ConfirmDialog
          title={`Delete interceptor ${interceptor.data.name}?`}
          confirmLabel="Delete"
          onClose={async (confirmed) => {
            setRemoving(false);
            if (!confirmed) return;
            try {
              await send('DELETE', `/api/v1/interceptors/${encodeURIComponent(props.name)}`);
              navigate('/interceptors');
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>No call runs it once it is deleted. Executions keep what it did.</p>
        </ConfirmDialog>
      )}
      <InterceptorEditor
        key={interceptor.data.version}
        interceptor={interceptor.data}
        onSaved={() => {
          setMessage('Saved.');
          interceptor.reload();
        }}
      />
    </section>
  );
}

/** The paths of the form's own fields; the problems of any other go to the list below it. */
const KNOWN = /^(name|description|kind|phase|order|scope|onError|timeoutMs|enabled|arguments|rules|detect|patterns|maxBytes|maxBlocks|maxTextLength|action|onMismatch|url|signingSecret|approvers|when|notify)(\.|\[|$)/;

/** The form of an interceptor, new or stored, with every problem beside its field, and the sample call to try it on. */
function InterceptorEditor(props: { interceptor?: Interceptor; onSaved: (interceptor: Interceptor) => void }) {
  const editing = props.interceptor !== undefined;
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.interceptor));
  const [problems, setProblems] = useState<Problem[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const update = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const { spec, problems: localProblems } = useMemo(() => specOf(draft), [draft]);
  const shown = [...localProblems, ...problems];
  const unique = shown.filter((problem, index) => shown.findIndex((other) => other.path === problem.path && other.message === problem.message) === index);
  const at = (path: string) => under(unique, path);
  const exactly = (path: string) => unique.filter((problem) => problem.path === path);
  const invalid = (path: string, only = false) => ((only ? exactly(path) : at(path)).length ? 'true' : undefined);
  const described = (path: string, id: string, help?: string, only = false) => [help, (only ? exactly(path) : at(path)).length ? id : undefined].filter(Boolean).join(' ') || undefined;
  const phases = KINDS[draft.kind].phases;
  const phase = phases.includes(draft.phase) ? draft.phase : phases[0]!;

  const save = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    setProblems([]);
    if (localProblems.length) return;
    try {
      const saved = editing
        ? await send<Interceptor>('PATCH', `/api/v1/interceptors/${encodeURIComponent(props.interceptor!.name)}`, { ...spec, name: undefined, version: props.interceptor!.version })
        : await send<Interceptor>('POST', '/api/v1/interceptors', withoutNulls(spec));
      props.onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && error.details.length) {
        setProblems(error.details);
        setMessage(error.message);
      } else setMessage(describeError(error));
    }
  };

  const text = (field: 'name' | 'description' | 'order' | 'timeoutMs' | 'maxBytes' | 'maxBlocks' | 'maxTextLength' | 'url' | 'signingSecret', label: string, options: { id: string; help?: string; numeric?: boolean; disabled?: boolean } = { id: '' }) => {
    const id = `interceptor-${options.id}`;
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <input
          id={id}
          inputMode={options.numeric ? 'numeric' : undefined}
          value={draft[field]}
          disabled={options.disabled}
          onInput={(event) => update({ [field]: event.currentTarget.value })}
          aria-invalid={invalid(field)}
          aria-describedby={described(field, `${id}-problems`, options.help ? `${id}-help` : undefined)}
        />
        {options.help && (
          <p class="help" id={`${id}-help`}>
            {options.help}
          </p>
        )}
        <Problems id={`${id}-problems`} problems={at(field)} />
      </div>
    );
  };
  const setRule = (index: number, changes: Partial<RuleDraft>) => update({ rules: draft.rules.map((rule, i) => (i === index ? { ...rule, ...changes } : rule)) });
  const setPattern = (index: number, changes: Partial<{ name: string; pattern: string }>) => update({ patterns: draft.patterns.map((pattern, i) => (i === index ? { ...pattern, ...changes } : pattern)) });

  return (
    <div class="interceptor-editor">
      <form class="card" onSubmit={save} aria-labelledby="interceptor-form-title" noValidate>
        <h2 id="interceptor-form-title">{editing ? 'Edit interceptor' : 'New interceptor'}</h2>
        {text('name', 'Name', { id: 'name', help: 'A lowercase slug: letters, digits and dashes. It cannot change.', disabled: editing })}
        <div class="field">
          <label for="interceptor-description">Description</label>
          <textarea id="interceptor-description" rows={2} value={draft.description} onInput={(event) => update({ description: event.currentTarget.value })} aria-invalid={invalid('description')} aria-describedby={described('description', 'interceptor-description-problems')} />
          <Problems id="interceptor-description-problems" problems={at('description')} />
        </div>
        <div class="field-row">
          <div class="field">
            <label for="interceptor-kind">Kind</label>
            <select id="interceptor-kind" value={draft.kind} onChange={(event) => update({ kind: event.currentTarget.value as Kind })} aria-invalid={invalid('kind')} aria-describedby={described('kind', 'interceptor-kind-problems', 'interceptor-kind-help')}>
              {KIND_NAMES.map((kind) => (
                <option key={kind} value={kind}>
                  {kind}
                </option>
              ))}
            </select>
            <p class="help" id="interceptor-kind-help">
              {KINDS[draft.kind].summary}
            </p>
            <Problems id="interceptor-kind-problems" problems={at('kind')} />
          </div>
          <div class="field">
            <label for="interceptor-phase">Phase</label>
            <select id="interceptor-phase" value={phase} onChange={(event) => update({ phase: event.currentTarget.value as Phase })} aria-invalid={invalid('phase')} aria-describedby={described('phase', 'interceptor-phase-problems')}>
              {phases.map((option) => (
                <option key={option} value={option}>
                  {option === 'pre' ? 'pre (before the call)' : 'post (after the answer)'}
                </option>
              ))}
            </select>
            <Problems id="interceptor-phase-problems" problems={at('phase')} />
          </div>
          {text('order', 'Order', { id: 'order', numeric: true, help: 'Lower runs first. Default 0.' })}
        </div>

        <fieldset>
          <legend>Scope</legend>
          <p class="help">Where it applies: every field given must match; all blank, every call.</p>
          <div class="field-row">
            {(['source', 'group'] as const).map((field) => (
              <div class="field" key={field}>
                <label for={`interceptor-scope-${field}`}>{field === 'source' ? 'Source' : 'Group'}</label>
                <input id={`interceptor-scope-${field}`} value={draft[field]} onInput={(event) => update({ [field]: event.currentTarget.value })} aria-invalid={invalid(`scope.${field}`)} aria-describedby={described(`scope.${field}`, `interceptor-scope-${field}-problems`)} />
                <Problems id={`interceptor-scope-${field}-problems`} problems={at(`scope.${field}`)} />
              </div>
            ))}
            <div class="field">
              <label for="interceptor-scope-tools">Tool-name patterns</label>
              <input id="interceptor-scope-tools" value={draft.tools} onInput={(event) => update({ tools: event.currentTarget.value })} aria-invalid={invalid('scope.tools')} aria-describedby={described('scope.tools', 'interceptor-scope-tools-problems')} />
              <Problems id="interceptor-scope-tools-problems" problems={at('scope.tools')} />
            </div>
          </div>
          <Problems id="interceptor-scope-problems" problems={exactly('scope').concat(unique.filter((problem) => /^scope\.(?!source|group|tools)/.test(problem.path)))} />
        </fieldset>

        <div class="field-row">
          <div class="field">
            <label for="interceptor-on-error">On error</label>
            <select id="interceptor-on-error" value={draft.onError} onChange={(event) => update({ onError: event.currentTarget.value as Draft['onError'] })} aria-invalid={invalid('onError')} aria-describedby={described('onError', 'interceptor-on-error-problems', 'interceptor-on-error-help')}>
              <option value="deny">deny (refuse the call)</option>
              <option value="allow">allow (let it go on)</option>
            </select>
            <p class="help" id="interceptor-on-error-help">
              When a run fails or outlasts its timeout.
            </p>
            <Problems id="interceptor-on-error-problems" problems={at('onError')} />
          </div>
          {text('timeoutMs', 'Timeout (ms)', { id: 'timeout', numeric: true, help: draft.kind === 'approval' ? 'How long a held call waits for a decision; default 3600000 (an hour), at most 7 days.' : `Default ${draft.kind === 'webhook' ? 5000 : 1000}.` })}
          <div class="field checkbox">
            <input id="interceptor-enabled" type="checkbox" checked={draft.enabled} onChange={(event) => update({ enabled: event.currentTarget.checked })} />
            <label for="interceptor-enabled">Enabled</label>
          </div>
        </div>

        <h3>{draft.kind} settings</h3>
        {(draft.kind === 'defaults' || draft.kind === 'lock') && (
          <div class="field">
            <label for="interceptor-arguments">Arguments (JSON)</label>
            <textarea id="interceptor-arguments" rows={4} class="mono" value={draft.arguments} onInput={(event) => update({ arguments: event.currentTarget.value })} aria-invalid={invalid('arguments')} aria-describedby={described('arguments', 'interceptor-arguments-problems', 'interceptor-arguments-help')} />
            <p class="help" id="interceptor-arguments-help">
              {draft.kind === 'lock' ? 'Values every call gets; a call giving another value is refused.' : 'Values for the arguments a call leaves out.'} As {'{"owner": "acme"}'}; never credentials.
            </p>
            <Problems id="interceptor-arguments-problems" problems={at('arguments')} />
          </div>
        )}

        {draft.kind === 'deny' && (
          <>
            <p class="help">A call is refused by the first rule it meets: its tool matches the rule's tools (blank: every tool in scope) and, with an argument, that argument meets the condition.</p>
            {draft.rules.map((rule, index) => {
              const path = `rules[${index}]`;
              const id = `rule-${index}`;
              const valuePath = rule.condition === '' ? path : `${path}.${rule.condition}`;
              const field = (name: 'tools' | 'argument' | 'message', label: string) => (
                <div class="field">
                  <label for={`${id}-${name}`}>{label}</label>
                  <input id={`${id}-${name}`} value={rule[name]} onInput={(event) => setRule(index, { [name]: event.currentTarget.value })} aria-invalid={invalid(`${path}.${name}`)} aria-describedby={described(`${path}.${name}`, `${id}-${name}-problems`)} />
                  <Problems id={`${id}-${name}-problems`} problems={at(`${path}.${name}`)} />
                </div>
              );
              return (
                <fieldset class="rule" key={index}>
                  <legend>Rule {index + 1}</legend>
                  <div class="field-row">
                    {field('tools', 'Tools')}
                    {field('argument', 'Argument')}
                  </div>
                  <div class="field-row">
                    <div class="field">
                      <label for={`${id}-condition`}>Condition</label>
                      <select id={`${id}-condition`} value={rule.condition} onChange={(event) => setRule(index, { condition: event.currentTarget.value as Condition })}>
                        <option value="">none: refuse the tools named</option>
                        {(Object.keys(CONDITIONS) as (keyof typeof CONDITIONS)[]).map((condition) => (
                          <option key={condition} value={condition}>
                            {CONDITIONS[condition]}
                          </option>
                        ))}
                      </select>
                    </div>
                    {rule.condition !== '' && rule.condition !== 'range' && (
                      <div class="field">
                        <label for={`${id}-value`}>{rule.condition === 'pattern' ? 'Pattern (RE2)' : rule.condition === 'equals' ? 'Value (JSON)' : 'Path prefix'}</label>
                        <input id={`${id}-value`} class={rule.condition === 'pattern' || rule.condition === 'equals' ? 'mono' : undefined} value={rule.value} onInput={(event) => setRule(index, { value: event.currentTarget.value })} aria-invalid={invalid(valuePath)} aria-describedby={described(valuePath, `${id}-value-problems`)} />
                        <Problems id={`${id}-value-problems`} problems={at(valuePath)} />
                      </div>
                    )}
                    {rule.condition === 'range' &&
                      (['min', 'max'] as const).map((bound) => (
                        <div class="field" key={bound}>
                          <label for={`${id}-${bound}`}>{bound === 'min' ? 'Minimum' : 'Maximum'}</label>
                          <input id={`${id}-${bound}`} type="number" value={rule[bound]} onInput={(event) => setRule(index, { [bound]: event.currentTarget.value })} aria-invalid={invalid(`${path}.range.${bound}`)} aria-describedby={described(`${path}.range.${bound}`, `${id}-${bound}-problems`)} />
                          <Problems id={`${id}-${bound}-problems`} problems={at(`${path}.range.${bound}`)} />
                        </div>
                      ))}
                  </div>
                  {rule.condition === 'range' && <Problems id={`${id}-range-problems`} problems={exactly(`${path}.range`)} />}
                  {field('message', 'Message')}
                  <Problems id={`${id}-problems`} problems={exactly(path).concat(unique.filter((problem) => problem.path.startsWith(`${path}.`) && !/^\.(tools|argument|message|equals|pattern|pathUnder|pathOutside|range)(\.|\[|$)/.test(problem.path.slice(path.length))))} />
                  <button type="button" class="secondary small" onClick={() => update({ rules: draft.rules.filter((_, i) => i !== index) })}>
                    Remove rule {index + 1}
                  </button>
                </fieldset>
              );
            })}
            <Problems id="interceptor-rules-problems" problems={exactly('rules')} />
            <button type="button" class="secondary small" onClick={() => update({ rules: [...draft.rules, emptyRule()] })}>
              Add rule
            </button>
          </>
        )}

        {draft.kind === 'redact' && (
          <>
            <fieldset>
              <legend>Detectors</legend>
              <div class="field-row">
                {DETECTOR_NAMES.map((name) => (
                  <div class="field checkbox" key={name}>
                    <input id={`detect-${name}`} type="checkbox" checked={draft.detect[name]} onChange={(event) => update({ detect: { ...draft.detect, [name]: event.currentTarget.checked } })} />
                    <label for={`detect-${name}`}>
                      {DETECTORS[name]} <span class="muted">[{name}]</span>
                    </label>
                  </div>
                ))}
              </div>
              <Problems id="interceptor-detect-problems" problems={at('detect')} />
            </fieldset>
            {draft.patterns.map((pattern, index) => (
              <fieldset class="rule" key={index}>
                <legend>Pattern {index + 1}</legend>
                <div class="field-row">
                  <div class="field">
                    <label for={`pattern-${index}-name`}>Masked as [name]</label>
                    <input id={`pattern-${index}-name`} value={pattern.name} onInput={(event) => setPattern(index, { name: event.currentTarget.value })} aria-invalid={invalid(`patterns[${index}].name`)} aria-describedby={described(`patterns[${index}].name`, `pattern-${index}-name-problems`)} />
                    <Problems id={`pattern-${index}-name-problems`} problems={at(`patterns[${index}].name`)} />
                  </div>
                  <div class="field">
                    <label for={`pattern-${index}-pattern`}>Pattern (RE2)</label>
                    <input id={`pattern-${index}-pattern`} class="mono" value={pattern.pattern} onInput={(event) => setPattern(index, { pattern: event.currentTarget.value })} aria-invalid={invalid(`patterns[${index}].pattern`)} aria-describedby={described(`patterns[${index}].pattern`, `pattern-${index}-pattern-problems`)} />
                    <Problems id={`pattern-${index}-pattern-problems`} problems={at(`patterns[${index}].pattern`)} />
                  </div>
                </div>
                <Problems id={`pattern-${index}-problems`} problems={exactly(`patterns[${index}]`)} />
                <button type="button" class="secondary small" onClick={() => update({ patterns: draft.patterns.filter((_, i) => i !== index) })}>
                  Remove pattern {index + 1}
                </button>
              </fieldset>
            ))}
            <Problems id="interceptor-patterns-problems" problems={exactly('patterns')} />
            <button type="button" class="secondary small" onClick={() => update({ patterns: [...draft.patterns, { name: '', pattern: '' }] })}>
              Add pattern
            </button>
          </>
        )}

        {draft.kind === 'cap' && (
          <>
            <div class="field-row">
              {text('maxBytes', 'Max bytes', { id: 'max-bytes', numeric: true, help: "The result's JSON size." })}
              {text('maxBlocks', 'Max blocks', { id: 'max-blocks', numeric: true, help: 'Content blocks.' })}
              {text('maxTextLength', 'Max text length', { id: 'max-text-length', numeric: true, help: 'Characters of each text block.' })}
            </div>
            <div class="field">
              <label for="interceptor-action">Over a limit</label>
              <select id="interceptor-action" value={draft.action} onChange={(event) => update({ action: event.currentTarget.value as Draft['action'] })} aria-invalid={invalid('action')} aria-describedby={described('action', 'interceptor-action-problems')}>
                <option value="truncate">truncate, with a notice the model sees</option>
                <option value="refuse">refuse the result</option>
              </select>
              <Problems id="interceptor-action-problems" problems={at('action')} />
            </div>
          </>
        )}

        {draft.kind === 'output-schema' && (
          <div class="field">
            <label for="interceptor-on-mismatch">On a mismatch</label>
            <select id="interceptor-on-mismatch" value={draft.onMismatch} onChange={(event) => update({ onMismatch: event.currentTarget.value as Draft['onMismatch'] })} aria-invalid={invalid('onMismatch')} aria-describedby={described('onMismatch', 'interceptor-on-mismatch-problems')}>
              <option value="error">error: the result becomes an error</option>
              <option value="warn">warn: noted on the record only</option>
            </select>
            <Problems id="interceptor-on-mismatch-problems" problems={at('onMismatch')} />
          </div>
        )}

        {draft.kind === 'webhook' && (
          <>
            {text('url', 'URL', { id: 'url', help: 'http(s), no credential in it: each request is signed.' })}
            {text('signingSecret', 'Signing secret name', { id: 'signing-secret', help: 'The name of a stored secret (Secrets): its value keys the HMAC-SHA256 signature.' })}
          </>
        )}

        {draft.kind === 'approval' && (
          <div class="field">
            <label for="interceptor-approval">Approval settings (JSON)</label>
            <textarea id="interceptor-approval" rows={6} class="mono" value={draft.approval} onInput={(event) => update({ approval: event.currentTarget.value })} aria-invalid={invalid('approvers') || invalid('when') || invalid('notify')} aria-describedby="interceptor-approval-problems interceptor-approval-help" />
            <p class="help" id="interceptor-approval-help">
              As {'{"approvers": {"roles": ["admin"], "principals": ["ops"]}, "when": {"annotations": {"destructiveHint": true}}, "notify": {"url": "https://…", "signingSecret": "NAME"}}'}; decided at Approvals.
            </p>
            <Problems id="interceptor-approval-problems" problems={unique.filter((problem) => /^(approvers|when|notify)(\.|\[|$)/.test(problem.path))} />
          </div>
        )}

        <Problems id="interceptor-other-problems" problems={unique.filter((problem) => !KNOWN.test(problem.path))} />
        {message && (
          <p class="notice" role="status">
            {message}
          </p>
        )}
        <div class="actions">
          <button type="submit">{editing ? 'Save interceptor' : 'Create interceptor'}</button>
        </div>
      </form>
      <SamplePanel spec={{ ...withoutNulls(spec), name: draft.name || 'preview' }} phase={phase} localProblems={localProblems} onInterceptorProblems={setProblems} />
    </div>
  );
}
