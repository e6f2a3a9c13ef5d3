import type { Series } from '../lib/overview-figures.js';

const TILE = 8;

/**
 * A fill that tells series apart without colour: stripes, a grid or dots drawn in the series'
 * colour over a light tint of it (solid stays solid). Device pixels, so that a phone's screen
 * draws them as sharply as a desktop's.
 */
export function patternFill(ctx: CanvasRenderingContext2D, series: Series): CanvasPattern | string {
  if (series.pattern === 'solid' || series.pattern === 'line' || series.pattern === 'dashed') {
    return series.color;
  }
  const ratio = Math.max(1, Math.round(window.devicePixelRatio || 1));
  const tile = document.createElement('canvas');
  tile.width = TILE * ratio;
  tile.height = TILE * ratio;
  const draw = tile.getContext('2d');
  if (!draw) return series.color;
  draw.scale(ratio, ratio);
  draw.fillStyle = `${series.color}33`;
  draw.fillRect(0, 0, TILE, TILE);
  draw.strokeStyle = series.color;
  draw.fillStyle = series.color;
  draw.lineWidth = 2;
  if (series.pattern === 'stripes') {
    draw.beginPath();
    draw.moveTo(-2, TILE + 2);
    draw.lineTo(TILE + 2, -2);
    draw.moveTo(-2, 2);
    draw.lineTo(2, -2);
    draw.moveTo(TILE - 2, TILE + 2);
    draw.lineTo(TILE + 2, TILE - 2);
    draw.stroke();
  } else if (series.pattern === 'grid') {
    draw.lineWidth = 1.5;
    draw.strokeRect(0.75, 0.75, TILE - 1.5, TILE - 1.5);
    draw.beginPath();
    draw.moveTo(0, 0);
    draw.lineTo(TILE, TILE);
    draw.moveTo(TILE, 0);
    draw.lineTo(0, TILE);
    draw.stroke();
  } else {
    draw.beginPath();
    draw.arc(TILE / 2, TILE / 2, 1.8, 0, 2 * Math.PI);
    draw.fill();
  }
  const pattern = ctx.createPattern(tile, 'repeat');
  pattern?.setTransform(new DOMMatrix().scale(1 / ratio));
  return pattern ?? series.color;
}
