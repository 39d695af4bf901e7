// One live table over a WebSocket (docs/protocol.md). Reconnects by itself with backoff and
// sends hello again: the welcome is the full state, so there is nothing to replay.
import { newId } from "./common.js";

const PROTOCOL = 2; // the live-play protocol's version this page speaks
const FATAL = new Set(["signed_in", "hello", "table", "table_unavailable"]);

export class TableSocket {
  /** onMessage(msg) for every message; onStatus("connecting" | "open" | "down" | "closed", detail). */
  constructor(tableId, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.fatal = null;
    this.version = -1;
    this.pending = new Map(); // action id → {resolve, reject}
    this.reconnects = 0;
    window.addEventListener("online", () => this.kick());
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.kick(); });
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${this.tableId}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL }));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "welcome") { this.attempt = 0; this.version = msg.version; this.onStatus("open"); }
      // An action that changed the table is answered by the state it made, which carries its id
      // as `ack`; one that changed nothing (or was sent before) by an `ack`; a refusal by an `error`.
      if (msg.type === "state" && msg.ack) this.answer(msg.ack, msg);
      if (msg.type === "state") {
        if (msg.version < this.version) return; // an older snapshot: keep the newest
        this.version = msg.version;
      }
      if ((msg.type === "ack" || msg.type === "error") && msg.id) this.answer(msg.id, msg);
      if (msg.type === "error" && !msg.id && FATAL.has(msg.rule)) this.fatal = msg;
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      for (const p of this.pending.values()) p.reject({ rule: "connection", message: "connection lost: try again" });
      this.pending.clear();
      if (this.stopped) { this.onStatus("closed"); return; }
      if (this.fatal) { this.onStatus("closed", this.fatal); return; }
      const delay = Math.min(5000, 250 * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
      this.attempt += 1;
      this.reconnects += 1;
      this.onStatus("down", { retryIn: delay });
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  /** Settle the action `id` with `answer`: an error rejects it, a state or an ack resolves it. */
  answer(id, answer) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    answer.type === "error" ? p.reject(answer) : p.resolve(answer);
  }

  /** Reconnect now if we are waiting to (the network came back, the tab was shown again). */
  kick() {
    if (this.stopped || this.fatal || !this.ws || this.ws.readyState !== WebSocket.CLOSED) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /** Send an action; resolves with its answer (the state it made, or an ack), rejects with the
   * error (rule, message). */
  act(action, fields = {}) {
    const id = newId();
    const msg = { type: "action", id, action, ...fields };
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject({ rule: "connection", message: "not connected: reconnecting…" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(msg));
    });
  }

  resync() { if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "resync" })); }

  /** Drop the connection as a network failure would (a test hook; it reconnects by itself). */
  drop() { if (this.ws) this.ws.close(); }

  close() { this.stopped = true; clearTimeout(this.timer); if (this.ws) this.ws.close(); }
}
