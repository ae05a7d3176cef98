// The live page: one panel per scenario, its charts redrawn on every
// point from /events, and the run's summary at the end. Plain canvas, no
// library, so the page needs nothing from the network but this server.
"use strict";

// window.dashboard is what a test (or a curious user) can read: how many
// points arrived, how many chart redraws happened, and whether the
// summary came.
const dashboard = (window.dashboard = { points: 0, updates: 0, summary: false });

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

function niceMax(v) {
  if (!(v > 0)) return 1;
  const exp = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * exp >= v) return m * exp;
  return 10 * exp;
}

function fmt(v) {
  if (v === 0) return "0";
  if (v >= 100) return v.toFixed(0);
  if (v >= 1) return v.toFixed(1).replace(/\.0$/, "");
  return v.toPrecision(2);
}

function draw(chart, points) {
  const { canvas, spec } = chart;
  const ratio = window.devicePixelRatio || 1;
  const w = canvas.clientWidth, h = canvas.clientHeight;
  canvas.width = Math.round(w * ratio);
  canvas.height = Math.round(h * ratio);
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  ctx.clearRect(0, 0, w, h);
  const left = 44, right = 8, top = 8, bottom = 20;
  const pw = w - left - right, ph = h - top - bottom;
  const t0 = points[0].t, span = Math.max(points[points.length - 1].t - t0, 1);
  let ymax = 0;
  for (const p of points) for (const s of spec.series) if (p[s.key] != null) ymax = Math.max(ymax, p[s.key]);
  ymax = niceMax(ymax);
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#6b7385";
  ctx.strokeStyle = "#e3e7ee";
  ctx.lineWidth = 1;
  for (let i = 0; i <= 4; i++) {
    const y = top + ph - (ph * i) / 4;
    ctx.beginPath(); ctx.moveTo(left, y); ctx.lineTo(left + pw, y); ctx.stroke();
    ctx.textAlign = "right"; ctx.textBaseline = "middle";
    ctx.fillText(fmt((ymax * i) / 4), left - 4, y);
  }
  ctx.textBaseline = "top";
  for (let i = 0; i <= 4; i++) {
    ctx.textAlign = i === 0 ? "left" : i === 4 ? "right" : "center";
    ctx.fillText(fmt((span * i) / 4) + " s", left + (pw * i) / 4, top + ph + 4);
  }
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
  const step = pt.step === 0 ? "warm-up" : "step " + pt.step;
  p.head.textContent = `${step}, ${pt.users} users, ${fmt(pt.ok_per_s)} OK/s, ${fmt(pt.status_503_per_s)} 503/s, p99 ${fmt(pt.latency_p99_s)} s`;
  document.getElementById("status").textContent = `running ${pt.scenario}: ${p.head.textContent}`;
  redraw(p);
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
  // A step without a /metrics sample, or a selector that matched nothing,
  // is null in summary.json: "–" too.
  const server = (v, digits, st) => (sum.no_server_metrics || st.server_missing || v == null ? "–" : v.toFixed(digits));
  for (const sc of sum.scenarios || []) {
    for (const st of sc.steps || []) {
      const cells = [sc.name, st.users, st.throughput_rps.toFixed(1), st.status_503, st.errors + st.timeouts,
        st.latency_mean_s.toFixed(3), st.latency_p50_s.toFixed(3), st.latency_p99_s.toFixed(3),
        server(st.queue_length_max, 0, st), server(st.workers_busy_mean, 1, st),
        // The load generator's own CPU share and the machine's idle share:
        // "–" where not measured.
        st.generator_cpu == null ? "–" : (100 * st.generator_cpu).toFixed(0),
        st.host_cpu_idle == null ? "–" : (100 * st.host_cpu_idle).toFixed(0)];
      body.append(el("tr", {}, ...cells.map((c) => el("td", { textContent: String(c) }))));
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
window.addEventListener("resize", () => panels.forEach(redraw));
