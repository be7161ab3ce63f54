import sharp from 'sharp';
import type { RgbaImage } from '../src/geometry/render/image.ts';

export interface SheetCell {
  /** An encoded image (PNG, JPEG, ...) or a raw render. */
  image: Uint8Array | RgbaImage;
  label?: string;
}

export interface SheetOptions {
  columns: number;
  /** Each image is scaled to fit this box, keeping its aspect ratio. */
  cellWidth: number;
  cellHeight: number;
  /** Height of the label strip under each image; default 28. */
  labelHeight?: number;
  /** Space between and around cells; default 12. */
  gap?: number;
  /** Default white. */
  background?: [number, number, number];
  /** A heading over the grid. */
  title?: string;
}

const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';

/** Lays out labelled images in a grid and returns it as one PNG (for documentation galleries). */
export async function contactSheet(cells: SheetCell[], opts: SheetOptions): Promise<Uint8Array> {
  if (cells.length === 0) throw new RangeError('contactSheet: no cells');
  const labelH = opts.labelHeight ?? 28;
  const gap = opts.gap ?? 12;
  const [r, g, b] = opts.background ?? [255, 255, 255];
  const titleH = opts.title ? Math.round(labelH * 1.6) : 0;
  const columns = Math.min(opts.columns, cells.length);
  const rows = Math.ceil(cells.length / columns);
  const pitchX = opts.cellWidth + gap;
  const pitchY = opts.cellHeight + labelH + gap;
  const width = gap + columns * pitchX;
  const height = gap + titleH + rows * pitchY;
  const fontSize = Math.round(labelH * 0.6);

  const layers: sharp.OverlayOptions[] = [];
  const texts: string[] = [];
  if (opts.title) texts.push(svgText(opts.title, width / 2, gap + titleH * 0.6, Math.round(titleH * 0.55), width - 2 * gap, true));
  for (const [i, cell] of cells.entries()) {
    const left = gap + (i % columns) * pitchX;
    const top = gap + titleH + Math.floor(i / columns) * pitchY;
    const source =
      cell.image instanceof Uint8Array
        ? sharp(cell.image)
        : sharp(cell.image.rgba, { raw: { width: cell.image.width, height: cell.image.height, channels: 4 } });
    const fitted = await source
      .resize(opts.cellWidth, opts.cellHeight, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
    layers.push({ input: fitted, left, top });
    if (cell.label) texts.push(svgText(cell.label, left + opts.cellWidth / 2, top + opts.cellHeight + labelH * 0.72, fontSize, opts.cellWidth, false));
  }
  if (texts.length > 0) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${texts.join('')}</svg>`;
    layers.push({ input: Buffer.from(svg), left: 0, top: 0 });
  }
  const png = await sharp({ create: { width, height, channels: 4, background: { r, g, b, alpha: 1 } } })
    .composite(layers)
    .png()
    .toBuffer();
  return new Uint8Array(png.buffer, png.byteOffset, png.length);
}

/** One centred line of text, shortened with an ellipsis to fit `maxWidth` (estimated at 0.6 em a character). */
function svgText(text: string, x: number, y: number, size: number, maxWidth: number, bold: boolean): string {
  const fits = Math.max(1, Math.floor(maxWidth / (size * 0.6)));
  const shown = text.length > fits ? `${text.slice(0, fits - 1)}…` : text;
  const escaped = shown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<text x="${x}" y="${y}" font-family="${FONT}" font-size="${size}" ${bold ? 'font-weight="bold" ' : ''}text-anchor="middle" fill="#222">${escaped}</text>`;
}
