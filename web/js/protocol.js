// The WebSocket protocol of docs/protocol.md: message types, and a socket that joins a game,
// keeps the version of the last change applied, and reconnects by itself with `since`.

export const ClientMsg = Object.freeze({
  JOIN: 'join', MOVE: 'move', RESIGN: 'resign', OFFER_DRAW: 'offer_draw',
  ACCEPT_DRAW: 'accept_draw', DECLINE_DRAW: 'decline_draw', REMATCH: 'rematch',
  UNDO: 'undo', LEAVE: 'leave', PING: 'ping',
});

export const ServerMsg = Object.freeze({
  SNAPSHOT: 'snapshot', MOVED: 'moved', UNDONE: 'undone', DRAW_OFFERED: 'draw_offered',
  DRAW_DECLINED: 'draw_declined', ENDED: 'ended', REMATCH_ASKED: 'rematch_asked',
  REMATCH_STARTED: 'rematch_started', LEFT: 'left', ERROR: 'error', PONG: 'pong',
  PRESENCE: 'presence', RATING_CHANGED: 'rating_changed',
});

/** The matchmaking socket, `/api/queue/ws`: one search at a time. */
export const QUEUE_PATH = '/api/queue/ws';
export const Queue = Object.freeze({ QUICK: 'quick', RANKED: 'ranked' });
export const QueueClientMsg = Object.freeze({ SEEK: 'seek', CANCEL: 'cancel', PING: 'ping' });
export const QueueServerMsg = Object.freeze({
  SEARCHING: 'searching', PAIRED: 'paired', CANCELLED: 'cancelled', ERROR: 'error', PONG: 'pong',
});

/** The rating pools, in the order a chooser lists them: the key a `seek` names, and the name
 *  players read. The first is the default. */
export const POOLS = Object.freeze([
  Object.freeze({ key: '30s', name: '30 s a move' }),
  Object.freeze({ key: 'blitz', name: 'Blitz 3+2' }),
  Object.freeze({ key: 'rapid', name: 'Rapid 10+5' }),
  Object.freeze({ key: 'daily', name: 'Daily, 2 days a move' }),
  Object.freeze({ key: 'xot', name: 'XOT 5+3' }),
]);

/** The WebSocket address of `path` on this page's host (wss: on https pages). */
export function socketUrl(path) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${path}`;
}

export const Side = Object.freeze({ BLACK: 'black', WHITE: 'white' });
export const Seat = Object.freeze({ BLACK: 'black', WHITE: 'white', BOTH: 'both', SPECTATOR: 'spectator' });
export const Mode = Object.freeze({
  COMPUTER: 'computer', SAME_DEVICE: 'same_device', FRIEND: 'friend', QUICK: 'quick', RANKED: 'ranked',
});
export const Status = Object.freeze({ LIVE: 'live', FINISHED: 'finished', ABORTED: 'aborted' });
export const Connection = Object.freeze({ CONNECTING: 'connecting', OPEN: 'open', LOST: 'lost' });

export const other = (side) => (side === Side.BLACK ? Side.WHITE : Side.BLACK);

/** One game's socket. `onMessage(msg)` gets each message in order, duplicates dropped;
 *  `onConnection(state)` gets Connection changes. */
export class GameSocket {
  constructor(gameId, { onMessage, onConnection }) {
    this.gameId = gameId;
    this.onMessage = onMessage;
    this.onConnection = onConnection || (() => {});
    this.version = null;
    this.socket = null;
    this.closed = false;
    this.retries = 0;
    this.timer = null;
  }

  connect() {
    this.closed = false;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(`${scheme}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`);
    this.socket = socket;
    this.onConnection(Connection.CONNECTING);
    socket.addEventListener('open', () => {
      this.retries = 0;
      this.onConnection(Connection.OPEN);
      this.join();
    });
    socket.addEventListener('message', (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.receive(msg);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.onConnection(Connection.LOST);
      const delay = Math.min(500 * 2 ** this.retries, 5000);
      this.retries += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  join() {
    const msg = { type: ClientMsg.JOIN, game_id: this.gameId };
    if (this.version !== null) msg.since = this.version;
    this.send(msg);
  }

  receive(msg) {
    if (msg.type === ServerMsg.SNAPSHOT) {
      this.version = msg.version;
      this.onMessage(msg);
      return;
    }
    if (typeof msg.version === 'number' && this.version !== null) {
      if (msg.version <= this.version) return;
      if (msg.version > this.version + 1) {
        this.join();
        return;
      }
    }
    if (typeof msg.version === 'number') this.version = msg.version;
    this.onMessage(msg);
  }

  /** Sends a message; false when the socket is not open (the caller says so). */
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
