import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, describeError, send } from '../api.js';
import { ConfirmDialog, CopyButton, Empty, ErrorState, Link, Loading } from '../components/common.js';
import { Problems, under } from '../components/problems.js';
import { useDebounced, useResource } from '../hooks.js';
import { navigate } from '../router.js';
import type { Group, GroupInput, GroupPage, GroupPreview, Problem } from '../types.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
type Hint = (typeof HINTS)[number];
type HintChoice = '' | 'true' | 'false';

interface SelectorDraft {
  sources: string;
  tools: string;
  hints: Record<Hint, HintChoice>;
}

interface OverrideDraft {
  tool: string;
  name: string;
  title: string;
  description: string;
  hints: Record<Hint, HintChoice>;
  defaults: string;
  locked: string;
}

interface Draft {
  name: string;
  description: string;
  select: SelectorDraft[];
  include: string;
  exclude: string;
  overrides: OverrideDraft[];
}

const noHints = (): Record<Hint, HintChoice> => ({ readOnlyHint: '', destructiveHint: '', idempotentHint: '', openWorldHint: '' });
const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);
const hintChoices = (hints: Record<string, boolean> | undefined): Record<Hint, HintChoice> => {
  const choices = noHints();
  for (const hint of HINTS) if (typeof hints?.[hint] === 'boolean') choices[hint] = hints[hint] ? 'true' : 'false';
  return choices;
};
const hintValues = (choices: Record<Hint, HintChoice>): Record<string, boolean> | undefined => {
  const hints = Object.fromEntries(HINTS.filter((hint) => choices[hint] !== '').map((hint) => [hint, choices[hint] === 'true']));
  return Object.keys(hints).length ? hints : undefined;
};
const jsonText = (value: unknown) => (value && Object.keys(value).length ? JSON.stringify(value) : '');

function draftOf(group: Group | undefined): Draft {
  if (!group) return { name: '', description: '', select: [], include: '', exclude: '', overrides: [] };
  return {
    name: group.name,
    description: group.description,
    select: group.select.map((selector) => ({ sources: (selector.sources ?? []).join(', '), tools: (selector.tools ?? []).join(', '), hints: hintChoices(selector.annotations) })),
    include: group.include.join('\n'),
    exclude: group.exclude.join('\n'),
    overrides: Object.entries(group.overrides).map(([tool, override]) => ({
      tool,
      name: override.name ?? '',
      title: override.title ?? '',
      description: override.description ?? '',
      hints: hintChoices(override.annotations),
      defaults: jsonText(override.defaults),
      locked: jsonText(override.locked),
    })),
  };
}

/** The draft as the API takes it, and the problems of what the browser reads itself (the JSON of argument values). */
function specOf(draft: Draft): { spec: GroupInput; problems: Problem[] } {
  const problems: Problem[] = [];
  const overrides: Record<string, Record<string, unknown>> = {};
  for (const override of draft.overrides) {
    if (!override.tool) continue;
    const entry: Record<string, unknown> = {};
    if (override.name) entry.name = override.name;
    if (override.title) entry.title = override.title;
    if (override.description) entry.description = override.description;
    const annotations = hintValues(override.hints);
    if (annotations) entry.annotations = annotations;
    for (const field of ['defaults', 'locked'] as const) {
      if (!override[field].trim()) continue;
      try {
        entry[field] = JSON.parse(override[field]);
      } catch {
        problems.push({ path: `overrides.${override.tool}.${field}`, message: 'must be a JSON object of argument values, as {"repo": "toolplane"}' });
      }
    }
    overrides[override.tool] = entry;
  }
  const spec = {
    name: draft.name,
    description: draft.description,
    select: draft.select.map((selector) => {
      const entry: Record<string, unknown> = {};
      if (words(selector.sources).length) entry.sources = words(selector.sources);
      if (words(selector.tools).length) entry.tools = words(selector.tools);
      const annotations = hintValues(selector.hints);
      if (annotations) entry.annotations = annotations;
      return entry;
    }),
    include: words(draft.include),
    exclude: words(draft.exclude),
    overrides,
  } as GroupInput;
  return { spec, problems };
}

