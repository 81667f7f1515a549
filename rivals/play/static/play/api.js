// Every REST call of the client, in one place. Each function names the section of API.md it
// follows ("API.md § Accounts" …); the OpenAPI schema served at /api/schema/ has the shapes.
//
// Conventions applied here once for all calls (API.md § Conventions):
// - `Authorization: Token <key>` from the guest sign-in; the guest's device id is kept in
//   localStorage, so the same browser is the same account (API.md § Accounts: same device → same
//   account);
// - a 4xx answer is `{"error": {"code", "message", "details"}}`: thrown as an ApiError whose
//   message is the API's `message` (the screens show it as it is);
// - every state-changing POST carries an `Idempotency-Key`; a POST that failed on the network is
//   retried with the same key (the server answers the first response and changes nothing twice);
// - game intents carry `seq` and ask for the compact answer (`Prefer: return=minimal`).

// `/play/?player=2` (any short name) is another guest of this browser, with keys of its own: so a
// second tab can play a Quick Match against the first (one browser's tabs share localStorage)
export const SLOT = (new URLSearchParams(location.search).get("player") || "").replace(/[^\w-]/g, "").slice(0, 16);
const SUFFIX = SLOT ? `.${SLOT}` : "";
const DEVICE_KEY = `rivals.play.device_id${SUFFIX}`;
const TOKEN_KEY = `rivals.play.token${SUFFIX}`;
const ACCOUNT_KEY = `rivals.play.account_id${SUFFIX}`;
const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || (status ? `HTTP ${status}` : "the server cannot be reached"));
    this.status = status;
    this.code = error.code || (status ? `http_${status}` : "network");
    this.details = error.details || {};
  }
}

/** 128 random bits as a UUID (crypto.getRandomValues works on plain http too, randomUUID not). */
export function randomId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const session = {
  token: localStorage.getItem(TOKEN_KEY),
  accountId: Number(localStorage.getItem(ACCOUNT_KEY)) || null,
};

export function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = randomId(); // docs/security.md: a guest's device id is its sign-in secret (128 random bits)
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/** The server's clock minus this browser's (ms), from the `Date` header of the last answer. */
export let clockSkewMs = 0;

