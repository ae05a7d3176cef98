// The live page: one panel per scenario, its charts redrawn on every
// point from /events, and the run's summary at the end. Plain canvas, no
// library, so the page needs nothing from the network but this server.
"use strict";

// window.dashboard is what a test (or a curious user) can read: how many
// points arrived, how many chart redraws happened, and whether the
// summary came.
const dashboard = (window.dashboard = { points: 0, updates: 0, summary: false, overlay: {} });

// The overlay: every scenario on one set of axes, time from each one's own
// start, so baseline and candidate compare at a glance. window.dashboard.
// overlay[chart title] lists the scenarios drawn and the capacity line.
const OVERLAY = [
  { title: "OK/s, every scenario", key: "ok_per_s" },
  { title: "p99 latency of OK responses (s), every scenario", key: "latency_p99_s" },
  { title: "Busy workers vs capacity (-metric-workers), every scenario", key: "workers_busy", capacity: true, blocked: true },
];
const SCENARIO_COLORS = ["#c0392b", "#2760ae", "#27ae60", "#8e44ad", "#e67e22", "#2c3e50"];
const overlayCharts = [];

const CHARTS = [
  { title: "Throughput (per second)", series: [
    { key: "ok_per_s", name: "OK/s", color: "#2e8b57" },
    { key: "status_503_per_s", name: "503/s", color: "#d1453b" },
    { key: "errors_per_s", name: "errors/s", color: "#e0a030" } ] },
  { title: "Latency of OK responses (s)", series: [
    { key: "latency_p50_s", name: "p50", color: "#3a6fd8" },
    { key: "latency_p99_s", name: "p99", color: "#8e44ad" } ] },
  { title: "Users", series: [ { key: "users", name: "users", color: "#4b5563" } ] },
  { title: "Server (from /metrics)", server: true, series: [
    { key: "queue_length", name: "queue length", color: "#c0392b" },
    { key: "workers_busy", name: "busy workers", color: "#16a085" } ] },
];

const panels = new Map(); // scenario name → {points, charts, users}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, attrs || {});
  for (const c of children) e.append(c);
  return e;
}

function panel(name) {
  let p = panels.get(name);
  if (p) return p;
  const head = el("span", { textContent: "" });
  const grid = el("div", { className: "charts" });
  const section = el("section", { className: "scenario" }, el("h2", { textContent: name + " " }, head), grid);
  p = { points: [], charts: [], head };
  for (const spec of CHARTS) {
    const canvas = el("canvas");
    const legend = el("div", { className: "legend" });
    for (const s of spec.series) legend.append(el("i", { style: "background:" + s.color }), s.name);
    const box = el("div", { className: "chart" }, el("h3", { textContent: spec.title }), legend, canvas);
    if (spec.server) box.hidden = true;
    grid.append(box);
    p.charts.push({ spec, canvas, box });
  }
  document.getElementById("scenarios").append(section);
  panels.set(name, p);
  return p;
}

// niceStep is the 1-2-5 step that cuts span into at most n parts, so
// every tick is a round number (no 62.5 or 14.3).
function niceStep(span, n) {
  if (!(span > 0)) return 1;
  const raw = span / n, exp = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * exp >= raw) return m * exp;
  return 10 * exp;
}

// niceMax is the first multiple of the 1-2-5 step at or above v.
function niceMax(v) {
  if (!(v > 0)) return 1;
  const step = niceStep(v, 4);
  return Math.ceil(v / step - 1e-9) * step;
}

function fmt(v) {
  if (v == null) return "–"; // unknown (a second without an OK response), not 0
  if (v === 0) return "0";
  if (v >= 100) return v.toFixed(0);
  if (v >= 1) return v.toFixed(1).replace(/\.0$/, "");
  return v.toPrecision(2);
}

// clearCanvas sizes canvas to its layout box at the device's pixel ratio,
// so lines stay sharp, and returns a cleared context in CSS pixels.
function clearCanvas(canvas) {
  const ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  canvas.width = Math.round(w * ratio);
  canvas.height = Math.round(h * ratio);
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, w, h);
  return { ctx, w, h };
}

function draw(chart, points) {
  const { canvas, spec } = chart;
  const { ctx, w, h } = clearCanvas(canvas);
  const left = 44, right = 8, top = 8, bottom = 20;
  const pw = w - left - right, ph = h - top - bottom;
  const t0 = points[0].t, span = Math.max(points[points.length - 1].t - t0, 1);
  let ymax = 0;
  for (const p of points) for (const s of spec.series) if (p[s.key] != null) ymax = Math.max(ymax, p[s.key]);
  axes(ctx, left, top, pw, ph, span, niceMax(ymax));
  ymax = niceMax(ymax);
  ctx.lineWidth = 2;
  for (const s of spec.series) {
    ctx.strokeStyle = s.color;
    ctx.beginPath();
    let started = false;
    for (const p of points) {
      const v = p[s.key];
      if (v == null) { started = false; continue; }
      const x = left + (pw * (p.t - t0)) / span, y = top + ph - (ph * v) / ymax;
      if (started) ctx.lineTo(x, y); else ctx.moveTo(x, y);
      started = true;
    }
    ctx.stroke();
  }
}

