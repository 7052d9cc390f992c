// The Switchboard dashboard: one page over the same API as every other client (REST, JSON-RPC on
// /rpc, notifications on /ws). A view is an object with optional refresh() (load its snapshot)
// and notify(notification) (apply one live notification); register() adds one, so later views
// (a turn's call tree) plug in without touching the others. The connection keeps the
// last seq it applied and, after any drop or server restart, subscribes again from it: nothing
// is missed and nothing is applied twice.

const state = {
  token: localStorage.getItem('switchboard.token') || '',
  lastSeq: null,
  selected: decodeURIComponent((location.hash.match(/thread=([^&]*)/) || [])[1] || '') || null,
};
const views = [];
const KEEP_LOG = 300;
const KEEP_ENDED_TURNS = 30;
const SUBSCRIBE_TIMEOUT_MS = 10000;

export function register(view) {
  views.push(view);
}

// ---------------------------------------------------------------- API

async function request(path, options = {}) {
  const headers = {Accept: 'application/json', ...(options.headers || {})};
  if (state.token) headers.Authorization = 'Bearer ' + state.token;
  if (options.body) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {...options, headers});
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch (notJson) {
    body = null;
  }
  if (!response.ok) {
    const message = body && body.error && body.error.message;
    throw new Error(response.status === 401 ? 'unauthorized: enter the API token above'
      : message || `request failed with status ${response.status}`);
  }
  return body;
}

let rpcIds = 0;

export async function rpc(method, params = {}) {
  const answer = await request('/rpc', {method: 'POST', body: JSON.stringify({jsonrpc: '2.0', id: ++rpcIds, method, params})});
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
}

function showError(error, where = 'error') {
  document.getElementById(where).textContent = error ? String(error.message || error) : '';
}

// Runs an action of the page; its failure is shown in the element `where` (the page's error line
// unless a view shows its own next to the control that failed).
export async function attempt(action, where = 'error') {
  try {
    showError(null, where);
    await action();
  } catch (error) {
    showError(error, where);
  }
}

// ---------------------------------------------------------------- helpers

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  children.forEach(child => node.append(child));
  return node;
}

function textOf(content) {
  if (!content) return '';
  if (typeof content.text === 'string') return content.text;
  if (Array.isArray(content.content)) return content.content.map(part => part.text || '').join(' ');
  if (content.type === 'system_announce') return `${content.title || 'announce'}: ${content.text || ''}`;
  return '';
}

function select(thread) {
  state.selected = thread;
  history.replaceState(null, '', '#thread=' + encodeURIComponent(thread));
  document.getElementById('send-thread').value = thread;
  threadView.refresh();
  attempt(() => treesView.refresh());
}

// ---------------------------------------------------------------- the live connection

let socket = null;
let retryMs = 500;

function setConnection(text) {
  const badge = document.getElementById('connection');
  badge.textContent = text;
  badge.dataset.state = text;
}

function connect() {
  setConnection('connecting');
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const query = state.token ? '?access_token=' + encodeURIComponent(state.token) : '';
  const ws = new WebSocket(scheme + location.host + '/ws' + query);
  socket = ws;
  // A handshake or a subscribe that gets no answer (a server still starting, a proxy holding the
  // request) is given up and tried again: the browser would wait minutes, and holds its other
  // connection attempts to the server behind it meanwhile.
  const unanswered = setTimeout(() => ws.close(), SUBSCRIBE_TIMEOUT_MS);
  ws.onopen = () => {
    const params = state.lastSeq === null ? {} : {after_seq: state.lastSeq};
    ws.send(JSON.stringify({jsonrpc: '2.0', id: 'subscribe', method: 'subscribe', params}));
  };
  ws.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.id === 'subscribe') {
      clearTimeout(unanswered);
      if (message.error) {
        showError(message.error.message);
        return;
      }
      if (state.lastSeq === null) state.lastSeq = message.result.after_seq;
      retryMs = 500;
      setConnection('live');
      refreshAll();
    } else if (message.method) {
      apply(message);
    }
  };
  ws.onclose = () => {
    clearTimeout(unanswered);
    if (socket !== ws) return;
    setConnection('reconnecting');
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 5000);
  };
}

