import { rejection } from '../../../../shared/testing/rejection.js';
import { anExecution, anExecutionId } from '../../testing/builders.js';
import { InMemoryExecutionReads } from '../../testing/in-memory-execution-reads.js';
import { GetExecutionHandler } from './get-execution.handler.js';
import { GetExecutionQuery } from './get-execution.query.js';

describe('GetExecutionHandler', () => {
  const execution = anExecution({ status: 'tool_error', isError: true, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
  const reads = new InMemoryExecutionReads([anExecution(), execution]);
  const get = (id: string) => new GetExecutionHandler(reads).execute(new GetExecutionQuery(id));

  beforeEach(() => reads.calls.splice(0));

  it('answers the execution as recorded', async () => {
    expect(await get(execution.id)).toEqual(execution);
  });

  it('answers EXECUTION_NOT_FOUND for an id no execution has', async () => {
    const error = await rejection(get(anExecutionId(999_999)));
    expect(error).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND', message: `No execution with id "${anExecutionId(999_999)}".` });
    expect(reads.calls).toEqual(['get']);
  });

  it('answers EXECUTION_NOT_FOUND for what is not a uuid without reading, naming at most 100 characters of it', async () => {
    const error = await rejection(get(`files${'x'.repeat(200)}`));
    expect(error).toMatchObject({ kind: 'not_found', code: 'EXECUTION_NOT_FOUND', message: `No execution with id "files${'x'.repeat(95)}".` });
    expect(reads.calls).toEqual([]);
  });
});
