// The server's JSON API: one call (`api`), its error, and the server's meta (`/api/meta`).

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError("the server does not answer: is `arena serve` still running?", 0);
  }
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
  return data;
}

// The server's registry (`/api/meta`: families, variants, agent kinds, the operator's agents),
// asked once at the start (main.js); null until then.
export let meta = null;
export async function loadMeta() {
  meta = await api("GET", "/api/meta");
  return meta;
}