function apply(notification) {
  const params = notification.params || {};
  if (typeof params.seq === 'number') {
    if (state.lastSeq !== null && params.seq <= state.lastSeq) return; // already applied
    state.lastSeq = params.seq;
    document.getElementById('last-seq').textContent = 'seq ' + params.seq;
  }
  logView.notify(notification);
  for (const view of views) {
    if (view !== logView && view.notify) view.notify(notification);
  }
}

async function refreshAll() {
  for (const view of views) {
    if (view.refresh) await attempt(() => view.refresh());
  }
}

// ---------------------------------------------------------------- views

const serverView = {
  async refresh() {
    const response = await fetch('/health/ready', {headers: {Accept: 'application/json'}});
    const health = await response.json();
    const list = document.getElementById('health');
    list.replaceChildren(el('dt', {text: 'ready'}), el('dd', {text: health.status}));
    for (const check of health.checks || []) {
      for (const [name, value] of Object.entries(check.data || {})) {
        list.append(el('dt', {text: name}), el('dd', {text: String(value)}));
      }
    }
    const status = await rpc('server/status');
    document.getElementById('runtime-state').textContent = status.state;
    const cluster = await rpc('server/instances');
    document.getElementById('cluster').replaceChildren(...cluster.instances
      .filter(i => i.state !== 'stopped' || Date.now() - Date.parse(i.stopped_at) < 3600 * 1000)
      .map(i => el('tr', {'data-instance': i.instance, 'data-state': i.state, title: i.owner},
        el('td', {text: i.instance}), el('td', {text: i.state}), el('td', {text: String(i.executing_runs)}),
        el('td', {text: i.state === 'stopped' ? 'stopped ' + i.stopped_at : `${(i.heartbeat_age_ms / 1000).toFixed(1)} s ago`}))));
  },
  notify(n) {
    if (n.method === 'thread/paused') document.getElementById('runtime-state').textContent = 'paused';
    if (n.method === 'thread/resumed') document.getElementById('runtime-state').textContent = 'running';
  },
};

// The user's threads a page at a time (thread/list, by key): people's and integrations' threads,
// and the server's internal ones (Open Responses chains, delegation paths) only while the box is
// ticked; the search box keeps keys containing its text, in any case. Which threads a page holds
// is the server's rule alone: a notification updates the active turns of a thread on the page, and
// one of a thread not on it reloads the page (at most every 300 ms) instead of adding it, so an
// internal thread never slips into the default list. A thread a reload did not bring onto the
// page (internal, filtered out or on another page) reloads nothing more until the page changes;
// nor does one whose key the search's text is not in (it cannot be listed while the search stands).
const THREADS_PAGE = 50;
const THREADS_SEARCH_CALLS = 10; // a search may answer a page short (docs/rpc.md): ask on up to this often
const THREADS_ABSENT_MAX = 10000; // threads remembered as off the page, at most

const threads = new Map(); // thread_id → active turns, of the threads on the page (the turns view reads it)

