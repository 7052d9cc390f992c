// The charts view: how the server is doing over the last minutes to hours, drawn from the samples
// every instance stores every few seconds (JSON-RPC server/series). Rates and sums are over the
// cluster; gauges and latency quantiles, which do not add up across instances, are drawn per
// instance. It polls for samples newer than the last it has, at the instances' sampling period.
// uPlot (a small canvas charting library) comes with the page as a WebJar.

import uPlot from './webjars/uplot/1.6.30/dist/uPlot.esm.js';
import {attempt, register, rpc} from './app.js';

const COLORS = ['#2f6fdf', '#c0392b', '#2e8540', '#8e44ad', '#d35400', '#16a085', '#7f8c8d'];

// Each chart: its figure's id, a title, the unit of its values and how its series come from the
// samples of one moment (`at`: {instance -> sample}). `total` series add over instances; the others
// are drawn once per instance.
const CHARTS = [
  {id: 'chart-runs', title: 'Runs ended per second', unit: '/s', series: [
    {label: 'succeeded', total: s => perSecond(s, 'runs_succeeded')},
    {label: 'failed', total: s => perSecond(s, 'runs_failed')}]},
  {id: 'chart-latency', title: 'Accept → finish latency', unit: 'ms', series: [
    {label: 'p50', each: s => s.latency_p50_ms},
    {label: 'p99', each: s => s.latency_p99_ms}]},
  {id: 'chart-lanes', title: 'Queued runs and busy lanes', unit: '', series: [
    {label: 'queued', shared: s => s.runs_queued},
    {label: 'executing', each: s => s.runs_executing}]},
  {id: 'chart-subscribers', title: 'Live subscribers', unit: '', series: [
    {label: 'subscribers', each: s => s.subscribers}]},
  {id: 'chart-deliveries', title: 'Webhook attempts and ingress events per second', unit: '/s', series: [
    {label: 'webhooks delivered', total: s => perSecond(s, 'webhooks_delivered')},
    {label: 'webhooks not delivered', total: s => perSecond(s, 'webhooks_not_delivered')},
    {label: 'ingress events', total: s => perSecond(s, 'ingress_events')}]},
];

function key(sample) {
  return sample.owner + '@' + sample.at;
}

function perSecond(sample, field) {
  return sample[field] * 1000 / sample.interval_ms;
}

const store = {samples: [], sampleMs: 10000, minutes: 15, last: 0};
const plots = new Map();

const chartsView = {
  async refresh() {
    // Asks again for the last two periods: an instance's sample may be stored a little after a
    // later one of another instance's. What the view has already is known by instance start and time.
    let params = store.samples.length === 0 ? {minutes: store.minutes}
      : {minutes: store.minutes, after: Math.max(0, store.last - 2 * store.sampleMs)};
    let answer;
    // A long window comes in pages (`more`), each going on after the last sample's time.
    for (let page = 0; page < 20; page++) {
      answer = await rpc('server/series', params);
      store.sampleMs = answer.sample_ms;
      const from = answer.now - store.minutes * 60000;
      const known = new Set(store.samples.map(key));
      store.samples = store.samples.concat(answer.samples.filter(s => !known.has(key(s))))
        .filter(s => s.at > from).sort((a, b) => a.at - b.at);
      if (store.samples.length) store.last = store.samples[store.samples.length - 1].at;
      if (!answer.more || answer.samples.length === 0) break;
      params = {minutes: store.minutes, after: answer.samples[answer.samples.length - 1].at};
    }
    document.getElementById('charts-updated').textContent =
      `sampled every ${answer.sample_ms / 1000} s; updated ${new Date(answer.now).toLocaleTimeString()}`;
    draw();
  },
};

// Samples of different instances fall on a shared grid of sampling periods.
function moments() {
  const byMoment = new Map();
  for (const s of store.samples) {
    const at = Math.round(s.at / store.sampleMs) * store.sampleMs;
    if (!byMoment.has(at)) byMoment.set(at, new Map());
    byMoment.get(at).set(s.instance, s);
  }
  return [...byMoment.entries()].sort((a, b) => a[0] - b[0]);
}