// axes draws the grid and round ticks: y from 0 to ymax, x from 0 to span
// seconds, both in 1-2-5 steps.
function axes(ctx, left, top, pw, ph, span, ymax) {
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#6b7385";
  ctx.strokeStyle = "#e3e7ee";
  ctx.lineWidth = 1;
  const ystep = niceStep(ymax, 4);
  for (let v = 0; v <= ymax + 1e-9; v += ystep) {
    const y = top + ph - (ph * v) / ymax;
    ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + pw, y); ctx.stroke();
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    ctx.fillText(fmt(v), left - 4, y);
  }
  ctx.textBaseline = "top";
  const xstep = niceStep(span, 5);
  for (let v = 0; v <= span + 1e-9; v += xstep) {
    const x = left + (pw * v) / span;
    ctx.textAlign = v === 0 ? "left" : x > left + pw - 20 ? "right" : "center";
    ctx.fillText(fmt(v) + " s", x, top + ph + 4);
  }
}

function overlay() {
  if (overlayCharts.length) return overlayCharts;
  const grid = document.getElementById("overlay-charts");
  for (const spec of OVERLAY) {
    const canvas = el("canvas"), legend = el("div", { className: "legend" });
    const box = el("div", { className: "chart" }, el("h3", { textContent: spec.title }), legend, canvas);
    grid.append(box);
    overlayCharts.push({ spec, canvas, legend, box });
  }
  document.getElementById("overlay").hidden = false;
  return overlayCharts;
}

// drawOverlay draws one overlay chart: a line per scenario, its time from
// that scenario's start, on one y axis; the capacity as a dashed line and
// the watcher's blocked-holding series dotted, when the service has them.
function drawOverlay(chart) {
  const { canvas, spec, legend } = chart;
  const { ctx, w, h } = clearCanvas(canvas);
  const left = 44, right = 8, top = 8, bottom = 20;
  const pw = w - left - right, ph = h - top - bottom;
  const names = [...panels.keys()];
  let span = 1, ymax = 0, capacity = null, blocked = false;
  for (const name of names) {
    const pts = panels.get(name).points;
    if (!pts.length) continue;
    span = Math.max(span, pts[pts.length - 1].t - pts[0].t);
    for (const p of pts) {
      if (p[spec.key] != null) ymax = Math.max(ymax, p[spec.key]);
      if (spec.capacity && p.workers != null) capacity = Math.max(capacity || 0, p.workers);
      if (spec.blocked && p.blocked_holding_worker != null) { blocked = true; ymax = Math.max(ymax, p.blocked_holding_worker); }
    }
  }
  if (capacity != null) ymax = Math.max(ymax, capacity * 1.1);
  ymax = niceMax(ymax);
  axes(ctx, left, top, pw, ph, span, ymax);
  const drawn = [];
  legend.replaceChildren();
  names.forEach((name, i) => {
    const pts = panels.get(name).points;
    if (!pts.some((p) => p[spec.key] != null)) return;
    const color = SCENARIO_COLORS[i % SCENARIO_COLORS.length];
    line(ctx, pts, spec.key, color, [], left, top, pw, ph, span, ymax);
    legend.append(el("i", { style: "background:" + color }), name);
    drawn.push(name);
    if (blocked && pts.some((p) => p.blocked_holding_worker != null)) {
      line(ctx, pts, "blocked_holding_worker", color, [2, 3], left, top, pw, ph, span, ymax);
      legend.append(el("i", { style: "background:" + color + ";opacity:0.5" }), name + " blocked holding a worker");
    }
  });
  if (capacity != null) {
    const y = top + ph - (ph * capacity) / ymax;
    ctx.save();
    ctx.strokeStyle = "#111827"; ctx.lineWidth = 1.5; ctx.setLineDash([6, 4]);
    ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + pw, y); ctx.stroke();
    ctx.restore();
    ctx.fillStyle = "#111827"; ctx.textAlign = "right"; ctx.textBaseline = "bottom";
    ctx.fillText("capacity " + fmt(capacity), left + pw, y - 2);
    legend.append(el("i", { style: "background:#111827" }), "capacity");
  }
  chart.box.hidden = drawn.length === 0;
  dashboard.overlay[spec.title] = { scenarios: drawn, capacity, ymax, blocked };
}

function line(ctx, pts, key, color, dash, left, top, pw, ph, span, ymax) {
  const t0 = pts[0].t;
  ctx.save();
  ctx.strokeStyle = color; ctx.lineWidth = 2; ctx.setLineDash(dash);
  ctx.beginPath();
  let started = false;
  for (const p of pts) {
    const v = p[key];
    if (v == null) { started = false; continue; }
    const x = left + (pw * (p.t - t0)) / span, y = top + ph - (ph * v) / ymax;
    if (started) ctx.lineTo(x, y); else ctx.moveTo(x, y);
    started = true;
  }
  ctx.stroke();
  ctx.restore();
}

