import type { Problem } from '../types.js';

/** The problems at `path` or below it (`rules[0]` holds `rules[0].message`). */
export const under = (problems: Problem[], path: string) => problems.filter((problem) => problem.path === path || problem.path.startsWith(`${path}.`) || problem.path.startsWith(`${path}[`));

/** The problems of one field, beside it (its id for aria-describedby); paths shown when they say more than the field. */
export function Problems(props: { id: string; problems: Problem[] }) {
  if (!props.problems.length) return null;
  return (
    <ul class="problems" id={props.id}>
      {props.problems.map((problem, index) => (
        <li key={index}>
          {props.problems.length > 1 || problem.path.includes('[') ? <code>{problem.path}</code> : null} {problem.message}
        </li>
      ))}
    </ul>
  );
}