const threadsView = {
  rows: [], // the page's threads as thread/list gave them, in its order
  after: null, // the key the page starts after (null: the first page)
  earlier: [], // the `after` of each page before it, for Previous
  next: null, // where the next page starts; null: this is the last
  searchedTo: null, // a search that stopped short of a full page: the last key it examined
  generation: 0,
  reload: null,
  waiting: new Set(), // notified threads not on the page, until a reload says whether they are
  absent: new Set(), // threads a reload left off the page
  filter() {
    return {
      query: document.getElementById('thread-search').value.trim(),
      includeInternal: document.getElementById('threads-internal').checked,
    };
  },
  async refresh() {
    const generation = ++this.generation;
    const {query, includeInternal} = this.filter();
    const notified = new Set(this.waiting);
    const rows = [];
    let after = this.after;
    let next = null;
    for (let call = 0; call < THREADS_SEARCH_CALLS; call++) {
      const params = {limit: THREADS_PAGE - rows.length};
      if (after !== null) params.after = after;
      if (query) params.query = query;
      if (includeInternal) params.include_internal = true;
      const page = await rpc('thread/list', params);
      rows.push(...page.threads);
      next = page.next_after;
      if (next === null || !query || rows.length >= THREADS_PAGE) break;
      after = next;
    }
    if (generation !== this.generation) return; // a newer reload (another search, page or filter) answers
    this.rows = rows;
    this.next = next;
    this.searchedTo = query && next !== null && rows.length < THREADS_PAGE ? next : null;
    threads.clear();
    rows.forEach(t => threads.set(t.thread_id, t.active_turns));
    notified.forEach(thread => {
      this.waiting.delete(thread);
      if (!threads.has(thread)) {
        if (this.absent.size >= THREADS_ABSENT_MAX) this.absent.clear();
        this.absent.add(thread);
      }
    });
    this.render();
  },
  // Another page or filter: what was known to be off the page no longer is.
  go(after, earlier) {
    Object.assign(this, {after, earlier, next: null});
    this.waiting.clear();
    this.absent.clear();
    return attempt(() => this.refresh());
  },
  notify(n) {
    const thread = n.params.thread_id;
    if (!thread || !['turn/started', 'turn/completed', 'turn/interrupted'].includes(n.method)) return;
    if (!threads.has(thread)) {
      if (this.absent.has(thread)) return;
      const {query} = this.filter();
      if (query && !thread.toLowerCase().includes(query.toLowerCase())) {
        // The search can never list it: no reload (each may read thousands of keys on the server).
        if (this.absent.size >= THREADS_ABSENT_MAX) this.absent.clear(); // a page left open for days
        this.absent.add(thread);
        return;
      }
      this.waiting.add(thread);
      if (!this.reload) {
        this.reload = setTimeout(() => {
          this.reload = null;
          attempt(() => this.refresh());
        }, 300);
      }
      return;
    }
    const active = threads.get(thread);
    threads.set(thread, n.method === 'turn/started' ? active + 1 : Math.max(0, active - 1));
    this.render();
  },
  render() {
    const rows = this.rows.map(t => el('tr', {'data-thread': t.thread_id, 'data-thread-id': t.thread_id, 'data-kind': t.kind,
      class: t.thread_id === state.selected ? 'selected' : '', onclick: () => {
        select(t.thread_id);
        threadsView.render();
      }},
      el('td', {text: t.thread_id, title: t.thread_id}), el('td', {class: 'kind', text: t.kind}),
      el('td', {text: String(threads.get(t.thread_id) || 0)})));
    document.getElementById('threads').replaceChildren(...rows);
    document.getElementById('threads-prev').disabled = this.earlier.length === 0;
    document.getElementById('threads-next').disabled = this.next === null;
    const {query} = this.filter();
    const where = this.earlier.length === 0 ? 'first page' : `page ${this.earlier.length + 1}, after ${this.after}`;
    document.getElementById('threads-status').textContent = [
      this.rows.length === 0 ? 'no threads' : `${this.rows.length} threads`, where,
      query ? `keys containing “${query}”` : '',
      this.searchedTo === null ? '' : `searched up to ${this.searchedTo}: Next searches on`,
    ].filter(Boolean).join(' · ');
  },
};

{
  let typing = null;
  document.getElementById('thread-search').addEventListener('input', () => {
    clearTimeout(typing); // a word typed is one search, not one per letter
    typing = setTimeout(() => threadsView.go(null, []), 250);
  });
  document.getElementById('threads-internal').addEventListener('change', () => threadsView.go(null, []));
  document.getElementById('threads-prev').addEventListener('click', () => {
    const earlier = [...threadsView.earlier];
    const after = earlier.pop();
    threadsView.go(after === undefined ? null : after, earlier);
  });
  document.getElementById('threads-next').addEventListener('click', () => {
    if (threadsView.next !== null) threadsView.go(threadsView.next, [...threadsView.earlier, threadsView.after]);
  });
}

const turns = new Map();