function redraw(p) {
  for (const c of p.charts) {
    if (c.spec.server) {
      if (!p.points.some((q) => q.queue_length != null || q.workers_busy != null)) continue;
      c.box.hidden = false;
    }
    draw(c, p.points);
    dashboard.updates++;
  }
}

function onPoint(pt) {
  dashboard.points++;
  pt.t = Date.parse(pt.time) / 1000;
  const p = panel(pt.scenario);
  p.points.push(pt);
  const step = pt.step === 0 ? "warm-up" : `step ${pt.step} of ${pt.steps}`;
  p.head.textContent = `${step}, ${pt.users} users, ${fmt(pt.ok_per_s)} OK/s, ${fmt(pt.status_503_per_s)} 503/s, p99 ${fmt(pt.latency_p99_s)} s`;
  const eta = Math.round(pt.eta_s || 0);
  document.getElementById("status").textContent = `running ${pt.scenario}: ${p.head.textContent}; ETA ${Math.floor(eta / 60)}:${String(eta % 60).padStart(2, "0")}`;
  redraw(p);
  for (const c of overlay()) drawOverlay(c);
}

function onSummary(final) {
  const sum = final.summary || {};
  dashboard.summary = true;
  document.getElementById("status").textContent = "finished";
  document.getElementById("headline").textContent = final.text || "";
  // What the run could not see (a -metrics URL down, a selector matching
  // nothing), in the same words as the terminal and summary.json.
  const warnings = document.getElementById("warnings");
  warnings.replaceChildren(...(sum.warnings || []).map((w) => el("li", { textContent: w })));
  warnings.hidden = !(sum.warnings || []).length;
  const body = document.querySelector("#steps tbody");
  body.replaceChildren();
  // Without the server's /metrics its columns are unknown, not zero: "–",
  // as in the terminal's table and summary.md.
  // A step without a /metrics sample, a selector that matched nothing, or
  // a process figure whose collector the service does not register is
  // null in summary.json: "–" too (the warnings above say which and why).
  const server = (v, digits, st) => (sum.no_server_metrics || st.server_missing || v == null ? "–" : v.toFixed(digits));
  for (const sc of sum.scenarios || []) {
    for (const st of sc.steps || []) {
      // An open loop's step shows its asked rate, and what it sent when
      // that fell short (marked, with the cause on hover), as the
      // terminal's table does.
      let load = st.users;
      let loadWhy = "";
      if (st.rate_per_s) {
        load = `${st.rate_per_s}/s`;
        if (st.sent && st.sent.short) {
          load += ` (sent ${st.sent.rate_per_s.toFixed(0)})*`;
          loadWhy = `sent ${st.sent.rate_per_s.toFixed(1)}/s of ${st.rate_per_s}/s; the limit: ${st.sent.cause}`;
        }
      }
      const codes = Object.entries(st.statuses || {}).filter(([c]) => c !== "0")
        .sort((a, b) => Number(a[0]) - Number(b[0])).map(([c, n]) => `${c}:${n}`)
        .concat(Object.entries(st.error_kinds || {}).sort().map(([k, n]) => `0(${k}):${n}`));
      const cells = [sc.name, load, st.throughput_rps.toFixed(1), st.status_503, st.errors + st.timeouts,
        // Latencies are of OK responses: "–" for a step without one.
        ...[st.latency_mean_s, st.latency_p50_s, st.latency_p99_s].map((v) => (v == null ? "–" : v.toFixed(3))),
        server(st.queue_length_max, 0, st), server(st.workers_busy_mean, 1, st),
        server(st.server_rss_bytes == null ? null : st.server_rss_bytes / 1e6, 0, st),
        server(st.server_cpu_cores, 2, st), server(st.server_goroutines, 0, st),
        // The load generator's own CPU share and the machine's idle share:
        // "–" where not measured.
        st.generator_cpu == null ? "–" : (100 * st.generator_cpu).toFixed(0),
        st.host_cpu_idle == null ? "–" : (100 * st.host_cpu_idle).toFixed(0),
        // Request goroutines the API's blocking watcher saw parked in I/O
        // holding a worker: "–" without a watcher.
        st.blocked_holding_worker_mean == null ? "–" : st.blocked_holding_worker_mean.toFixed(1),
        codes.length ? codes.join(" ") : "–"];
      const row = el("tr", {}, ...cells.map((c) => el("td", { textContent: String(c) })));
      if (loadWhy) row.cells[1].title = loadWhy;
      body.append(row);
    }
  }
  document.getElementById("summary").hidden = false;
}

const source = new EventSource("events");
source.onopen = () => { document.getElementById("status").textContent = "connected, waiting for the first second…"; };
source.onmessage = (e) => onPoint(JSON.parse(e.data));
source.addEventListener("summary", (e) => {
  onSummary(JSON.parse(e.data));
  source.close(); // the run is over; the server goes away next
});
window.addEventListener("resize", () => { panels.forEach(redraw); overlayCharts.forEach(drawOverlay); });
