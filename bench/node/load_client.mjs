// bench/load.py's client in Node.js (`--client node`): the same bots and measurements as
// the Python client (`client_async` in load.py), in a runtime whose one core can drive a
// server well past 1,000 actions/s, so the achieved rate measures the server.
//
// load.py starts one process per share of the games and talks to it by lines of JSON:
//   stdin  1: {"games": [[id, [token...], base]...], "frames", "via", "pages", "rate", "seed",
//              "views" (true: the result also holds every seat's view as kept, for a test)}
//   stdout 1: "ready"  (every seat's socket holds its first view)
//   stdin  2: [start_wall, warmup, duration]  (start_wall in seconds since the epoch)
//   stdout 2: {"actions", "refused", "latencies" (s), "frame_bytes", "cpu" (s), "fragments",
//              "fragments_failed", "broken"}
// "broken" counts frames whose base was not the version the seat held: a client that lost
// track of a view would act on options it does not have, so that count must stay 0.

import http from "node:http";
import readline from "node:readline";
import { performance } from "node:perf_hooks";
import WebSocket from "ws";

import { applyChanges } from "./changes.mjs";

const VERSION = /"version":\s*(-?\d+)/;
const TO_ACT = /"to_act":\s*\[([^\]]*)\]/;
const FINISHED = /"status":\s*"finished"/;

// mulberry32: a small seeded generator, so a run's choices repeat (not cryptographic).
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const nextLine = async () => (await lines.next()).value;
const say = (value) => process.stdout.write(JSON.stringify(value) + "\n");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const setup = JSON.parse(await nextLine());
const changes = setup.frames === "changes";
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const tally = { actions: 0, refused: 0, latencies: [], frame_bytes: [], measuring: false,
                fragments: 0, fragments_failed: 0, broken: 0 };
const games = setup.games.map(([id, tokens, base]) => ({
  id, base, seats: tokens.map((token) => ({ token, raw: null, version: -1, ws: null, view: null })),
  latest: null, latestView: null, sentAt: null, waiting: null, answer: null, finished: false,
}));

function request(method, url, token, body, extra = {}) {
  return new Promise((resolve) => {
    const req = http.request(url, { method, agent, headers: {
      Authorization: `Bearer ${token}`, ...extra,
      ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {}),
    } }, (res) => {
      const parts = [];
      res.on("data", (part) => parts.push(part));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(parts).toString() }));
    });
    req.on("error", () => resolve({ status: 0, body: "" })); // a server that cannot keep up: counted
    if (body) req.write(body);
    req.end();
  });
}

async function fetchFragment(game, seat, version) {
  const answer = await request("GET", `${game.base}/g/${game.id}/fragment?seen=${version}`, seat.token);
  if (tally.measuring) { tally.fragments++; tally.fragments_failed += answer.status !== 200 ? 1 : 0; }
  // FRAGMENT_DEBUG=1 in the environment: say why a fetch failed (0: no answer, the connection failed)
  if (answer.status !== 200 && process.env.FRAGMENT_DEBUG) console.error("fragment", answer.status, answer.body.slice(0, 300));
}

function onFrame(game, seat, data) {
  const now = performance.now();
  const raw = data.toString();
  if (raw.startsWith('{"acted"') || raw.startsWith('{"error"')) {
    const reply = JSON.parse(raw);
    if (game.answer) { const resolve = game.answer; game.answer = null; resolve(["acted" in reply, reply.version ?? -1]); }
    return;
  }
  if (raw.startsWith('{"chat"')) return;
  const before = seat.version;
  if (changes) {
    const frame = JSON.parse(raw);
    if ("base" in frame) {
      if (frame.base !== seat.version) tally.broken++;
      seat.view = applyChanges(seat.view, frame);
    } else {
      seat.view = frame;
    }
    seat.version = seat.view.version;
    game.latestView = seat.view;
  } else {
    const match = VERSION.exec(raw);
    if (!match) return;
    seat.raw = raw; seat.version = Number(match[1]); game.latest = raw;
  }
  if (setup.pages && before >= 0 && seat.version > before) fetchFragment(game, seat, seat.version);
  if (tally.measuring) {
    tally.frame_bytes.push(data.length);
    if (game.sentAt !== null) tally.latencies.push((now - game.sentAt) / 1000);
  }
}

