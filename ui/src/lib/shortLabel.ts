// Edge labels are Rust's (`DocumentView.edgeLabels`, crates/doc drawn_edges.rs); the canvas only
// shortens a long one to fit, keeping the full text for the tooltip and the inspector.

/** Shorten a label for the canvas; the full text stays in the tooltip and the inspector. */
export function shortLabel(label: string, max = 42): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}