function HintSelects(props: { idPrefix: string; legend: string; value: Record<Hint, HintChoice>; onChange: (value: Record<Hint, HintChoice>) => void }) {
  return (
    <fieldset class="hints">
      <legend>{props.legend}</legend>
      <div class="field-row">
        {HINTS.map((hint) => (
          <div class="field" key={hint}>
            <label for={`${props.idPrefix}-${hint}`}>{hint}</label>
            <select id={`${props.idPrefix}-${hint}`} value={props.value[hint]} onChange={(event) => props.onChange({ ...props.value, [hint]: event.currentTarget.value as HintChoice })}>
              <option value="">any</option>
              <option value="true">true</option>
              <option value="false">false</option>
            </select>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/** The groups: their list with each MCP URL, and the form of a new group. */
export function GroupsPage() {
  const groups = useResource<GroupPage>('/api/v1/groups?limit=200');
  return (
    <section aria-labelledby="groups-title">
      <div class="page-head">
        <h1 id="groups-title">Tool groups</h1>
      </div>
      {groups.error !== undefined && <ErrorState error={groups.error} retry={groups.reload} />}
      {!groups.data && groups.error === undefined && <Loading />}
      {groups.data && groups.data.items.length === 0 && <Empty>No groups yet.</Empty>}
      {groups.data && groups.data.items.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Groups table">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Description</th>
                <th scope="col">MCP URL</th>
              </tr>
            </thead>
            <tbody>
              {groups.data.items.map((group) => (
                <tr key={group.name}>
                  <td>
                    <Link to={`/groups/${encodeURIComponent(group.name)}`}>{group.name}</Link>
                  </td>
                  <td>{group.description || <span class="muted">—</span>}</td>
                  <td>
                    <code class="mcp-url">{location.origin + group.mcpPath}</code> <CopyButton text={location.origin + group.mcpPath} label={`Copy the MCP URL of ${group.name}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <GroupEditor onSaved={(group) => navigate(`/groups/${encodeURIComponent(group.name)}`)} />
    </section>
  );
}

/** One group: its MCP URL, its form, and its removal. */
export function GroupPage(props: { name: string }) {
  const group = useResource<Group>(`/api/v1/groups/${encodeURIComponent(props.name)}`);
  const [removing, setRemoving] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  if (group.error !== undefined) return <ErrorState error={group.error} retry={group.reload} />;
  if (!group.data) return <Loading />;
  const url = location.origin + group.data.mcpPath;
  return (
    <section aria-labelledby="group-title">
      <div class="page-head">
        <h1 id="group-title">Group {group.data.name}</h1>
        <div class="actions">
          <Link to="/groups" class="button secondary">
            All groups
          </Link>
          <button type="button" class="danger" onClick={() => setRemoving(true)}>
            Delete group
          </button>
        </div>
      </div>
      <p>
        MCP URL: <code class="mcp-url">{url}</code> <CopyButton text={url} label="Copy MCP URL" />
      </p>
      {message && (
        <p class="notice" role="status">
          {message}
        </p>
      )}
      {removing && (
        <ConfirmDialog
          title={`Delete group ${group.data.name}?`}
          confirmLabel="Delete"
          onClose={async (confirmed) => {
            setRemoving(false);
            if (!confirmed) return;
            try {
              await send('DELETE', `/api/v1/groups/${encodeURIComponent(props.name)}`);
              navigate('/groups');
            } catch (error) {
              setMessage(describeError(error));
            }
          }}
        >
          <p>
            <code>{url}</code> stops answering and the group's tools are no longer served through it. Its executions keep its name.
          </p>
        </ConfirmDialog>
      )}
      <GroupEditor
        key={group.data.version}
        group={group.data}
        onSaved={() => {
          setMessage('Saved.');
          group.reload();
        }}
      />
    </section>
  );
}

/** The form of a group, new or stored: every problem beside its field, and the tools it would serve, previewed as it is edited. */
function GroupEditor(props: { group?: Group; onSaved: (group: Group) => void }) {
  const editing = props.group !== undefined;
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.group));
  const [problems, setProblems] = useState<Problem[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [preview, setPreview] = useState<GroupPreview | null>(null);
  const [previewProblems, setPreviewProblems] = useState<Problem[]>([]);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const update = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }));
  const { spec, problems: localProblems } = useMemo(() => specOf(draft), [draft]);
  const settled = useDebounced(JSON.stringify(spec), 300);

  useEffect(() => {
    let current = true;
    const body = JSON.parse(settled) as GroupInput;
    // A name is not needed to preview: an unnamed draft is previewed under a placeholder.
    send<GroupPreview>('POST', '/api/v1/groups/preview', { ...body, name: body.name || 'preview' }).then(
      (answer) => {
        if (!current) return;
        setPreview(answer);
        setPreviewProblems([]);
        setPreviewError(null);
      },
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.details.length) setPreviewProblems(error.details);
        else setPreviewError(describeError(error));
      },
    );
    return () => {
      current = false;
    };
  }, [settled]);

  const shown = [...localProblems, ...(draft.name ? previewProblems : previewProblems.filter((problem) => problem.path !== 'name')), ...problems];
  const unique = shown.filter((problem, index) => shown.findIndex((other) => other.path === problem.path && other.message === problem.message) === index);
  const at = (path: string) => under(unique, path);
  const invalid = (path: string) => (at(path).length ? 'true' : undefined);
  const described = (path: string, id: string, help?: string) => [help, at(path).length ? id : undefined].filter(Boolean).join(' ') || undefined;

  const save = async (event: Event) => {
    event.preventDefault();
    setMessage(null);
    setProblems([]);
    if (localProblems.length) return;
    try {
      const saved = editing
        ? await send<Group>('PATCH', `/api/v1/groups/${encodeURIComponent(props.group!.name)}`, { ...spec, name: undefined })
        : await send<Group>('POST', '/api/v1/groups', spec);
      props.onSaved(saved);
    } catch (error) {
      if (error instanceof ApiError && error.details.length) {
        setProblems(error.details);
        setMessage(error.message);
      } else setMessage(describeError(error));
    }
  };
  const known = (problem: Problem) => /^(name|description|include|exclude)(\[|$)/.test(problem.path) || problem.path.startsWith('select') || problem.path.startsWith('overrides');
  const elsewhere = unique.filter((problem) => !known(problem));

  const setSelector = (index: number, changes: Partial<SelectorDraft>) => update({ select: draft.select.map((selector, i) => (i === index ? { ...selector, ...changes } : selector)) });
  const setOverride = (index: number, changes: Partial<OverrideDraft>) => update({ overrides: draft.overrides.map((override, i) => (i === index ? { ...override, ...changes } : override)) });

  return (
    <div class="group-editor">
      <form class="card" onSubmit={save} aria-labelledby="group-form-title" noValidate>
        <h2 id="group-form-title">{editing ? 'Edit group' : 'New group'}</h2>
        <div class="field">
          <label for="group-name">Name</label>
          <input id="group-name" value={draft.name} disabled={editing} onInput={(event) => update({ name: event.currentTarget.value })} aria-invalid={invalid('name')} aria-describedby={described('name', 'group-name-problems', 'group-name-help')} />
          <p class="help" id="group-name-help">
            A lowercase slug: letters, digits and dashes. It names the endpoint and cannot change.
          </p>
          <Problems id="group-name-problems" problems={at('name')} />
        </div>
        <div class="field">
          <label for="group-description">Description</label>
          <textarea id="group-description" rows={2} value={draft.description} onInput={(event) => update({ description: event.currentTarget.value })} aria-invalid={invalid('description')} aria-describedby={described('description', 'group-description-problems')} />
          <Problems id="group-description-problems" problems={at('description')} />
        </div>

        <h3>Selection</h3>
        <p class="help">A tool is in the group when a selector matches it or include names it, unless exclude names it. In patterns, * matches any run of characters.</p>
        {draft.select.map((selector, index) => (
          <fieldset class="selector" key={index}>
            <legend>Selector {index + 1}</legend>
            <div class="field-row">
              <div class="field">
                <label for={`selector-${index}-sources`}>Sources</label>
                <input id={`selector-${index}-sources`} value={selector.sources} onInput={(event) => setSelector(index, { sources: event.currentTarget.value })} aria-invalid={invalid(`select[${index}].sources`)} aria-describedby={described(`select[${index}].sources`, `selector-${index}-sources-problems`)} />
                <Problems id={`selector-${index}-sources-problems`} problems={at(`select[${index}].sources`)} />
              </div>
              <div class="field">
                <label for={`selector-${index}-tools`}>Tool-name patterns</label>
                <input id={`selector-${index}-tools`} value={selector.tools} onInput={(event) => setSelector(index, { tools: event.currentTarget.value })} aria-invalid={invalid(`select[${index}].tools`)} aria-describedby={described(`select[${index}].tools`, `selector-${index}-tools-problems`)} />
                <Problems id={`selector-${index}-tools-problems`} problems={at(`select[${index}].tools`)} />
              </div>
            </div>
            <HintSelects idPrefix={`selector-${index}`} legend="Annotation hints" value={selector.hints} onChange={(hints) => setSelector(index, { hints })} />
            <Problems id={`selector-${index}-problems`} problems={unique.filter((problem) => problem.path === `select[${index}]` || (problem.path.startsWith(`select[${index}].`) && !/\.(sources|tools)(\[|$)/.test(problem.path)))} />
            <button type="button" class="secondary small" onClick={() => update({ select: draft.select.filter((_, i) => i !== index) })}>
              Remove selector {index + 1}
            </button>
          </fieldset>
        ))}
        <Problems id="group-select-problems" problems={unique.filter((problem) => problem.path === 'select')} />
        <button type="button" class="secondary small" onClick={() => update({ select: [...draft.select, { sources: '', tools: '', hints: noHints() }] })}>
          Add selector
        </button>
        <div class="field-row">
          <div class="field">
            <label for="group-include">Include</label>
            <textarea id="group-include" rows={3} value={draft.include} onInput={(event) => update({ include: event.currentTarget.value })} aria-invalid={invalid('include')} aria-describedby={described('include', 'group-include-problems', 'group-include-help')} />
            <p class="help" id="group-include-help">
              Qualified names, one a line.
            </p>
            <Problems id="group-include-problems" problems={at('include')} />
          </div>
          <div class="field">
            <label for="group-exclude">Exclude</label>
            <textarea id="group-exclude" rows={3} value={draft.exclude} onInput={(event) => update({ exclude: event.currentTarget.value })} aria-invalid={invalid('exclude')} aria-describedby={described('exclude', 'group-exclude-problems')} />
            <Problems id="group-exclude-problems" problems={at('exclude')} />
          </div>
        </div>

        <h3>Overrides</h3>
        {draft.overrides.map((override, index) => {
          const path = `overrides.${override.tool}`;
          const id = `override-${index}`;
          const input = (field: 'tool' | 'name' | 'title', label: string) => (
            <div class="field">
              <label for={`${id}-${field}`}>{label}</label>
              <input id={`${id}-${field}`} value={override[field]} onInput={(event) => setOverride(index, { [field]: event.currentTarget.value })} aria-invalid={field === 'tool' ? undefined : invalid(`${path}.${field}`)} aria-describedby={field === 'tool' ? undefined : described(`${path}.${field}`, `${id}-${field}-problems`)} />
              {field !== 'tool' && override.tool && <Problems id={`${id}-${field}-problems`} problems={at(`${path}.${field}`)} />}
            </div>
          );
          const json = (field: 'defaults' | 'locked', label: string) => (
            <div class="field">
              <label for={`${id}-${field}`}>{label}</label>
              <textarea id={`${id}-${field}`} rows={2} class="mono" value={override[field]} onInput={(event) => setOverride(index, { [field]: event.currentTarget.value })} aria-invalid={invalid(`${path}.${field}`)} aria-describedby={described(`${path}.${field}`, `${id}-${field}-problems`)} />
              {override.tool && <Problems id={`${id}-${field}-problems`} problems={at(`${path}.${field}`)} />}
            </div>
          );
          return (
            <fieldset class="override" key={index}>
              <legend>Override {override.tool || index + 1}</legend>
              <div class="field-row">
                {input('tool', 'Tool (qualified name)')}
                {input('name', 'Served name')}
                {input('title', 'Served title')}
              </div>
              <div class="field">
                <label for={`${id}-description`}>Served description</label>
                <textarea id={`${id}-description`} rows={2} value={override.description} onInput={(event) => setOverride(index, { description: event.currentTarget.value })} aria-invalid={invalid(`${path}.description`)} aria-describedby={described(`${path}.description`, `${id}-description-problems`)} />
                {override.tool && <Problems id={`${id}-description-problems`} problems={at(`${path}.description`)} />}
              </div>
              <HintSelects idPrefix={id} legend="Annotations served" value={override.hints} onChange={(hints) => setOverride(index, { hints })} />
              {override.tool && <Problems id={`${id}-annotations-problems`} problems={at(`${path}.annotations`)} />}
              <div class="field-row">
                {json('defaults', 'Default arguments (JSON)')}
                {json('locked', 'Locked arguments (JSON)')}
              </div>
              {override.tool && <Problems id={`${id}-problems`} problems={unique.filter((problem) => problem.path === path || (problem.path.startsWith(`${path}.`) && !/\.(name|title|description|annotations|defaults|locked)(\.|\[|$)/.test(problem.path.slice(path.length))))} />}
              <button type="button" class="secondary small" onClick={() => update({ overrides: draft.overrides.filter((_, i) => i !== index) })}>
                Remove override {override.tool || index + 1}
              </button>
            </fieldset>
          );
        })}
        <button type="button" class="secondary small" onClick={() => update({ overrides: [...draft.overrides, { tool: '', name: '', title: '', description: '', hints: noHints(), defaults: '', locked: '' }] })}>
          Add override
        </button>
        <Problems id="group-other-problems" problems={elsewhere} />
        {message && (
          <p class="notice" role="status">
            {message}
          </p>
        )}
        <div class="actions">
          <button type="submit">{editing ? 'Save group' : 'Create group'}</button>
        </div>
      </form>
      <section class="card preview" aria-labelledby="preview-title" aria-live="polite">
        <h2 id="preview-title">Preview</h2>
        {previewError && <p class="problem">{previewError}</p>}
        {!preview && !previewError && <Loading />}
        {preview && previewProblems.length > 0 && <p class="muted">The group as typed has problems: the preview shows the last valid version.</p>}
        {preview && preview.items.length === 0 && <Empty>The group would serve no tool now.</Empty>}
        {preview && preview.items.length > 0 && (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Tools the group would serve">
            <table>
              <thead>
                <tr>
                  <th scope="col">Served name</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Set by the group</th>
                </tr>
              </thead>
              <tbody>
                {preview.items.map((tool) => (
                  <tr key={tool.qualifiedName}>
                    <td>
                      <code>{tool.servedName}</code>
                    </td>
                    <td>
                      <Link to={`/catalog/${encodeURIComponent(tool.qualifiedName)}`}>{tool.qualifiedName}</Link>
                      {tool.description && <div class="muted preview-description">{tool.description}</div>}
                    </td>
                    <td>
                      <ul class="plain">
                        {Object.entries(tool.locked).map(([name, value]) => (
                          <li key={`locked-${name}`}>
                            <span class="badge badge-warn">locked</span> <code>{name}</code> = <code>{JSON.stringify(value)}</code>
                          </li>
                        ))}
                        {Object.entries(tool.defaults).map(([name, value]) => (
                          <li key={`default-${name}`}>
                            <span class="badge badge-muted">default</span> <code>{name}</code> = <code>{JSON.stringify(value)}</code>
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
