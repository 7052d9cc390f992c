// A webhook receiver for WebhooksIT. Each path is an endpoint the test configures over
// POST /control/path: the secrets to verify with (standardwebhooks' Webhook.verify, the
// specification's library), and how to misbehave — fail the first N attempts of every message
// with 500, close the connection without answering on every k-th request, answer slowly on every
// k-th, or hold every request for a while. Every request is logged (GET /control/log?path=…),
// with whether its signature verified. Prints {"port": n} once listening on 127.0.0.1.
import http from "node:http";
import { Webhook } from "standardwebhooks";

const paths = new Map(); // path -> {secrets, failFirst, closeEvery, slowEvery, slowMs, holdMs, requests, attempts: Map}
const log = [];

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function verify(secrets, body, headers) {
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      return { verified: true };
    } catch (e) {
      // try the next secret
    }
  }
  return { verified: false };
}

function verifiedBy(secrets, body, headers) {
  return secrets.filter((secret) => {
    try {
      new Webhook(secret).verify(body, headers);
      return true;
    } catch (e) {
      return false;
    }
  }).length;
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, "http://receiver");
  const body = await readBody(req);
  if (url.pathname === "/control/path" && req.method === "POST") {
    const c = JSON.parse(body);
    paths.set(c.path, {
      secrets: c.secrets || [], failFirst: c.failFirst || 0, closeEvery: c.closeEvery || 0,
      slowEvery: c.slowEvery || 0, slowMs: c.slowMs || 0, holdMs: c.holdMs || 0,
      requests: 0, attempts: new Map(),
    });
    res.writeHead(204).end();
    return;
  }
  if (url.pathname === "/control/log" && req.method === "GET") {
    const path = url.searchParams.get("path");
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(log.filter((e) => !path || e.path === path)));
    return;
  }
  const p = paths.get(url.pathname);
  if (!p || req.method !== "POST") {
    res.writeHead(404).end("no such endpoint");
    return;
  }
  p.requests += 1;
  const id = req.headers["webhook-id"] || "";
  const attempt = (p.attempts.get(id) || 0) + 1;
  p.attempts.set(id, attempt);
  const entry = { path: url.pathname, id, attempt, at: Date.now(), ...verify(p.secrets, body, req.headers),
    verifiedBy: verifiedBy(p.secrets, body, req.headers), signatures: (req.headers["webhook-signature"] || "").split(" ").length };
  try {
    const event = JSON.parse(body);
    entry.type = event.type;
    entry.seq = event.data && event.data.seq;
    entry.thread = event.data && (event.data.thread_id || null);
    entry.key = event.data && (event.data.run_id || event.data.turn_id || event.data.event_id || null);
  } catch (e) {
    entry.type = null;
  }
  let outcome;
  if (attempt <= p.failFirst) {
    outcome = "500";
  } else if (p.closeEvery && p.requests % p.closeEvery === 0) {
    outcome = "closed";
  } else if (p.slowEvery && p.requests % p.slowEvery === 0) {
    outcome = "slow";
  } else if (p.holdMs) {
    outcome = "held";
  } else {
    outcome = "ok";
  }
  entry.outcome = outcome;
  log.push(entry);
  if (outcome === "500") {
    res.writeHead(500, { "content-type": "text/plain" }).end("failing on purpose, attempt " + attempt);
  } else if (outcome === "closed") {
    req.socket.destroy();
  } else {
    const wait = outcome === "slow" ? p.slowMs : outcome === "held" ? p.holdMs : 0;
    setTimeout(() => {
      entry.answeredAt = Date.now();
      res.writeHead(204).end();
    }, wait);
  }
});

server.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ port: server.address().port }));
});
