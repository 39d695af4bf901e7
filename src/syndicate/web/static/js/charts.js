// The evening's pictures, drawn by uPlot (vendored: static/vendor/uplot, MIT). The series come
// from the server in cents, aligned on one list of times (unix seconds); money is shown in
// dollars only here. A line is a step: chips change at a transaction and hold until the next.
import uPlot from "../vendor/uplot/uPlot.esm.js";
import { h, money } from "./common.js";

const COLOURS = ["#0b5d3b", "#c0262d", "#0a5ea8", "#a8832e", "#6b3fa0", "#2a7f8f", "#d2691e", "#555"];

/** A whole-dollar axis label: "$1,250", "−$40" (the cents are in the legend). */
function axisDollars(v) {
  const cents = Math.round(v * 100);
  const whole = money(Math.round(cents / 100) * 100);
  return whole.endsWith(".00") ? whole.slice(0, -3) : whole;
}

/** The time axis's steps, in seconds: a second to a day. */
const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/** The charts drawn in each element, so that drawing again replaces them (and their resize
 * watcher) rather than piling up. */
const drawn = new WeakMap();

/** Draw ``data`` ({times, series: [{label, values}]}) into ``el``; returns the uPlot or null.
 * The axes' labels keep apart at every width: the time axis takes fewer ticks on a narrow
 * screen, the money axis is as wide as its longest label. */
export function stepChart(el, data, { title, height = 240 } = {}) {
  const before = drawn.get(el);
  if (before) {
    before.observer.disconnect();
    before.chart.destroy();
    drawn.delete(el);
  }
  const series = (data && data.series) || [];
  if (!data || !data.times.length || !series.length) {
    el.replaceChildren(h("p", { class: "muted", "data-testid": "chart-empty" }, "Nothing yet: no chips have moved."));
    return null;
  }
  // carry the last values to now, so a line reaches the present (and one point still draws)
  const now = Math.max(Date.now() / 1000, data.times[data.times.length - 1] + 1);
  const xs = [...data.times, now];
  const ys = series.map((s) => [...s.values, s.values[s.values.length - 1]].map((v) => v / 100));
  const dollars = (v) => (v === null || v === undefined ? "—" : money(Math.round(v * 100)));
  el.replaceChildren();
  el.dataset.points = String(data.times.length);
  el.dataset.series = String(series.length);
  const width = () => Math.max(260, el.clientWidth || 600);
  // The money axis: as wide as the widest label it will show, measured in the page's font.
  const moneyAxisSize = (u, values) => {
    if (!values) return 50;
    const ctx = u.ctx;
    ctx.font = "12px system-ui, sans-serif";
    return Math.ceil(Math.max(...values.map((v) => ctx.measureText(v).width))) + 18;
  };
  const opts = {
    title, height, width: width(),
    scales: { x: { time: true } },
    series: [{}, ...series.map((s, i) => ({
      label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2, value: (_u, v) => dollars(v),
      paths: uPlot.paths.stepped({ align: 1 }),
    }))],
    axes: [
      // whole seconds at the least: an evening's first minute has no "53.500"
      { space: 80, font: "12px system-ui, sans-serif", gap: 4, incrs: TIME_STEPS },
      { space: 36, font: "12px system-ui, sans-serif", size: moneyAxisSize, values: (_u, ticks) => ticks.map(axisDollars) },
    ],
  };
  const chart = new uPlot(opts, [xs, ...ys], el);
  const observer = new ResizeObserver(() => chart.setSize({ width: width(), height }));
  observer.observe(el);
  drawn.set(el, { chart, observer });
  return chart;
}