const turnsView = {
  async refresh() {
    // Turns still in flight when the page opened; later ones arrive as notifications.
    const busy = [...threads.entries()].filter(([, active]) => active > 0).slice(0, 20);
    for (const [thread] of busy) {
      const page = await rpc('thread/read', {thread_id: thread, limit: 200});
      for (const run of page.runs) {
        if (run.status === 'running' && !turns.has(run.turn_id)) {
          turns.set(run.turn_id, {thread, state: run.state, ended: false});
        }
      }
    }
    this.render();
  },
  notify(n) {
    const p = n.params;
    if (!p.turn_id || !p.thread_id) return;
    const turn = turns.get(p.turn_id) || {thread: p.thread_id, state: 'active', ended: false};
    if (n.method === 'turn/progress') turn.state = p.state;
    else if (n.method === 'turn/completed') Object.assign(turn, {state: 'completed', ended: true});
    else if (n.method === 'turn/interrupted') Object.assign(turn, {state: p.status || 'interrupted', ended: true});
    else if (n.method !== 'turn/started') return;
    turns.delete(p.turn_id);
    turns.set(p.turn_id, turn); // newest last
    const ended = [...turns.entries()].filter(([, t]) => t.ended);
    ended.slice(0, Math.max(0, ended.length - KEEP_ENDED_TURNS)).forEach(([id]) => turns.delete(id));
    this.render();
  },
  render() {
    const ordered = [...turns.entries()].reverse().sort((a, b) => Number(a[1].ended) - Number(b[1].ended));
    document.getElementById('turns').replaceChildren(...ordered.map(([id, turn]) =>
      el('tr', {'data-turn': id, 'data-state': turn.state},
        el('td', {text: id}), el('td', {text: turn.thread}), el('td', {text: turn.state}),
        el('td', {}, turn.ended ? '' : el('button', {type: 'button', text: 'Interrupt',
          onclick: () => attempt(() => rpc('turn/interrupt', {turn_id: id, reason: 'interrupted from the dashboard'}))})))));
  },
};

const threadView = {
  async refresh() {
    const list = document.getElementById('thread-turns');
    document.getElementById('thread-name').textContent = state.selected || '(choose one)';
    list.replaceChildren();
    if (!state.selected) return;
    const page = await rpc('thread/read', {thread_id: state.selected, limit: 200});
    for (const run of page.runs) {
      const entry = this.turnEntry(run.turn_id);
      entry.dataset.state = run.status === 'running' ? run.state : run.status === 'succeeded' ? 'completed' : 'failed';
      entry.querySelector('.state').textContent = entry.dataset.state;
      for (const item of page.items.filter(i => i.run_id === run.run_id)) this.addItem(entry, item.role, textOf(item.content));
    }
  },
  notify(n) {
    const p = n.params;
    if (!state.selected || p.thread_id !== state.selected || !p.turn_id) return;
    const entry = this.turnEntry(p.turn_id);
    if (n.method === 'item/created') this.addItem(entry, (p.content && p.content.role) || 'item', textOf(p.content));
    const next = n.method === 'turn/progress' ? p.state : n.method === 'turn/completed' ? 'completed'
      : n.method === 'turn/interrupted' ? (p.status || 'interrupted') : null;
    if (next) {
      entry.dataset.state = next;
      entry.querySelector('.state').textContent = next;
    }
  },
  turnEntry(turnId) {
    const list = document.getElementById('thread-turns');
    let entry = list.querySelector(`li[data-turn="${CSS.escape(turnId)}"]`);
    if (!entry) {
      entry = el('li', {'data-turn': turnId, 'data-state': 'active'},
        el('span', {class: 'turn', text: turnId}), ' ', el('span', {class: 'state', text: 'active'}), el('ul', {class: 'items'}));
      list.append(entry);
    }
    return entry;
  },
  addItem(entry, role, text) {
    const line = `${role}: ${text}`;
    const items = entry.querySelector('.items');
    // The snapshot and the live notifications after the subscription point can both carry an item.
    if ([...items.children].some(li => li.textContent === line)) return;
    items.append(el('li', {'data-role': role, text: line}));
  },
};

const eventsView = {
  pending: null,
  async refresh() {
    const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    const [events, decisions] = await Promise.all([
      request('/v1/events?limit=500&since=' + encodeURIComponent(since)),
      request('/v1/decisions?limit=500&since=' + encodeURIComponent(since)),
    ]);
    const decided = new Map(decisions.data.map(d => [d.event_id, d.type + (d.reason ? ` (${d.reason})` : '')]));
    const rows = events.data.slice(-30).reverse().map(e =>
      el('tr', {'data-event': e.id},
        el('td', {text: e.received_at}), el('td', {text: e.id}), el('td', {text: e.type}),
        el('td', {text: e.status}), el('td', {text: e.session_key}), el('td', {text: decided.get(e.id) || ''})));
    document.getElementById('events').replaceChildren(...rows);
  },
  notify(n) {
    if (n.method !== 'event/received') return;
    clearTimeout(this.pending); // a burst of events is one reload
    this.pending = setTimeout(() => attempt(() => this.refresh()), 500);
  },
};

