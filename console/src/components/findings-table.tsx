import type { Schemas } from '../types.js';
import { Visible } from './hostile-text.js';

type Finding = Schemas['DefinitionFindingDto'];

const SEVERITY_TONE: Record<Finding['severity'], string> = { high: 'bad', medium: 'warn', low: 'muted' };

/** A definition's scan findings: rule, severity, where, and the excerpt as found. */
export function FindingsTable(props: { findings: readonly Finding[]; label: string }) {
  if (props.findings.length === 0) return <p class="muted">The definition scan found nothing.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      <table>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Severity</th>
            <th scope="col">Path</th>
            <th scope="col">Excerpt</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {props.findings.map((finding, index) => (
            <tr key={index}>
              <td>
                <code>{finding.rule}</code>
              </td>
              <td>
                <span class={`badge badge-${SEVERITY_TONE[finding.severity]}`}>{finding.severity}</span>
              </td>
              <td>
                <code>
                  <Visible text={finding.path} />
                </code>
              </td>
              <td>
                <mark class={`finding finding-${finding.severity}`}>
                  <Visible text={finding.excerpt} />
                </mark>
              </td>
              <td>
                <Visible text={finding.message} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

