// One request to Toolplane's REST API as the admin: status, parsed JSON (when it is JSON) and text.

/* global fetch, AbortSignal */

export async function api(baseUrl, key, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** The same, failing unless the answer is a 2xx; answers its JSON. */
export async function apiOk(baseUrl, key, method, path, body) {
  const { status, json, text } = await api(baseUrl, key, method, path, body);
  if (status >= 300) throw new Error(`${method} ${path} answered ${status}: ${text.slice(0, 500)}`);
  return json;
}