// What the user's chat threads wait for (docs/chat.md): approvals answered and tokens given here,
// as from any channel allowed to (the dashboard answers as 'web'). A token goes to chat/authToken
// only, never into the page's log or the address.
const WAIT_METHODS = ['approval/requested', 'approval/resolved', 'auth/required', 'auth/completed'];

const waitsView = {
  pending: null,
  async refresh() {
    const page = await rpc('chat/threads', {limit: 500});
    const table = document.getElementById('waits');
    // A row still waiting is kept as it is, so a token being typed survives other threads' news.
    const shown = new Map([...table.children].map(row => [row.dataset.kind + ' ' + row.dataset.request, row]));
    const rows = [];
    for (const t of page.threads) {
      if (t.pending_approval) {
        rows.push(shown.get('approval ' + t.pending_approval.request_id) || this.approvalRow(t.id, t.pending_approval));
      }
      if (t.pending_auth) rows.push(shown.get('auth ' + t.pending_auth.request_id) || this.authRow(t.id, t.pending_auth));
    }
    table.replaceChildren(...rows);
  },
  notify(n) {
    if (!WAIT_METHODS.includes(n.method)) return;
    clearTimeout(this.pending); // a request and its answer in one burst are one reload
    this.pending = setTimeout(() => attempt(() => this.refresh()), 200);
  },
  approvalRow(thread, approval) {
    const answer = action => attempt(async () => {
      await rpc('chat/approve', {thread_id: thread, request_id: approval.request_id, action, channel: 'web'});
      await this.refresh();
    });
    const button = (action, text) => el('button', {type: 'button', 'data-action': action, text, onclick: () => answer(action)});
    return el('tr', {'data-kind': 'approval', 'data-thread': thread, 'data-request': approval.request_id},
      el('td', {text: thread}), el('td', {text: 'approval'}), el('td', {text: approval.description}),
      el('td', {}, button('approve', 'Approve'), ...(approval.allow_always ? [button('always', 'Always')] : []),
        button('deny', 'Deny')));
  },
  authRow(thread, prompt) {
    const token = el('input', {type: 'password', autocomplete: 'off', placeholder: 'token for ' + prompt.credential});
    const give = () => attempt(async () => {
      const value = token.value.trim();
      token.value = '';
      await rpc('chat/authToken', {thread_id: thread, token: value});
      await this.refresh();
    });
    return el('tr', {'data-kind': 'auth', 'data-thread': thread, 'data-request': prompt.request_id},
      el('td', {text: thread}), el('td', {text: 'credential ' + prompt.credential}),
      el('td', {text: `${prompt.tool_name}, until ${prompt.expires_at}`}),
      el('td', {}, token, el('button', {type: 'button', 'data-action': 'token', text: 'Give token', onclick: give}),
        el('button', {type: 'button', 'data-action': 'cancel', text: 'Cancel', onclick: () => attempt(async () => {
          await rpc('chat/authCancel', {thread_id: thread});
          await this.refresh();
        })})));
  },
};

const logView = {
  notify(n) {
    const p = n.params || {};
    const line = `${p.seq ?? '-'}  ${n.method}  ${p.thread_id || ''}  ${p.turn_id || p.event_id || ''}`;
    const log = document.getElementById('log');
    log.prepend(el('li', {'data-seq': String(p.seq ?? ''), 'data-thread': p.thread_id || '', 'data-method': n.method, text: line}));
    while (log.children.length > KEEP_LOG) log.lastElementChild.remove();
  },
};

