import pg from 'pg';

test('the test database is a real PostgreSQL', async () => {
  const client = new pg.Client({ connectionString: process.env.TOOLPLANE_TEST_DATABASE_URL });
  await client.connect();
  const { rows } = await client.query('SHOW server_version');
  await client.end();
  expect(Number.parseInt(rows[0].server_version, 10)).toBeGreaterThanOrEqual(15);
});
