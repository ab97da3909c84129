import { ProtocolErrorCode, UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { aRefusedRecord } from '../../executions/testing/builders.js';
import { CONNECT_URL_META_KEY, MISSING_SECRETS_META_KEY, toCallToolResult } from './call-result.js';

const CONNECT_URL = 'https://toolplane.example/api/v1/connect/tkt_abc';

const consent = aRefusedRecord({
  code: 'UPSTREAM_CONSENT_REQUIRED',
  message: 'crm needs your consent: connect your account to it first.',
  retryable: false,
  details: [{ path: 'connectUrl', message: CONNECT_URL }],
});

describe('toCallToolResult of a call refused for want of the caller’s credential', () => {
  it('answers a caller that takes URL elicitation the -32042 error whose elicitation opens the connect URL', () => {
    let thrown: unknown;
    try {
      toCallToolResult(consent, 'crm__find', { urlElicitation: true });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UrlElicitationRequiredError);
    const error = thrown as UrlElicitationRequiredError;
    expect(error.code).toBe(ProtocolErrorCode.UrlElicitationRequired);
    expect(error.code).toBe(-32042);
    expect(error.elicitations).toEqual([{ mode: 'url', elicitationId: consent.id, url: CONNECT_URL, message: consent.error!.message }]);
  });

  it('answers any other caller an error result saying what to open, the URL in _meta', () => {
    const result = toCallToolResult(consent, 'crm__find');
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: `[UPSTREAM_CONSENT_REQUIRED] ${consent.error!.message}\nOpen ${CONNECT_URL} in a browser to connect, then call the tool again.` }],
      _meta: { [CONNECT_URL_META_KEY]: CONNECT_URL },
    });
    // With the execution's own meta when asked for it.
    expect(toCallToolResult(consent, 'crm__find', { executionMeta: true })._meta).toMatchObject({ [CONNECT_URL_META_KEY]: CONNECT_URL, 'dev.toolplane/execution': { id: consent.id, code: 'UPSTREAM_CONSENT_REQUIRED' } });
  });

  it('names the missing values of the caller’s own and how to set them', () => {
    const record = aRefusedRecord({
      code: 'UPSTREAM_CREDENTIAL_REQUIRED',
      message: 'github needs a value of your own: GITHUB_TOKEN.',
      retryable: false,
      details: [{ path: 'missing', message: 'GITHUB_TOKEN' }],
    });
    for (const urlElicitation of [false, true]) {
      const result = toCallToolResult(record, 'github__search', { urlElicitation });
      expect(result).toMatchObject({ isError: true, _meta: { [MISSING_SECRETS_META_KEY]: ['GITHUB_TOKEN'] } });
      const text = (result as { content: { text: string }[] }).content[0]!.text;
      expect(text).toContain('[UPSTREAM_CREDENTIAL_REQUIRED] github needs a value of your own');
      expect(text).toContain('${user-secret:GITHUB_TOKEN}');
      expect(text).toContain('PUT /api/v1/me/secrets/GITHUB_TOKEN');
    }
  });

  it('passes on a credential required without names (token exchange for an API-key caller) as its message', () => {
    const record = aRefusedRecord({ code: 'UPSTREAM_CREDENTIAL_REQUIRED', message: 'crm is called with each caller’s own identity (token exchange), which needs an OIDC sign-in.', retryable: false });
    expect(toCallToolResult(record, 'crm__find', { urlElicitation: true })).toEqual({ isError: true, content: [{ type: 'text', text: `[UPSTREAM_CREDENTIAL_REQUIRED] ${record.error!.message}` }] });
  });
});
