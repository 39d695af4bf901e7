// The evening's pictures, drawn by uPlot (vendored: static/vendor/uplot, MIT). The series come
// from the server in cents, aligned on one list of times (unix seconds); money is shown in
// dollars only here. A line is a step: chips change at a transaction and hold until the next.
import uPlot from "../vendor/uplot/uPlot.esm.js";
import { h, money } from "./common.js";

const COLOURS = ["#0b5d3b", "#c0262d", "#0a5ea8", "#a8832e", "#6b3fa0", "#2a7f8f", "#d2691e", "#555"];

/** Draw ``data`` ({times, series: [{label, values}]}) into ``el``; returns the uPlot or null. */
export function stepChart(el, data, { title, height = 240 } = {}) {
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
  const opts = {
    title, height, width: Math.max(260, el.clientWidth || 600),
    scales: { x: { time: true } },
    series: [{}, ...series.map((s, i) => ({
      label: s.label, stroke: COLOURS[i % COLOURS.length], width: 2, value: (_u, v) => dollars(v),
      paths: uPlot.paths.stepped({ align: 1 }),
    }))],
    axes: [{}, { size: 70, values: (_u, ticks) => ticks.map(dollars) }],
  };
  const chart = new uPlot(opts, [xs, ...ys], el);
  const fit = () => chart.setSize({ width: Math.max(260, el.clientWidth || 600), height });
  if (window.ResizeObserver) new ResizeObserver(fit).observe(el);
  return chart;
}
