// File > Export image's dialog state: what it sends to Rust's `export_image` (format, the
// canvas's theme with "follow the system" resolved, the selection's nodes, the PNG scale) and
// when it opens.
import { afterEach, describe, expect, it } from "vitest";
import { annotationSelection } from "../annotations/actions";
import { describeSelection } from "../exportImage/ExportImage";
import { closeExportImage, currentTheme, imageRequest, openExportImage, useExportImage } from "../exportImage/exportImageState";
import { ui } from "../store";

afterEach(() => {
  closeExportImage();
  ui.set({ theme: "system", selection: { nodes: [], edges: [] } });
  annotationSelection.clear();
});

describe("export image", () => {
  it("sends the selection's nodes only for the selection scope, and the scale only for PNG", () => {
    ui.set({ theme: "dark", selection: { nodes: ["classify", "answer"], edges: [] } });
    expect(imageRequest({ format: "svg", scope: "whole", scale: 2 })).toEqual({ format: "svg", theme: "dark" });
    expect(imageRequest({ format: "png", scope: "selection", scale: 3 })).toEqual({
      format: "png",
      theme: "dark",
      nodes: ["classify", "answer"],
      notes: [],
      groups: [],
      scale: 3,
    });
  });

  it("sends the selected notes and groups, a collapsed group's box as its group", () => {
    ui.set({ theme: "light", selection: { nodes: ["classify", "group:tickets", "answer"], edges: [] } });
    annotationSelection.set({ notes: ["why"], groups: ["refunds"] });
    expect(imageRequest({ format: "svg", scope: "selection", scale: 2 })).toEqual({
      format: "svg",
      theme: "light",
      nodes: ["classify", "answer"],
      notes: ["why"],
      groups: ["refunds", "tickets"],
    });
    expect(describeSelection({ nodes: ["a", "b"], notes: ["n"], groups: ["g"] })).toBe("2 nodes, 1 note and 1 group");
    expect(describeSelection({ nodes: [], notes: ["n"], groups: [] })).toBe("1 note");
    expect(describeSelection({ nodes: [], notes: [], groups: [] })).toBe("nothing selected");
  });

  it("resolves the theme the canvas shows", () => {
    ui.set({ theme: "light" });
    expect(currentTheme()).toBe("light");
    ui.set({ theme: "system" });
    expect(["light", "dark"]).toContain(currentTheme());
  });

  it("does not open without a document or a backend that draws pictures", () => {
    ui.set({ activeId: null });
    openExportImage();
    expect(useExportImage.getState().open).toBe(false);
  });
});
