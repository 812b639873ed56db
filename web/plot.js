// ratingPlot draws each bot's rating after each of its rated matches as a line.
import { s, seatColors } from './common.js';

export function ratingPlot(series) {
  const W = 720, H = 260, pad = 36;
  const pts = series.flatMap((x) => x.points);
  const svg = s('svg', { class: 'plot', viewBox: `0 0 ${W} ${H}`, width: W, height: H });
  if (!pts.length) { svg.append(s('text', { x: pad, y: H / 2 }, 'no rated matches yet')); return svg; }
  const maxX = Math.max(1, ...pts.map((p) => p.x));
  const minY = Math.min(...pts.map((p) => p.y)), maxY = Math.max(...pts.map((p) => p.y));
  const spanY = maxY - minY || 1;
  const X = (x) => pad + (x / maxX) * (W - 2 * pad);
  const Y = (y) => H - pad - ((y - minY) / spanY) * (H - 2 * pad);
  svg.append(s('line', { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, stroke: '#3a4358' }),
    s('line', { x1: pad, y1: pad, x2: pad, y2: H - pad, stroke: '#3a4358' }),
    s('text', { x: 2, y: Y(maxY) + 4 }, maxY.toFixed(1)), s('text', { x: 2, y: Y(minY) + 4 }, minY.toFixed(1)),
    s('text', { x: W - pad - 120, y: H - 8 }, 'rated matches →'));
  series.forEach((ser, i) => {
    if (!ser.points.length) return;
    const color = seatColors[i % seatColors.length];
    svg.append(s('polyline', { class: 'series', 'data-bot': ser.name, fill: 'none', stroke: color, 'stroke-width': 2, points: ser.points.map((p) => `${X(p.x)},${Y(p.y)}`).join(' ') }),
      s('text', { x: W - pad + 2 - 100, y: pad + 14 * i, fill: color, style: `fill:${color}` }, ser.name));
  });
  return svg;
}
