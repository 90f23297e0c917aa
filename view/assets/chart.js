// The query-time chart: the time of every step's query, the steps in
// contact as ticks under the axis, and the current step marked. Clicking
// or dragging on it seeks.

export class Chart {
  // canvas: the <canvas>; time: seconds by step; contact: by step, true
  // when the step has a contact; label names the time; onSeek(step) is
  // called on a click or drag.
  constructor(canvas, time, contact, label, onSeek) {
    this.label = label;
    this.canvas = canvas;
    this.time = time;
    this.contact = contact;
    this.step = 0;
    const seek = (e) => onSeek(this.stepAt(e.offsetX));
    canvas.addEventListener('pointerdown', (e) => {
      canvas.setPointerCapture(e.pointerId);
      seek(e);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (canvas.hasPointerCapture(e.pointerId)) seek(e);
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  // The plot's area, in CSS pixels.
  area() {
    const w = this.canvas.clientWidth, h = this.canvas.clientHeight;
    return { x: 64, y: 6, w: Math.max(w - 72, 1), h: Math.max(h - 26, 1) };
  }

  stepAt(px) {
    const a = this.area(), n = this.time.length;
    const s = Math.floor(((px - a.x) / a.w) * n);
    return Math.min(Math.max(s, 0), n - 1);
  }

  mark(step) {
    this.step = step;
    this.draw();
  }

  draw() {
    const c = this.canvas, dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth, h = c.clientHeight;
    if (w === 0 || h === 0) return;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const a = this.area(), n = this.time.length;
    if (n === 0) return;
    let top = 0;
    for (const t of this.time) top = Math.max(top, t);
    top = niceCeil(top * 1e6); // µs

    // Axes and the scale.
    g.strokeStyle = '#3a434f';
    g.beginPath();
    g.moveTo(a.x, a.y);
    g.lineTo(a.x, a.y + a.h);
    g.lineTo(a.x + a.w, a.y + a.h);
    g.stroke();
    g.fillStyle = '#8f99a5';
    g.font = '11px system-ui, sans-serif';
    g.textAlign = 'right';
    g.fillText(formatMicros(top), a.x - 4, a.y + 9);
    g.fillText('0', a.x - 4, a.y + a.h);
    g.save();
    g.translate(9, a.y + a.h / 2);
    g.rotate(-Math.PI / 2);
    g.textAlign = 'center';
    g.fillText(this.label, 0, 0);
    g.restore();

    // The time: per pixel column, the least and the most of its steps.
    g.fillStyle = '#4aa3ff';
    const cols = Math.floor(a.w);
    for (let x = 0; x < cols; x++) {
      const s0 = Math.floor((x / cols) * n), s1 = Math.max(Math.floor(((x + 1) / cols) * n), s0 + 1);
      let lo = Infinity, hi = 0;
      for (let s = s0; s < s1 && s < n; s++) {
        lo = Math.min(lo, this.time[s]);
        hi = Math.max(hi, this.time[s]);
      }
      if (hi === 0) continue;
      const y0 = a.y + a.h - (hi * 1e6 / top) * a.h, y1 = a.y + a.h - (lo * 1e6 / top) * a.h;
      g.fillRect(a.x + x, y0, 1, Math.max(y1 - y0, 1));
    }

    // The steps in contact.
    g.fillStyle = '#ff3b30';
    for (let s = 0; s < n; s++) {
      if (this.contact[s]) g.fillRect(a.x + (s / n) * a.w, a.y + a.h + 3, Math.max(a.w / n, 1), 5);
    }

    // The current step.
    const x = a.x + ((this.step + 0.5) / n) * a.w;
    g.strokeStyle = '#ffffff';
    g.beginPath();
    g.moveTo(x, a.y);
    g.lineTo(x, a.y + a.h + 8);
    g.stroke();
    g.textAlign = x > a.x + a.w - 120 ? 'right' : 'left';
    g.fillStyle = '#d8dde3';
    g.fillText(`step ${this.step}: ${formatMicros(this.time[this.step] * 1e6)}`, x + (g.textAlign === 'left' ? 4 : -4), a.y + 9);
  }
}

// niceCeil rounds x up to 1, 2 or 5 times a power of ten.
function niceCeil(x) {
  if (!(x > 0)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

// formatMicros formats a time in µs.
export function formatMicros(us) {
  if (us >= 1e6) return (us / 1e6).toPrecision(3) + ' s';
  if (us >= 1e3) return (us / 1e3).toPrecision(3) + ' ms';
  return us.toPrecision(3) + ' µs';
}
