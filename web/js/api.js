// Fetch helpers for Outflank's HTTP API. Every error becomes an ApiError carrying the
// server's `code` and its sentence for people.

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;
    /** Seconds to wait before asking again (a 503's Retry-After), or null. */
    this.retryAfter = retryAfter;
  }
}

async function request(method, path, body) {
  const options = { method, headers: {}, credentials: 'same-origin' };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection and try again.');
  }
  const type = response.headers.get('content-type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const raw = (data && data.error) || {};
    const error = typeof raw === 'string' ? { code: raw } : raw;
    const retry = Number.parseInt(response.headers.get('retry-after') || '', 10);
    throw new ApiError(response.status, error.code || 'error', error.message || `The server answered ${response.status}.`,
      Number.isFinite(retry) ? retry : null);
  }
  return data;
}

/** Who the session is: `{session: 'active', id, nickname, account}`, or, without a valid
 *  session, `{session: 'none' | 'expired' | 'revoked', id: null, nickname: null, account: null}`
 *  (a 200 either way, so that no page logs an error for a visitor without a session). */
export const me = () => request('GET', '/api/me');
export const startSession = (nickname) => request('POST', '/api/session', { nickname });
/** A game against the computer; `xot`: from a balanced eight-move opening drawn at random. */
/** A game against the computer; `control` (e.g. `3+2`) times it, none or '' leaves it untimed. */
export function newComputerGame(level, color, { xot = false, control = '' } = {}) {
  const body = { mode: 'computer', level, color, xot };
  if (control) body.control = control;
  return request('POST', '/api/games', body);
}
export const newSameDeviceGame = () => request('POST', '/api/games', { mode: 'same_device' });
export const computerLevels = () => request('GET', '/api/computer/levels');
export const importGame = (record, level) => request('POST', '/api/games/import', { record, level });
export const game = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);
export const record = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/record`);
/** The engine's review of a finished game: `{status: 'none'|'queued'|'running'|'done'|'failed', …}`. */
export const analysis = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/analysis`);
/** Asks for the review of a finished game (202, the same body as `analysis`). */
export const requestAnalysis = (id) => request('POST', `/api/games/${encodeURIComponent(id)}/analysis`);
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
export const ggfUrl = (id) => `/api/games/${encodeURIComponent(id)}/ggf`;
/** The analysis board's rules for a line (`{start?, moves?}` or `{record}`): the normalised
 *  line, its positions, the side to move and its legal moves. Instant. */
export const analysisPosition = (body) => request('POST', '/api/analysis/position', body);
/** The same answer with the engine's value of every legal move (`values`); may take seconds,
 *  409 `superseded` when a newer request replaced it, 503 `analysis_busy` with Retry-After. */
