import type { JsonSchema } from '../types.js';

/** The JSON type a schema asks for (the first non-null one of a list). */
export function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'string';
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.enum) return 'enum';
  return 'any';
}

/** A starting value: the schema's default, else an object of its properties' defaults. */
export function initialValue(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (typeOf(schema) === 'object' && schema.properties) {
    const value: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const start = initialValue(property);
      if (start !== undefined) value[name] = start;
    }
    return value;
  }
  return undefined;
}

interface FieldProps {
  schema: JsonSchema;
  name: string;
  id: string;
  value: unknown;
  required: boolean;
  onChange: (value: unknown) => void;
}

function Label(props: { id: string; name: string; required: boolean; schema: JsonSchema }) {
  return (
    <label for={props.id}>
      {props.schema.title ?? props.name}
      {props.required && <span class="required"> (required)</span>}
    </label>
  );
}

function Help(props: { id: string; schema: JsonSchema }) {
  return props.schema.description ? (
    <p class="help" id={`${props.id}-help`}>
      {props.schema.description}
    </p>
  ) : null;
}

/** One input for one schema: a select for enums, a checkbox, a number, text, a nested group, a list. */
export function SchemaField(props: FieldProps) {
  const { schema, id, value, onChange } = props;
  const type = typeOf(schema);
  const describedBy = schema.description ? `${id}-help` : undefined;
  if (schema.enum) {
    return (
      <div class="field">
        <Label {...props} />
        <select id={id} aria-describedby={describedBy} value={value === undefined ? '' : JSON.stringify(value)} onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : JSON.parse(event.currentTarget.value))}>
          {!props.required || value === undefined ? <option value="">—</option> : null}
          {schema.enum.map((option) => (
            <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
              {String(option)}
            </option>
          ))}
        </select>
        <Help id={id} schema={schema} />
      </div>
    );
  }
  if (type === 'boolean') {
    return (
      <div class="field checkbox">
        <input id={id} type="checkbox" aria-describedby={describedBy} checked={value === true} onChange={(event) => onChange(event.currentTarget.checked)} />
        <Label {...props} />
        <Help id={id} schema={schema} />
      </div>
    );
  }
  if (type === 'number' || type === 'integer') {
    return (
      <div class="field">
        <Label {...props} />
        <input
          id={id}
          type="number"
          step={type === 'integer' ? 1 : 'any'}
          min={schema.minimum}
          max={schema.maximum}
          required={props.required}
          aria-describedby={describedBy}
          value={value === undefined ? '' : String(value)}
          onInput={(event) => onChange(event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value))}
        />
        <Help id={id} schema={schema} />
      </div>
    );
  }
  if (type === 'object' && schema.properties) {
    const object = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
    const required = new Set(schema.required ?? []);
    return (
      <fieldset class="nested">
        <legend>
          {schema.title ?? props.name}
          {props.required && <span class="required"> (required)</span>}
        </legend>
        <Help id={id} schema={schema} />
        {Object.entries(schema.properties).map(([name, property]) => (
          <SchemaField
            key={name}
            schema={property}
            name={name}
            id={`${id}.${name}`}
            value={object[name]}
            required={required.has(name)}
            onChange={(next) => {
              const copy = { ...object };
              if (next === undefined) delete copy[name];
              else copy[name] = next;
              onChange(copy);
            }}
          />
        ))}
      </fieldset>
    );
  }
  if (type === 'array' && schema.items) {
    const list = Array.isArray(value) ? value : [];
    return (
      <fieldset class="nested">
        <legend>
          {schema.title ?? props.name} (list)
          {props.required && <span class="required"> (required)</span>}
        </legend>
        <Help id={id} schema={schema} />
        {list.map((item, index) => (
          <div class="array-item" key={index}>
            <SchemaField schema={schema.items!} name={`${props.name} ${index + 1}`} id={`${id}.${index}`} value={item} required onChange={(next) => onChange(list.map((other, at) => (at === index ? next : other)))} />
            <button type="button" class="secondary small" aria-label={`Remove item ${index + 1} of ${props.name}`} onClick={() => onChange(list.filter((_other, at) => at !== index))}>
              Remove
            </button>
          </div>
        ))}
        <button type="button" class="secondary small" onClick={() => onChange([...list, initialValue(schema.items!)])}>
          Add to {props.name}
        </button>
      </fieldset>
    );
  }
  if (type === 'string') {
    return (
      <div class="field">
        <Label {...props} />
        <input id={id} type="text" required={props.required} aria-describedby={describedBy} value={value === undefined ? '' : String(value)} onInput={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)} />
        <Help id={id} schema={schema} />
      </div>
    );
  }
  // Anything the form cannot shape (anyOf, free objects): JSON typed by hand.
  return (
    <div class="field">
      <Label {...props} />
      <textarea
        id={id}
        rows={2}
        aria-describedby={describedBy}
        defaultValue={value === undefined ? '' : JSON.stringify(value)}
        onInput={(event) => {
          try {
            onChange(event.currentTarget.value.trim() === '' ? undefined : JSON.parse(event.currentTarget.value));
            event.currentTarget.setCustomValidity('');
          } catch {
            event.currentTarget.setCustomValidity('Not valid JSON');
          }
        }}
      />
      <p class="help">JSON</p>
      <Help id={id} schema={schema} />
    </div>
  );
}

/** A schema as a readable table: each property, its type, whether required, its description and limits. */
export function SchemaTable(props: { schema: JsonSchema; label: string }) {
  const rows: { path: string; schema: JsonSchema; required: boolean }[] = [];
  const walk = (schema: JsonSchema, prefix: string, depth: number) => {
    if (depth > 6) return;
    const required = new Set(schema.required ?? []);
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const path = prefix ? `${prefix}.${name}` : name;
      rows.push({ path, schema: property, required: required.has(name) });
      if (property.properties) walk(property, path, depth + 1);
      if (property.items?.properties) walk(property.items, `${path}[]`, depth + 1);
    }
  };
  walk(props.schema, '', 0);
  if (rows.length === 0) return <p class="muted">No parameters.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      <table>
        <caption class="visually-hidden">{props.label}</caption>
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.path}>
              <td>
                <code>{row.path}</code>
              </td>
              <td>
                {typeOf(row.schema) === 'array' ? `array of ${row.schema.items ? typeOf(row.schema.items) : 'any'}` : typeOf(row.schema)}
                {row.schema.format ? ` (${row.schema.format})` : ''}
              </td>
              <td>{row.required ? 'yes' : 'no'}</td>
              <td>
                {row.schema.description ?? ''}
                {row.schema.enum && <div class="muted">one of: {row.schema.enum.map((option) => JSON.stringify(option)).join(', ')}</div>}
                {row.schema.default !== undefined && <div class="muted">default: {JSON.stringify(row.schema.default)}</div>}
                {(row.schema.minimum !== undefined || row.schema.maximum !== undefined) && (
                  <div class="muted">
                    range: {row.schema.minimum ?? '−∞'} … {row.schema.maximum ?? '∞'}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