// The call trees of the selected thread's runs that delegated, live: a delegation/hop reloads its
// run's tree (run/tree), at most every 200 ms per run. Nodes nest by parent path; an operator's
// page also shows the readable paths.
const treesView = {
  pending: new Map(),
  async refresh() {
    document.getElementById('call-trees').replaceChildren();
    if (!state.selected) return;
    const page = await rpc('thread/read', {thread_id: state.selected, limit: 200});
    for (const run of page.runs.slice(-20)) await this.show(run.run_id);
  },
  notify(n) {
    const p = n.params;
    if (n.method !== 'delegation/hop' || p.thread_key !== state.selected || this.pending.has(p.run_id)) return;
    this.pending.set(p.run_id, setTimeout(() => {
      this.pending.delete(p.run_id);
      attempt(() => this.show(p.run_id));
    }, 200));
  },
  async show(runId) {
    const tree = await rpc('run/tree', {run_id: runId});
    if (!tree.delegated) return;
    const list = document.getElementById('call-trees');
    let entry = list.querySelector(`li[data-run="${CSS.escape(runId)}"]`);
    if (!entry) {
      entry = el('li', {'data-run': runId});
      list.append(entry);
    }
    const children = new Map();
    for (const node of tree.nodes) {
      const siblings = children.get(node.parent_path_id) || [];
      siblings.push(node);
      children.set(node.parent_path_id, siblings);
    }
    const render = node => el('li', {'data-path': node.path_id, 'data-agent': node.agent || '', 'data-status': node.status},
      el('span', {class: 'node', text: [node.agent || 'run ' + runId, node.from ? '← ' + node.from : '', node.status,
        node.duration_ms == null ? '' : node.duration_ms + ' ms', node.result ? '“' + node.result + '”' : '',
        node.path ? '(' + node.path + ')' : ''].filter(Boolean).join(' · ')}),
      el('ul', {}, ...(children.get(node.path_id) || []).map(render)));
    entry.replaceChildren(...(children.get(null) || []).map(render));
  },
};

// The user's outgoing webhooks (/v1/webhooks): its endpoints, adding one, turning one off and on,
// rotating its secret, and for the endpoint chosen what was queued and how each delivery went. The
// server hands a secret out only in the answers of create and rotate, so the page shows it once and
// keeps it nowhere (not in state, the address or localStorage): closing the box loses it for good.
// No notification tells of deliveries; the chosen endpoint's tables reload on demand.
const WEBHOOK_EVENT_TYPES = ['turn.completed', 'turn.failed', 'turn.cancelled', 'run.succeeded', 'run.failed',
  'run.cancelled', 'approval.requested', 'auth.required', 'delegation.completed', 'ingress.event.received'];
const WEBHOOK_PAGE = 50;

// What is done in the view is refused in the view: the page's own error line is screens away.
const act = action => attempt(action, 'webhook-error');

