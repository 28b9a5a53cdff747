// The minimap of a large graph sets pixels instead of filling paths: each node lands on the
// device pixels of its box, in its colour; a colour it cannot read falls back to paths.
import { describe, expect, it } from "vitest";
import { paintPixels } from "../canvas/MiniMap";

function fakeContext(w: number, h: number) {
  let put: ImageData | null = null;
  const ctx = {
    canvas: { width: w, height: h },
    createImageData: (bw: number, bh: number) => ({ width: bw, height: bh, data: new Uint8ClampedArray(bw * bh * 4) }),
    putImageData: (img: ImageData) => {
      put = img;
    },
  } as unknown as CanvasRenderingContext2D;
  return { ctx, put: () => put };
}

describe("minimap pixels", () => {
  // Two nodes of 200 x 60: a at (0, 0), b at (1000, 500); as the overview scene holds them.
  const boxes = (color: string[]) => ({
    x: Float64Array.from([0, 1000]).slice(0, color.length),
    y: Float64Array.from([0, 500]).slice(0, color.length),
    w: Float64Array.from([200, 200]).slice(0, color.length),
    h: Float64Array.from([60, 60]).slice(0, color.length),
    color,
  });
  const at = (img: ImageData, x: number, y: number) => [...img.data.slice((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];

  it("sets each node's pixels in its colour", () => {
    const f = fakeContext(400, 280);
    // 0.1 px per flow px, 2 device px per px: a 200 x 60 node is 40 x 12 device px.
    expect(paintPixels(f.ctx, boxes(["#ff0000", "#0f0"]), { s: 0.1, ox: 10, oy: 10, dpr: 2 })).toBe(true);
    const img = f.put();
    expect(img).not.toBeNull();
    if (!img) return;
    expect(at(img, 20, 20)).toEqual([255, 0, 0, 255]);
    expect(at(img, 20 + 39, 20 + 11)).toEqual([255, 0, 0, 255]);
    expect(at(img, 20 + 40, 20)).toEqual([0, 0, 0, 0]);
    expect(at(img, 220, 120)).toEqual([0, 255, 0, 255]);
    expect(at(img, 5, 5)).toEqual([0, 0, 0, 0]);
  });

  it("gives a node at least one pixel, and refuses colours it cannot read", () => {
    const f = fakeContext(200, 140);
    expect(paintPixels(f.ctx, boxes(["#ff0000"]), { s: 0.001, ox: 3, oy: 4, dpr: 1 })).toBe(true);
    const img = f.put();
    if (img) expect(at(img, 3, 4)).toEqual([255, 0, 0, 255]);
    const g = fakeContext(200, 140);
    expect(paintPixels(g.ctx, boxes(["rgb(1, 2, 3)"]), { s: 0.1, ox: 0, oy: 0, dpr: 1 })).toBe(false);
    expect(g.put()).toBeNull();
  });
});