function draw() {
  const grid = moments();
  const instances = [...new Set(store.samples.map(s => s.instance))].sort();
  const quiet = !store.samples.some(s => s.runs_succeeded + s.runs_failed + s.messages_accepted + s.ingress_events > 0);
  const empty = document.getElementById('charts-empty');
  empty.hidden = !quiet;
  empty.textContent = store.samples.length === 0
    ? `No samples yet: each instance records one every ${store.sampleMs / 1000} s. Send a message ` +
      '(the thread form below, or scripts/switchboard message "hello") and the charts fill in.'
    : `No runs in the last ${store.minutes} minutes: send a message (the thread form below, or ` +
      'scripts/switchboard message "hello") and they show here.';
  const xs = grid.map(([at]) => at / 1000);
  for (const chart of CHARTS) {
    const series = [];
    for (const def of chart.series) {
      if (def.total) {
        series.push({label: def.label, values: grid.map(([, m]) => sum([...m.values()].map(def.total)))});
      } else if (def.shared) {
        series.push({label: def.label, values: grid.map(([, m]) => first([...m.values()].map(def.shared)))});
      } else {
        for (const instance of instances) {
          series.push({label: instances.length > 1 ? `${def.label} (${instance})` : def.label,
            values: grid.map(([, m]) => m.has(instance) ? value(def.each(m.get(instance))) : null)});
        }
      }
    }
    plot(chart, xs, series);
  }
}

function sum(values) {
  return values.reduce((a, b) => a + b, 0);
}

function first(values) {
  const known = values.filter(v => v !== null && v !== undefined);
  return known.length ? known[0] : null;
}

function value(v) {
  return v === undefined ? null : v;
}

function plot(chart, xs, series) {
  const figure = document.getElementById(chart.id);
  const box = figure.querySelector('.plot');
  const data = [xs, ...series.map(s => s.values)];
  // What the page shows in words, and the test reads: the main series' latest and highest values.
  const main = series[0] ? series[0].values.filter(v => v !== null) : [];
  const latest = main.length ? main[main.length - 1] : null;
  figure.dataset.points = String(xs.length);
  figure.dataset.max = String(main.length ? Math.max(...main) : 0);
  figure.dataset.latest = latest === null ? '' : String(latest);
  // The legend: each series in its line's colour (set through the style object, which the page's
  // content security policy allows, unlike style attributes), with its latest value.
  figure.querySelector('.latest').replaceChildren(...series.map((s, i) => {
    const known = s.values.filter(v => v !== null);
    const item = document.createElement('span');
    item.className = 'series';
    item.style.color = COLORS[i % COLORS.length];
    item.dataset.series = s.label;
    item.textContent = known.length ? `■ ${s.label} ${format(known[known.length - 1])}${chart.unit}` : `■ ${s.label} –`;
    return item;
  }));
  const key = series.map(s => s.label).join('|');
  let existing = plots.get(chart.id);
  if (existing && existing.key !== key) {
    existing.plot.destroy();
    existing = null;
  }
  if (!existing) {
    const options = {
      width: Math.max(240, box.clientWidth), height: 150,
      scales: {x: {time: true}, y: {range: (u, min, max) => [0, Number.isFinite(max) ? Math.max(1, max * 1.1) : 1]}},
      series: [{}, ...series.map((s, i) => ({label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5,
        points: {show: xs.length < 3}}))],
      legend: {show: false},
      cursor: {drag: {x: false, y: false}},
    };
    existing = {key, plot: new uPlot(options, data, box)};
    plots.set(chart.id, existing);
  } else {
    existing.plot.setData(data);
  }
}

function format(v) {
  return v >= 100 ? String(Math.round(v)) : String(Math.round(v * 10) / 10);
}

function resize() {
  for (const [id, {plot: p}] of plots) {
    const box = document.getElementById(id).querySelector('.plot');
    p.setSize({width: Math.max(240, box.clientWidth), height: 150});
  }
}

for (const chart of CHARTS) {
  document.getElementById('charts').append(Object.assign(document.createElement('figure'), {id: chart.id, className: 'chart'}));
  const figure = document.getElementById(chart.id);
  const caption = document.createElement('figcaption');
  const title = document.createElement('strong');
  title.textContent = chart.title;
  const latest = document.createElement('div');
  latest.className = 'latest';
  caption.append(title, latest);
  const box = document.createElement('div');
  box.className = 'plot';
  figure.append(caption, box);
}
document.getElementById('charts-window').addEventListener('change', event => {
  store.minutes = Number(event.target.value);
  store.samples = [];
  attempt(() => chartsView.refresh(), 'charts-error');
});
window.addEventListener('resize', resize);
register(chartsView);

// Samples are not notifications: the view asks for new ones each sampling period.
async function poll() {
  await attempt(() => chartsView.refresh(), 'charts-error');
  setTimeout(poll, Math.max(2000, store.sampleMs));
}
poll();
