import { startHarness, type Harness } from '../helpers/toolplane-harness.js';

describe('operations endpoints', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers liveness and readiness without credentials', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const response = await fetch(h.url + path);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', error: {} });
    }
  });

  it('serves the Swagger UI and the OpenAPI document', async () => {
    const ui = await fetch(`${h.url}/docs`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('swagger');
    const json = await fetch(`${h.url}/docs/openapi.json`);
    const doc = (await json.json()) as any;
    expect(doc.info.title).toBe('Toolplane');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/sources', '/api/v1/tools']));
  });
});