function connect(game, index) {
  const seat = game.seats[index];
  const url = `${game.base.replace("http", "ws")}/ws/games/${game.id}?token=${seat.token}&frames=${setup.frames}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 ** 22, handshakeTimeout: 120000 });
    seat.ws = ws;
    ws.on("message", (data) => onFrame(game, seat, data));
    ws.once("open", resolve);
    // before it opens, a failure stops the run; after, a socket the server drops is left be
    ws.on("error", (error) => (ws.readyState === WebSocket.CONNECTING ? reject(error) : undefined));
  });
}

async function actHttp(game, seat, option) {
  const body = JSON.stringify({ option, version: game.seats[seat].version });
  // as the game page asks: only the new version back (the view comes as a frame)
  const answer = await request("POST", `${game.base}/api/games/${game.id}/actions`, game.seats[seat].token, body,
                               { Prefer: "return=minimal" });
  if (answer.status !== 200) return [false, -1];
  return [true, Number(VERSION.exec(answer.body)[1])];
}

function actWs(game, seat, option) {
  return new Promise((resolve) => {
    game.answer = resolve;
    game.seats[seat].ws.send(JSON.stringify({ act: option, version: game.seats[seat].version }));
  });
}

async function bot(game, interval, start, until, random) {
  let nextAt = start + random() * interval;
  while (!game.finished) {
    if (nextAt >= until) return;
    const delay = nextAt - performance.now();
    if (delay > 0) await sleep(delay);
    nextAt += interval;
    if (game.waiting && game.seats[game.waiting[0]].version < game.waiting[1]) continue; // our frame not here yet
    let acting;
    if (game.latestView !== null) {
      if (game.latestView.status === "finished") { game.finished = true; return; }
      acting = game.latestView.to_act;
    } else {
      if (FINISHED.test(game.latest)) { game.finished = true; return; }
      const listed = TO_ACT.exec(game.latest)[1];
      acting = listed.trim() ? listed.split(",").map(Number) : [];
    }
    if (!acting.length) continue;
    const seat = acting[Math.floor(random() * acting.length)];
    const held = game.latestView !== null ? game.seats[seat].view : JSON.parse(game.seats[seat].raw);
    const options = held.options.map((o) => o.id);
    const others = options.filter((id) => id !== "cancel");
    const choices = others.length ? others : options;
    if (!choices.length) continue; // that seat's socket has not caught up yet
    game.sentAt = performance.now();
    const option = choices[Math.floor(random() * choices.length)];
    const [ok, version] = await (setup.via === "http" ? actHttp(game, seat, option) : actWs(game, seat, option));
    if (ok) {
      if (tally.measuring) tally.actions++;
      game.waiting = version > game.seats[seat].version ? [seat, version] : null;
    } else {
      tally.refused++;
    }
  }
}

// A few handshakes at a time: a busy server answers them all in turn.
const pending = games.flatMap((game) => game.seats.map((_, index) => [game, index]));
await Promise.all(Array.from({ length: 20 }, async () => {
  while (pending.length) { const [game, index] = pending.shift(); await connect(game, index); }
}));
while (games.some((g) => g.seats.some((s) => s.version < 0))) await sleep(20);
say("ready");

const [startWall, warmup, duration] = JSON.parse(await nextLine());
const start = performance.now() + (startWall * 1000 - Date.now());
const until = start + (warmup + duration) * 1000;
const random = seeded(setup.seed);
const interval = (games.length / setup.rate) * 1000;
const bots = games.map((game) => bot(game, interval, start, until, seeded(Math.floor(random() * 2 ** 32))));
await sleep(start + warmup * 1000 - performance.now());
tally.measuring = true;
const cpu0 = process.cpuUsage();
await sleep(until - performance.now());
const cpu = process.cpuUsage(cpu0);
tally.measuring = false;
for (const failure of await Promise.allSettled(bots)) {
  if (failure.status === "rejected") console.error(`a bot failed: ${failure.reason}`);
}
await sleep(300);
const { measuring, ...result } = tally;
if (setup.views) {
  result.views = games.map((g) => g.seats.map((s) => (changes ? s.view : JSON.parse(s.raw))));
}
for (const game of games) for (const seat of game.seats) seat.ws.terminate();
agent.destroy();
// stdout to a pipe is written asynchronously: exit once the result is all out
process.stdout.write(JSON.stringify({ ...result, cpu: (cpu.user + cpu.system) / 1e6 }) + "\n", () => process.exit(0));