const webhooksView = {
  endpoints: [],
  selected: null, // the endpoint whose messages and attempts are shown
  attemptsOf: null, // the message the attempts log is narrowed to, or null for all of them
  async refresh() {
    const page = await request('/v1/webhooks');
    this.endpoints = page.data;
    if (!this.endpoints.some(e => e.id === this.selected)) Object.assign(this, {selected: null, attemptsOf: null});
    this.render();
    await this.refreshDeliveries();
  },
  path(id) {
    return '/v1/webhooks/' + encodeURIComponent(id);
  },
  render() {
    const button = (action, text, onclick, title) => el('button', {type: 'button', 'data-action': action, text, onclick, ...(title ? {title} : {})});
    document.getElementById('webhooks').replaceChildren(...this.endpoints.map(e => {
      const types = e.event_types && e.event_types.length ? e.event_types.join(', ') : 'all';
      const stateText = e.enabled ? 'enabled' : 'disabled' + (e.disabled_reason ? ': ' + e.disabled_reason : '');
      return el('tr', {'data-endpoint-id': e.id, 'data-enabled': String(e.enabled), class: e.id === this.selected ? 'selected' : ''},
        el('td', {class: 'url', title: e.url + (e.description ? ' — ' + e.description : '')}, e.url,
          ...(e.description ? [' ', el('span', {class: 'muted', text: e.description})] : [])),
        el('td', {class: 'events', title: types, text: types}),
        el('td', {class: 'thread', text: e.thread_id || 'all'}),
        el('td', {class: 'state', title: stateText + (e.previous_secret_expires_at
          ? `; the previous secret still signs until ${e.previous_secret_expires_at}` : ''), text: stateText}),
        el('td', {},
          e.enabled ? button('disable', 'Disable', () => act(() => this.change(e.id, {enabled: false})))
            : button('enable', 'Enable', () => act(() => this.change(e.id, {enabled: true}))),
          button('rotate', 'Rotate secret', () => act(() => this.rotate(e)),
            'a new secret; the current one keeps signing beside it for a day'),
          button('deliveries', 'Deliveries', () => act(() => this.choose(e.id))),
          button('delete', 'Delete', () => act(() => this.remove(e)))));
    }));
  },
  async choose(id) {
    Object.assign(this, {selected: id, attemptsOf: null});
    this.render();
    await this.refreshDeliveries();
  },
  async refreshDeliveries() {
    const panel = document.getElementById('webhook-deliveries');
    panel.hidden = !this.selected;
    if (!this.selected) return;
    const endpoint = this.endpoints.find(e => e.id === this.selected);
    panel.dataset.endpointId = endpoint.id;
    document.getElementById('webhook-deliveries-url').textContent = endpoint.url;
    const narrowed = this.attemptsOf ? '&message_id=' + encodeURIComponent(this.attemptsOf) : '';
    const [messages, attempts] = await Promise.all([
      request(`${this.path(endpoint.id)}/messages?limit=${WEBHOOK_PAGE}`),
      request(`${this.path(endpoint.id)}/attempts?limit=${WEBHOOK_PAGE}${narrowed}`),
    ]);
    if (this.selected !== endpoint.id) return; // another endpoint was chosen while these were loading
    document.getElementById('webhook-messages').replaceChildren(...messages.data.map(m =>
      el('tr', {'data-message-id': m.id, 'data-state': m.state, class: m.id === this.attemptsOf ? 'selected' : ''},
        el('td', {text: m.created_at}), el('td', {text: m.id}), el('td', {text: m.event_type}),
        el('td', {text: m.thread_id || ''}), el('td', {class: 'state', text: m.state}), el('td', {text: String(m.attempts)}),
        el('td', {text: m.next_attempt_at ? 'next ' + m.next_attempt_at : m.ended_at ? 'ended ' + m.ended_at : ''}),
        el('td', {},
          el('button', {type: 'button', 'data-action': 'replay', text: 'Replay', title: 'queue it again, same webhook-id',
            onclick: () => act(() => this.replay(endpoint.id, m.id))}),
          el('button', {type: 'button', 'data-action': 'attempts', text: 'Attempts',
            onclick: () => act(() => this.narrow(m.id))})))));
    const filter = document.getElementById('webhook-attempts-filter');
    filter.replaceChildren(...(this.attemptsOf ? [`of ${this.attemptsOf} `,
      el('button', {type: 'button', 'data-action': 'all-attempts', text: 'All messages', onclick: () => act(() => this.narrow(null))})]
      : [`at most ${WEBHOOK_PAGE}`]));
    document.getElementById('webhook-attempts').replaceChildren(...attempts.data.map(a =>
      el('tr', {'data-message-id': a.message_id, 'data-attempt': String(a.attempt), 'data-outcome': a.outcome},
        el('td', {text: a.at}), el('td', {text: a.message_id}), el('td', {text: String(a.attempt)}),
        el('td', {class: 'outcome', text: a.outcome}), el('td', {text: a.status == null ? '–' : String(a.status)}),
        el('td', {text: a.latency_ms == null ? '' : a.latency_ms + ' ms'}),
        el('td', {class: 'response', title: a.response || '', text: a.response || ''}))));
  },
  async narrow(messageId) {
    this.attemptsOf = messageId;
    await this.refreshDeliveries();
  },
  async add() {
    const form = document.getElementById('webhook-form');
    const body = {url: document.getElementById('webhook-url').value.trim()};
    const types = [...form.querySelectorAll('input[data-event-type]:checked')].map(box => box.value);
    if (types.length) body.event_types = types; // none checked: the server's default, every type
    const thread = document.getElementById('webhook-thread').value.trim();
    if (thread) body.thread_id = thread;
    const description = document.getElementById('webhook-description').value.trim();
    if (description) body.description = description;
    const endpoint = await request('/v1/webhooks', {method: 'POST', body: JSON.stringify(body)});
    form.reset();
    this.showSecret(endpoint, 'Secret of ' + endpoint.url + ':');
    await this.refresh();
  },
  async change(id, patch) {
    await request(this.path(id), {method: 'PATCH', body: JSON.stringify(patch)});
    await this.refresh();
  },
  async rotate(endpoint) {
    const rotated = await request(this.path(endpoint.id) + '/rotate', {method: 'POST', body: '{}'});
    this.showSecret(rotated, 'New secret of ' + rotated.url + (rotated.previous_secret_expires_at
      ? ` (the old one signs too until ${rotated.previous_secret_expires_at}):` : ':'));
    await this.refresh();
  },
  async remove(endpoint) {
    if (!confirm(`Delete the webhook to ${endpoint.url}? Its queued messages are not sent.`)) return;
    await request(this.path(endpoint.id), {method: 'DELETE'});
    await this.refresh();
  },
  async replay(endpointId, messageId) {
    await request(`${this.path(endpointId)}/messages/${encodeURIComponent(messageId)}/replay`, {method: 'POST'});
    await this.refreshDeliveries();
  },
  showSecret(endpoint, label) {
    const box = document.getElementById('webhook-secret');
    box.dataset.endpointId = endpoint.id;
    document.getElementById('webhook-secret-label').textContent = label;
    document.getElementById('webhook-secret-value').textContent = endpoint.secret || '';
    box.hidden = false;
  },
  forgetSecret() {
    const box = document.getElementById('webhook-secret');
    box.hidden = true;
    delete box.dataset.endpointId;
    document.getElementById('webhook-secret-value').textContent = '';
  },
};

