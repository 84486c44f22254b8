// Draws build/icon.png (512×512) from the same geometry as build/icon.svg, with no image
// library: shapes are tested per sub-pixel (4×4 supersampling) and the result is written as a PNG
// with node:zlib. Run: node build/make-icon.mjs [size]
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = Number(process.argv[2] ?? 512);
const S = SIZE / 512; // geometry below is in the SVG's 512 units
const SS = 4;

const hex = (h) => [parseInt(h.slice(1, 3), 16), parseInt(h.slice(3, 5), 16), parseInt(h.slice(5, 7), 16)];
const BG_TOP = hex('#0d9488');
const BG_BOTTOM = hex('#134e4a');
const PAGE = hex('#f8fafc');
const RING = hex('#134e4a');
const GRID = hex('#cbd5e1');
const LINE = hex('#f97316');
const DOT_CORE = hex('#ffffff');

const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.max(x0 + r, Math.min(x, x1 - r));
  const cy = Math.max(y0 + r, Math.min(y, y1 - r));
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inCircle = (x, y, cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const nearSegment = (x, y, ax, ay, bx, by, halfWidth) => {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= halfWidth * halfWidth;
};

const CHART = [[176, 372], [236, 330], [296, 288], [356, 196]];
const GRID_Y = [200, 264, 328, 392];
const RINGS_Y = [176, 264, 352];

/** The colour at one point of the 512-unit canvas, or null (transparent). Later shapes paint over earlier ones. */
function paint(x, y) {
  let c = null;
  if (inRoundRect(x, y, 32, 32, 480, 480, 96)) {
    const t = (y - 32) / 448;
    c = BG_TOP.map((v, i) => v + (BG_BOTTOM[i] - v) * t);
  }
  if (inRoundRect(x, y, 120, 104, 404, 424, 28)) c = PAGE;
  for (const gy of GRID_Y) if (nearSegment(x, y, 168, gy, 372, gy, 2)) c = GRID;
  for (const ry of RINGS_Y) if (inCircle(x, y, 120, ry, 14)) c = RING;
  for (let i = 0; i + 1 < CHART.length; i++) {
    const [ax, ay] = CHART[i];
    const [bx, by] = CHART[i + 1];
    if (nearSegment(x, y, ax, ay, bx, by, 9)) c = LINE;
  }
  for (const [px, py] of CHART) {
    if (inCircle(x, y, px, py, 17)) c = LINE;
    if (inCircle(x, y, px, py, 7)) c = DOT_CORE;
  }
  return c;
}

const rgba = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++) {
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = paint((px + (sx + 0.5) / SS) / S, (py + (sy + 0.5) / SS) / S);
        if (c) { r += c[0]; g += c[1]; b += c[2]; a += 1; }
      }
    }
    const o = (py * SIZE + px) * 4;
    if (a > 0) {
      rgba[o] = Math.round(r / a); rgba[o + 1] = Math.round(g / a); rgba[o + 2] = Math.round(b / a);
      rgba[o + 3] = Math.round((255 * a) / (SS * SS));
    }
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0); ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; ihdr[9] = 6; // 8-bit RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
]);

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), SIZE === 512 ? 'icon.png' : `icon-${SIZE}.png`);
writeFileSync(out, png);
console.log(`wrote ${out} (${png.length} bytes)`);
