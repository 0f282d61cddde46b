// Small SVG charts for the history screen: a line over the matches and a bar chart. Each is a
// <figure> with the drawing (an image with a short description) and, behind it, the table of
// the same figures for a screen reader (and anyone who opens "The figures").
import { h } from "../ui/dom.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 150;
const PAD = { left: 42, right: 8, top: 10, bottom: 24 };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

/** The <figure>: `drawing` (an <svg>), its title, its description and the figures' table. */
function figure(testid, title, description, drawing, head, rows) {
  const id = `chart-${testid}`;
  drawing.setAttribute("role", "img");
  drawing.setAttribute("aria-labelledby", `${id}-title`);
  drawing.setAttribute("aria-describedby", `${id}-desc`);
  drawing.setAttribute("class", "chart-svg");
  drawing.setAttribute("viewBox", `0 0 ${W} ${H}`);
  return h("figure", { class: "chart", dataset: { testid } },
    h("figcaption", { id: `${id}-title` }, title),
    h("p", { class: "chart-desc field-note", id: `${id}-desc` }, description),
    drawing,
    h("details", { class: "chart-figures" },
      h("summary", {}, "The figures"),
      h("div", { class: "chart-scroll" },
        h("table", { class: "chart-table", dataset: { testid: `${testid}-table` } },
          h("caption", { class: "visually-hidden" }, title),
          h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c, i) => (i ? h("td", {}, String(c)) : h("th", { scope: "row" }, String(c)))))))))));
}

/** The value axis: its ends and its middle, the middle left out on an axis of whole numbers
 * (`whole`) when it falls between two (its label would name a value it is not at). */
function axisY(lo, hi, format, whole = false) {
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (hi === lo ? 0.5 : 1 - (v - lo) / (hi - lo));
  const mid = (lo + hi) / 2;
  const ticks = hi === lo ? [lo] : whole && !Number.isInteger(mid) ? [lo, hi] : [lo, mid, hi];
  return {
    y,
    nodes: ticks.map((t) => [
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(t), y2: y(t), class: "chart-grid" }),
      svg("text", { x: PAD.left - 4, y: y(t) + 4, "text-anchor": "end", class: "chart-label chart-tick" }, format(t)),
    ]),
  };
}

/**
 * A line over the matches: `points` = [{n, value, won}] (n: the match's number; each match a
 * dot, filled when won), `lo`..`hi` the value axis (`whole`: of whole numbers), `format(value)`
 * its words.
 */
export function lineChart({ testid, title, description, points, lo, hi, format, whole = false, head, rows }) {
  const shown = points.filter((p) => Number.isFinite(p.value));
  const first = shown.length ? shown[0].n : 0;
  const last = shown.length ? shown[shown.length - 1].n : 1;
  const x = (n) => PAD.left + (W - PAD.left - PAD.right) * (last === first ? 0.5 : (n - first) / (last - first));
  const axis = axisY(lo, hi, format, whole);
  const path = shown.map((p, i) => `${i ? "L" : "M"}${x(p.n).toFixed(1)},${axis.y(p.value).toFixed(1)}`).join(" ");
  const drawing = svg("svg", {},
    axis.nodes,
    svg("path", { d: path, class: "chart-line", fill: "none" }),
    shown.length <= 60 ? shown.map((p) => svg("circle", { cx: x(p.n), cy: axis.y(p.value), r: 2.5, class: p.won ? "chart-dot is-won" : "chart-dot" })) : null,
    svg("text", { x: PAD.left, y: H - 6, class: "chart-label" }, `match ${first}`),
    svg("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", class: "chart-label" }, `match ${last}`));
  return figure(testid, title, description, drawing, head, rows);
}

/** Bars: `bins` = [{label, count}], the count's axis from 0. */
export function barChart({ testid, title, description, bins, head, rows }) {
  const most = Math.max(1, ...bins.map((b) => b.count));
  const axis = axisY(0, most, (v) => String(Math.round(v)), true);
  const slot = (W - PAD.left - PAD.right) / Math.max(1, bins.length);
  const drawing = svg("svg", {},
    axis.nodes,
    bins.map((b, i) => {
      const top = axis.y(b.count);
      return svg("g", {},
        svg("rect", { x: PAD.left + i * slot + slot * 0.15, y: top, width: slot * 0.7, height: Math.max(0, axis.y(0) - top), class: b.good ? "chart-bar is-good" : "chart-bar" }),
        svg("text", { x: PAD.left + i * slot + slot / 2, y: H - 6, "text-anchor": "middle", class: "chart-label" }, b.label));
    }));
  return figure(testid, title, description, drawing, head, rows);
}
