// The web remote's client: the JSON API, the room's websocket and the
// page's event log, and the game's own page module (games/ID.js), loaded by
// the game's id. Everything shown comes from the server's state for this
// token: the page never computes or stores another seat's secrets.
import { toast, noteServerTime } from "/static/ui.js";

export async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { status: 0, data: { error: "cannot reach the server (is the laptop still on the wifi?)" } };
  }
  let data = {};
  try { data = await res.json(); } catch (e) { /* empty body */ }
  return { status: res.status, data };
}

export function roomFromPath() {
  const parts = location.pathname.split("/").filter(Boolean);
  return (parts[1] || "").toUpperCase();
}

// connect keeps a websocket to the room open, reconnecting with backoff and
// asking for what was missed (since). Moves not yet acknowledged are sent
// again with the same id after a reconnect, so none is applied twice.
// Without a token the socket watches the public table (a TV).
export function connect(room, token, { onState, onOnline, onRevoked }) {
  let ws, seq = 0, backoff = 500, closed = false, nextId = 1;
  // A state leaves out the room's part when it has not changed since this
  // socket's last state: the last one received stands for it.
  let lastRoom = null;
  const pending = new Map(); // id -> {frame, resolve}
  // How many moves await the server's answer, for tests and scripts.
  const count = () => { document.body.dataset.pending = String(pending.size); };
  const prefix = Math.random().toString(36).slice(2, 8);
  const who = token ? `token=${encodeURIComponent(token)}` : "watch=1";
  function open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${room}?${who}&since=${seq}`);
    ws.onopen = () => {
      backoff = 500;
      onOnline && onOnline(true);
      for (const p of pending.values()) ws.send(JSON.stringify(p.frame));
    };
    ws.onmessage = (m) => {
      let f;
      try { f = JSON.parse(m.data); } catch (e) { return; }
      if (f.type === "state") {
        if (f.room) lastRoom = f.room;
        else if (lastRoom) f.room = lastRoom;
        else return; // cannot happen: a socket's first state has the room
        seq = f.seq; noteServerTime(f.now); onState(f);
      }
      else if (f.type === "ack" || f.type === "error") {
        const p = pending.get(f.id);
        pending.delete(f.id);
        count();
        if (f.type === "error") toast(f.error);
        p && p.resolve(f);
      }
    };
    ws.onclose = (ev) => {
      onOnline && onOnline(false);
      if (ev.code === 4001) { closed = true; onRevoked && onRevoked(); return; }
      if (closed) return;
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  }
  open();
  return {
    send(move, atSeq) {
      const id = `${prefix}-${nextId++}`;
      const frame = { type: "move", move, seq: atSeq, id };
      return new Promise((resolve) => {
        pending.set(id, { frame, resolve });
        count();
        if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
      });
    },
    close() { closed = true; ws && ws.close(); },
  };
}

// eventLog gathers the events of the states as they come: each state
// carries what came after the one before, and a reconnect may bring some
// again. An event is kept once: by its number n (the room's own events),
// else by its seq, type and text. It returns the last keep events.
export function eventLog(keep = 60) {
  let log = [];
  const key = (e) => (e.n ? "n" + e.n : e.seq + "|" + e.type + "|" + e.text);
  return (events) => {
    const seen = new Set(log.map(key));
    for (const e of events || []) if (!seen.has(key(e))) { seen.add(key(e)); log.push(e); }
    log = log.slice(-keep);
    return log;
  };
}

// A game's page module (/static/games/ID.js, which the server serves as the
// game declares it: game.Info.Page) exports view(v, st, forTable), the
// game's view as the table and the phones show it, and may export moves:
// hooks for the moves panel (see moves.js). A game without one is shown
// field by field.
const games = new Map();
export function loadGame(id) {
  if (!games.has(id)) {
    const safe = /^[a-z0-9-]+$/.test(id || "") ? id : "";
    games.set(id, safe ? import(`/static/games/${safe}.js`).catch(() => ({})) : Promise.resolve({}));
  }
  return games.get(id);
}
