//! Sizes and points in canvas pixels: what the layout takes in and gives out.

/// A node's (or a label's) box size in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

/// A node's top-left corner (or a point of a route) in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}