async function call(method, path, { body, headers = {}, auth = true, idempotent = false, retried = false } = {}) {
  const h = { Accept: "application/json", ...headers };
  if (body !== undefined) h["Content-Type"] = "application/json";
  if (auth && session.token) h.Authorization = `Token ${session.token}`;
  if (idempotent && !h["Idempotency-Key"]) h["Idempotency-Key"] = randomId(); // API.md § Conventions: Idempotency
  let res;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(BASE + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
      break;
    } catch (err) {
      // a lost answer: a GET or an idempotent POST may be sent again (same Idempotency-Key)
      if (attempt >= 2 || !(method === "GET" || idempotent)) throw new ApiError(0, null);
      await sleep(400 * (attempt + 1));
    }
  }
  const date = res.headers.get("Date");
  if (date) {
    const skew = Date.parse(date) - Date.now();
    // the header counts whole seconds and arrives late under load: only a clock off by more than
    // a few seconds is corrected
    clockSkewMs = Math.abs(skew) < 5000 ? 0 : skew;
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (res.status === 401 && auth && !retried) {
    // a token the server no longer knows (revoked, a fresh database): sign in again, once
    await signIn({ fresh: true });
    return call(method, path, { body, headers, auth, idempotent, retried: true });
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const get = (path, opts) => call("GET", path, opts);
const post = (path, body, opts = {}) => call("POST", path, { body, idempotent: true, ...opts });

// --- API.md § Accounts ---------------------------------------------------------------------------

/** `POST /api/v1/auth/guest {"device_id"}` → `{"account_id", "token", "created"}`; the token is
 * kept for the next visit (a page load then needs no sign-in request). */
export async function signIn({ fresh = false } = {}) {
  if (session.token && !fresh) return { account_id: session.accountId, token: session.token, created: false };
  const data = await call("POST", "/auth/guest", { body: { device_id: deviceId() }, auth: false, idempotent: false });
  session.token = data.token;
  session.accountId = data.account_id;
  localStorage.setItem(TOKEN_KEY, data.token);
  localStorage.setItem(ACCOUNT_KEY, String(data.account_id));
  return data;
}

/** `GET /api/v1/account`: display name, jokers, points {amr, weekly, daily}, daily_bonus state. */
export const account = () => get("/account");

/** `PATCH /api/v1/account {"display_name"}`. */
export const accountRename = (displayName) =>
  call("PATCH", "/account", { body: { display_name: displayName }, idempotent: true });

// --- API.md § Boards and games ---------------------------------------------------------------------

/** `GET /api/v1/levels/{n}` → `{"level", "code", "layout", "hard", "difficulty", "unlocked"}`. */
export const level = (n) => get(`/levels/${n}`);

/** `GET /api/v1/levels/{n}/leaderboard` → the 10 best times, ties share a place. */
export const levelLeaderboard = (n) => get(`/levels/${n}/leaderboard`);

/** `GET /api/v1/records?mode=` → own 10 best winning times with layout and code (T-13). */
export const records = (mode) => get(`/records?mode=${encodeURIComponent(mode)}`);

/** `POST /api/v1/games` `{"mode": "single", "level"}` or `{"mode": "classic", "code"?}` → the game. */
export const gameCreate = (body) => post("/games", body);

/** `GET /api/v1/games/{id}` → the whole board (tiles with x, y, z, face, free) and its figures. */
export const game = (id) => get(`/games/${id}`);

/** `POST /api/v1/games/{id}/intents {"seq", "type", ...}` with `Prefer: return=minimal`: the
 * answer holds what changed (`tiles`, `removed`, `seq`, `score`, `status`, `events`, `awarded`). */
export const gameIntent = (id, intent) =>
  post(`/games/${id}/intents`, intent, { headers: { Prefer: "return=minimal" } });

// --- API.md § Matches and rounds ---------------------------------------------------------------------

/** `POST /api/v1/queue {"mode": "quick" | "arena"}` → ticket `{"id", "status", "match", "round"}`
 * (`round`: the round of the match to play now, once matched). */
export const queueJoin = (mode) => post("/queue", { mode });

/** `GET /api/v1/queue/{ticket}`: the ticket once more (read once after subscribing, never polled). */
export const queueTicket = (ticketId) => get(`/queue/${ticketId}`);

/** `DELETE /api/v1/queue/{ticket}`: leave the queue. */
export const queueLeave = (ticketId) => call("DELETE", `/queue/${ticketId}`);

/** `GET /api/v1/matches/{id}` → mode, players, rounds (with the deal's commitment, R-40), standings, prizes. */
export const match = (id) => get(`/matches/${id}`);

/** `GET /api/v1/rounds/{id}` → own board as a game, `opponents`, `ends_at`, `status`, `result`. */
export const round = (id) => get(`/rounds/${id}`);

/** `POST /api/v1/rounds/{id}/intents` (as game intents; `Prefer: return=minimal`). */
export const roundIntent = (id, intent) =>
  post(`/rounds/${id}/intents`, intent, { headers: { Prefer: "return=minimal" } });

/** `GET /api/v1/ratings/{account_id}` → `{"player", "mu", "sigma", "ordinal", "provisional", "rated"}`. */
export const rating = (accountId) => get(`/ratings/${accountId}`);

/** `GET /api/v1/ratings?limit=&offset=` → the rating board by ordinal. */
export const ratings = (limit = 10) => get(`/ratings?limit=${limit}`);

// --- API.md § Daily bonus and rankings ----------------------------------------------------------------

/** `POST /api/v1/daily-bonus/claim` → `{"day", "points", "jokers"}`; a second claim the same day is 409. */
export const dailyBonusClaim = () => post("/daily-bonus/claim", undefined);

/** `POST /api/v1/daily-bonus/double` → `{"points"}`, once per claimed day. */
export const dailyBonusDouble = () => post("/daily-bonus/double", undefined);

/** `GET /api/v1/rankings/{amr|weekly|daily}` → `{"count", "results": [{"place", "player", "points"}]}`. */
export const ranking = (board, limit = 10) => get(`/rankings/${board}?limit=${limit}`);

/** `GET /api/v1/rankings/{board}/me` → `{"place", "points", "total_players"}`. */
export const rankingMe = (board) => get(`/rankings/${board}/me`);

// --- API.md § Sichuan table -----------------------------------------------------------------------------

/** `POST /api/v1/sichuan {"seed"?}` → a new table: you and three AIs. */
export const sichuanCreate = (seed) => post("/sichuan", seed === undefined ? {} : { seed });

/** `GET /api/v1/sichuan/{id}` → own hand, melds, discards, wall count, missing suits, turn, legal actions. */
export const sichuan = (id) => get(`/sichuan/${id}`);

/** `POST /api/v1/sichuan/{id}/intents {"seq", "type", ...}` → `{"accepted", "events", "table"}`. */
export const sichuanIntent = (id, intent) => post(`/sichuan/${id}/intents`, intent);

// --- API.md § Live updates ---------------------------------------------------------------------------------

/** `POST /api/v1/live/ticket` → `{"ticket", "expires_at", "url"}`: single use, valid 30 s. */
export const liveTicket = () => call("POST", "/live/ticket");