[serverView, threadsView, turnsView, waitsView, threadView, treesView, eventsView, webhooksView, logView].forEach(register);

// ---------------------------------------------------------------- controls

document.getElementById('pause').addEventListener('click', () => attempt(async () => {
  await rpc('server/pause');
  await serverView.refresh();
}));
document.getElementById('resume').addEventListener('click', () => attempt(async () => {
  await rpc('server/resume');
  await serverView.refresh();
}));
document.getElementById('send-form').addEventListener('submit', event => {
  event.preventDefault();
  const thread = document.getElementById('send-thread').value.trim();
  const text = document.getElementById('send-text');
  attempt(async () => {
    await request('/v1/messages', {method: 'POST', body: JSON.stringify({thread_key: thread, text: text.value})});
    text.value = '';
    if (thread !== state.selected) select(thread);
  });
});
document.getElementById('token-form').addEventListener('submit', event => {
  event.preventDefault();
  state.token = document.getElementById('token').value.trim();
  localStorage.setItem('switchboard.token', state.token);
  webhooksView.forgetSecret(); // another user's page from here on: the last one's secret goes
  if (socket) socket.close(); // reconnects with the token, from the last seq
});

document.getElementById('webhook-event-types').append(...WEBHOOK_EVENT_TYPES.map(type =>
  el('label', {}, el('input', {type: 'checkbox', name: 'event_types', value: type, 'data-event-type': type}), ' ' + type)));
document.getElementById('webhook-form').addEventListener('submit', event => {
  event.preventDefault();
  act(() => webhooksView.add());
});
document.getElementById('webhook-reload').addEventListener('click', () => act(() => webhooksView.refreshDeliveries()));
document.getElementById('webhook-secret-dismiss').addEventListener('click', () => webhooksView.forgetSecret());
document.getElementById('webhook-secret-copy').addEventListener('click', () => act(() =>
  {
  // The clipboard is offered only to https pages and localhost; elsewhere the secret is selected by hand.
  if (!navigator.clipboard) throw new Error('copying needs https (or localhost): select the secret instead');
  return navigator.clipboard.writeText(document.getElementById('webhook-secret-value').textContent);
}));

window.addEventListener('hashchange', () => {
  const thread = decodeURIComponent((location.hash.match(/thread=([^&]*)/) || [])[1] || '');
  if (thread && thread !== state.selected) {
    select(thread);
    threadsView.render();
  }
});
if (state.selected) document.getElementById('send-thread').value = state.selected;
setInterval(() => attempt(() => serverView.refresh()), 5000); // readiness and executing runs are not notified
connect();
