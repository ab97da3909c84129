import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { LEGACY_INPUT_ROUNDS, settleLegacyInputRequired } from './legacy-input-required.js';

const done: CallToolResult = { content: [{ type: 'text', text: 'done' }] };
const stateOnly = (state: string): InputRequiredResult => ({ resultType: 'input_required', requestState: state });

describe('settleLegacyInputRequired (a sessionless 2025-era caller)', () => {
  const never = () => Promise.reject(new Error('must not re-run'));

  it('passes a finished result through', async () => {
    expect(await settleLegacyInputRequired(done, new AbortController().signal, never, 0)).toBe(done);
  });

  it('answers an error result naming the first input the upstream asks for', async () => {
    const asks: InputRequiredResult = { resultType: 'input_required', inputRequests: { confirm: { method: 'elicitation/create', params: {} } } as never, requestState: 's' };
    expect(await settleLegacyInputRequired(asks, new AbortController().signal, never, 0)).toEqual({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^Cannot request input 'confirm' \(elicitation\/create\): the client on this 2025-era connection did not declare/) }],
    });
  });

  it('re-runs a state-only round with the state until it finishes', async () => {
    const states: string[] = [];
    const rerun = async (state: string) => {
      states.push(state);
      return state === 's2' ? done : stateOnly('s2');
    };
    expect(await settleLegacyInputRequired(stateOnly('s1'), new AbortController().signal, rerun, 0)).toBe(done);
    expect(states).toEqual(['s1', 's2']);
  });

  it(`gives up after ${LEGACY_INPUT_ROUNDS} rounds`, async () => {
    let runs = 0;
    const result = await settleLegacyInputRequired(stateOnly('s'), new AbortController().signal, async () => (runs++, stateOnly('s')), 0);
    expect(runs).toBe(LEGACY_INPUT_ROUNDS);
    expect(result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining(`after ${LEGACY_INPUT_ROUNDS} rounds`) }] });
  });

  it('refuses a result that asks for nothing and carries no state', async () => {
    await expect(settleLegacyInputRequired({ resultType: 'input_required' }, new AbortController().signal, never, 0)).rejects.toMatchObject({ code: -32603 });
  });

  it('stops when the caller went away', async () => {
    const gone = new AbortController();
    gone.abort();
    expect(await settleLegacyInputRequired(stateOnly('s'), gone.signal, never, 0)).toMatchObject({ isError: true });
  });
});
