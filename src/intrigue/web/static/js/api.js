// @ts-check
/**
 * The only module that talks to the server.  Each call resolves to a view
 * model (or the JSON the route returns) or throws an ApiError carrying the
 * server's {"error", "detail"}.
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} error
   * @param {string} detail
   */
  constructor(status, error, detail) {
    super(detail);
    this.status = status;
    this.error = error;
  }
}

/**
 * @param {"GET" | "POST"} method
 * @param {string} path
 * @param {object} [body]
 * @returns {Promise<any>}
 */
async function call(method, path, body) {
  /** @type {RequestInit} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, "Content-Type": "application/json" };
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "NetworkError", "cannot reach the card table server: is it still running?");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // fall through: a non-JSON answer is reported below
  }
  if (!res.ok || data === null) {
    throw new ApiError(res.status, data?.error ?? "HTTPError", data?.detail ?? `the server answered ${res.status}`);
  }
  return data;
}

const game = (/** @type {string} */ id) => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  /** @param {string} gameId @param {string | null} deal @param {string} mode */
  newGame: (gameId, deal, mode) => call("POST", "/api/games", deal ? { game: gameId, deal, mode } : { game: gameId, mode }),
  current: () => call("GET", "/api/players/me/current"),
  /** @param {string} id */
  get: (id) => call("GET", game(id)),
  /** @param {string} id @param {string} move */
  move: (id, move) => call("POST", `${game(id)}/moves`, { move }),
  /** @param {string} id */
  undo: (id) => call("POST", `${game(id)}/undo`),
  /** @param {string} id */
  redo: (id) => call("POST", `${game(id)}/redo`),
  /** @param {string} id */
  restart: (id) => call("POST", `${game(id)}/restart`),
  /** @param {string} id */
  hint: (id) => call("POST", `${game(id)}/hint`),
  /** @param {string} id */
  winnable: (id) => call("POST", `${game(id)}/winnable`),
  /** @param {string} id */
  autofinish: (id) => call("POST", `${game(id)}/autofinish`),
  /** @param {string} id */
  rewind: (id) => call("POST", `${game(id)}/rewind`),
  stats: () => call("GET", "/api/stats"),
  variants: () => call("GET", "/api/variants"),
};