export const analysisValues = (body) => request('POST', '/api/analysis/values', body);
/** The session's player's puzzles from their games: `{puzzles, counts: {total, solved}}`. */
export const puzzles = () => request('GET', '/api/puzzles');
export const puzzle = (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}`);
/** Judges `move` as the answer to puzzle `id`: `{correct, move, value, best_value, loss, exact, puzzle}`. */
export const answerPuzzle = (id, move) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/attempt`, { move });
/** Gives up: `{solution, values}`. */
export const puzzleSolution = (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}/solution`);
/** A friend room; its games timed by `control` (`3+2`, `2d`), or by the default without one,
 *  and from XOT openings with `xot`. */
export function newRoom(control, xot = false) {
  const body = control ? { control } : {};
  if (xot) body.xot = true;
  return request('POST', '/api/rooms', body);
}
export const room = (code) => request('GET', `/api/rooms/${encodeURIComponent(code)}`);
export const stats = () => request('GET', '/api/stats');
export const lobby = () => request('GET', '/api/lobby');
/** The session player's live games against people, theirs to move first. */
export const myGames = () => request('GET', '/api/me/games');
export const joinRoom = (code) => request('POST', `/api/rooms/${encodeURIComponent(code)}/join`);
export const auth = () => request('GET', '/api/auth');
export const setAccountName = (name) => request('POST', '/api/account/name', { name });
export const signOut = () => request('DELETE', '/api/session');
export const deleteAccount = () => request('DELETE', '/api/account');
/** The accounts whose public name starts with `q`. */
export const findPlayers = (q) => request('GET', `/api/players?${new URLSearchParams({ q })}`);

/** A page of a pool's leaderboard (`pool` left out: the default pool). */
export function leaderboard(page, pool) {
  const query = new URLSearchParams({ page: String(page) });
  if (pool) query.set('pool', pool);
  return request('GET', `/api/leaderboard?${query}`);
}
export const player = (name) => request('GET', `/api/players/${encodeURIComponent(name)}`);

// Trust and safety: reports, blocks and what moderators did about the account.
/** Whom a report or block is about: `{name}` (a public name) or `{game, color}` (a seat). */
export const report = (target, reason, details) => request('POST', '/api/reports', { ...target, reason, details });
/** `{reports: [{id, name, game, reason, status: 'received'|'acted_on'|'closed', created_at}]}`. */
export const myReports = () => request('GET', '/api/reports/mine');
/** `{blocks: [{id, name, since}]}`. */
export const blocks = () => request('GET', '/api/blocks');
export const block = (target) => request('POST', '/api/blocks', target);
/** Lifts a block, by public name or by the player id in the list. */
export const unblock = (key) => request('DELETE', `/api/blocks/${encodeURIComponent(key)}`);
/** `{sanctions: [{kind, at, lifted_at}], refunds: [{game, pool, points, at}]}`. */
export const notices = () => request('GET', '/api/account/notices');

// Challenges between accounts and the account's notifications (also pushed over /api/me/ws).
/** Challenges the player called `to`: `control` (`3+2`, `2d`; left out: the site's default),
 *  `colour` (`random`, `black` or `white`, the challenger's), `rated`, `xot`. Answers the
 *  Challenge (201), `declined` at once when one of the two blocked the other. */
export function challenge(to, { control = '', colour = 'random', rated = false, xot = false } = {}) {
  const body = { to, colour, rated, xot };
  if (control) body.control = control;
  return request('POST', '/api/challenges', body);
}
/** The open challenges: `{incoming: [Challenge], outgoing: [Challenge]}`. */
export const challenges = () => request('GET', '/api/challenges');
/** The challenged player takes challenge `id`: the Challenge, `accepted`, with its `game_id`. */
export const acceptChallenge = (id) => request('POST', `/api/challenges/${encodeURIComponent(id)}/accept`);
export const declineChallenge = (id) => request('POST', `/api/challenges/${encodeURIComponent(id)}/decline`);
/** Its sender withdraws challenge `id`. */
export const cancelChallenge = (id) => request('POST', `/api/challenges/${encodeURIComponent(id)}/cancel`);
/** The latest notifications, newest first: `{unread, notifications: [{id, kind, created_at, read, data}]}`. */
export const notifications = () => request('GET', '/api/notifications');
/** Marks the notifications `ids` read (all of them without): `{unread}`. */
export const markNotificationsRead = (ids = null) =>
  request('POST', '/api/notifications/read', ids ? { ids } : { all: true });

// Web Push: the notifications of the kinds a browser chose, pushed to it while no page is open.
/** `{public_key, kinds, subscriptions: [{endpoint, kinds}]}`: the key to subscribe with
 *  (base64url), the kinds there are and this account's subscriptions. */
export const pushSettings = () => request('GET', '/api/push');
/** Keeps this browser's subscription (`PushSubscription.toJSON()`) with the `kinds` it wants:
 *  `{endpoint, kinds}` (201 new, 200 updated). */
export const savePushSubscription = (subscription, kinds) =>
  request('POST', '/api/push/subscriptions', { ...subscription, kinds });
/** Forgets the subscription at `endpoint` (204; 404 `subscription_not_found` when none). */
export const deletePushSubscription = (endpoint) =>
  request('DELETE', `/api/push/subscriptions?${new URLSearchParams({ endpoint })}`);

// Following players: their games started are notified (`followed_started`).
/** Follows the player called `name`: `{name, following: true}` (201, or 200 when already). */
export const follow = (name) => request('POST', '/api/follows', { name });
/** Stops following `name` (204; 404 `player_not_found` when not followed). */
export const unfollow = (name) => request('DELETE', `/api/follows/${encodeURIComponent(name)}`);
/** Whom the player follows: `{following: [{name, since, online, playing: game id | null,
 *  recent: [{game_id, result, opponent, finished_at}]}]}`, the recent results newest first. */
export const following = () => request('GET', '/api/follows');

// The moderator's desk: every route answers 403 `not_moderator` to anyone else.
export const modMe = () => request('GET', '/api/mod/me');
export const modQueue = () => request('GET', '/api/mod/queue');
export const modPlayer = (id) => request('GET', `/api/mod/players/${encodeURIComponent(id)}`);
export const sanction = (player, kind, reason) => request('POST', '/api/mod/sanctions', { player, kind, reason });
export const liftSanction = (id, reason) => request('POST', `/api/mod/sanctions/${encodeURIComponent(id)}/lift`, { reason });
export const dismissReports = (player, reason) => request('POST', '/api/mod/reports/dismiss', { player, reason });
/** A page of the log, newest first: the entries before `before` (ms), or the newest. */
export const modLog = (before = null) => request('GET', before === null ? '/api/mod/log' : `/api/mod/log?before=${encodeURIComponent(before)}`);

const NICKNAME_KEY = 'outflank.nickname';

export function savedNickname() {
  try { return localStorage.getItem(NICKNAME_KEY) || ''; } catch { return ''; }
}

/** Starts (or renames) this browser's session under `nickname`, kept in localStorage too.
 *  The server keeps the player's id when the session already exists. */
export async function ensureSession(nickname) {
  const name = nickname.trim();
  try { localStorage.setItem(NICKNAME_KEY, name); } catch { /* private mode */ }
  try {
    return await startSession(name);
  } catch (error) {
    // Signed in with an account: that session stays, under the account's name.
    if (error.code === 'signed_in') return me();
    throw error;
  }
}
