// The live socket (API.md § Live updates): one WebSocket for the whole client; every screen
// subscribes to the topics it shows and unsubscribes when it leaves. Nothing is polled.
//
// - Open: `POST /api/v1/live/ticket` (api.liveTicket), then `ws(s)://…/api/v1/live?ticket=…`.
// - Subscribe: `{"op": "subscribe", "topic", "since"?}` → `{"op": "subscribed", "topic", "position"}`,
//   then `{"op": "event", "topic", "position", "type", "at", "data"}` in the log's order.
// - Resume: the socket remembers, per topic, the last position it saw; after a lost connection
//   (a network break, the server's 4408 for a slow socket, a restart) it takes a new ticket and
//   subscribes again with `since` = that position: the server replays what was missed, with no
//   gap and no duplicate.
// - A ticket refused (4401) or the account restricted (4403) is not retried in a loop.

import * as api from "./api.js";

const RETRY_MS = [250, 500, 1000, 2000, 4000];

export class Live {
  constructor() {
    this.topics = new Map(); // topic → {position, handler}
    this.ws = null;
    this.opening = null;
    this.attempt = 0;
    this.stateListeners = new Set();
    this.state = "offline";
    this.reconnects = 0;
  }

  onState(fn) {
    this.stateListeners.add(fn);
    fn(this.state);
  }

  setState(state) {
    this.state = state;
    for (const fn of this.stateListeners) fn(state);
  }

  /** Follow `topic`; `handler(message)` gets its `subscribed` and `event` messages (and `error`). */
  subscribe(topic, handler) {
    const old = this.topics.get(topic);
    this.topics.set(topic, { position: old ? old.position : null, handler });
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.send({ op: "subscribe", topic });
    else this.connect();
    return () => this.unsubscribe(topic);
  }

  unsubscribe(topic) {
    if (!this.topics.delete(topic)) return;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.send({ op: "unsubscribe", topic });
  }

  send(message) {
    this.ws.send(JSON.stringify(message));
  }

  async connect() {
    if (this.opening || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return this.opening;
    this.opening = (async () => {
      this.setState("connecting");
      let ticket;
      try {
        ticket = await api.liveTicket(); // API.md § Live updates: a single-use ticket
      } catch (err) {
        this.opening = null;
        this.setState("offline");
        if (err.status !== 403) this.retryLater();
        return;
      }
      const url = ticket.url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/v1/live?ticket=${ticket.ticket}`;
      const ws = new WebSocket(url);
      this.ws = ws;
      ws.onopen = () => {
        this.opening = null;
        this.attempt = 0;
        this.setState("live");
        for (const [topic, entry] of this.topics) {
          // a resume: every event after the last position seen, then live (API.md: no gap, no duplicate)
          const message = { op: "subscribe", topic };
          if (entry.position !== null) message.since = entry.position;
          this.send(message);
        }
      };
      ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
      ws.onclose = (ev) => {
        if (this.ws === ws) this.ws = null;
        this.opening = null;
        this.setState("offline");
        if (ev.code === 4401 || ev.code === 4403) {
          if (ev.code === 4401 && this.attempt < 2) this.retryLater(); // a ticket that expired before use
          return;
        }
        if (this.topics.size) this.retryLater();
      };
    })();
    return this.opening;
  }

  retryLater() {
    const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.reconnects += 1;
    setTimeout(() => this.connect(), wait);
  }

  receive(msg) {
    const entry = msg.topic ? this.topics.get(msg.topic) : null;
    if (msg.op === "subscribed" && entry) {
      if (entry.position === null) entry.position = msg.position;
      entry.handler(msg);
    } else if (msg.op === "event" && entry) {
      if (entry.position !== null && msg.position <= entry.position) return; // already seen
      entry.position = msg.position;
      entry.handler(msg);
    } else if (msg.op === "error") {
      if (entry) entry.handler(msg);
      else console.warn("live:", msg);
    }
  }

  /** Close the socket as a lost network would (for trying the resume by hand, and the tests). */
  drop() {
    if (this.ws) this.ws.close(4000, "dropped by the client");
  }
}

export const live = new Live();
