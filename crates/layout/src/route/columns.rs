//! The columns of a drawing, found from positions alone: nodes whose boxes overlap
//! horizontally share a column (a layer of the automatic layout is one). Each column keeps
//! what is taken in it, top to bottom: its nodes (with a clearance) and the edges already
//! routed through it, so the next edge finds the free place nearest where it wants to pass.

use crate::geometry::{Point, Size};

pub(crate) struct Column {
    pub(crate) left: f64,
    pub(crate) right: f64,
    /// Taken intervals of y, sorted and disjoint.
    taken: Vec<(f64, f64)>,
}

impl Column {
    /// The highest and lowest y taken (nodes and the edges passing), if anything is.
    pub(crate) fn span(&self) -> Option<(f64, f64)> {
        Some((self.taken.first()?.0, self.taken.last()?.1))
    }

    /// The y nearest `y` where a band `half` each side of it is free; a tie goes towards
    /// `toward`.
    pub(crate) fn nearest_free(&self, y: f64, half: f64, toward: f64) -> f64 {
        let t = &self.taken;
        // Downwards: past every interval that gets in the way.
        let mut down = y;
        let mut j = t.partition_point(|iv| iv.1 <= y - half);
        while j < t.len() && t[j].0 < down + half {
            down = down.max(t[j].1 + half);
            j += 1;
        }
        // Upwards likewise.
        let mut up = y;
        let mut j = t.partition_point(|iv| iv.0 < y + half);
        while j > 0 && t[j - 1].1 > up - half {
            up = up.min(t[j - 1].0 - half);
            j -= 1;
        }
        let (dd, du) = (down - y, y - up);
        if dd < du || (dd == du && toward >= y) {
            down
        } else {
            up
        }
    }

    /// Marks `[a, b]` taken.
    pub(crate) fn take(&mut self, a: f64, b: f64) {
        let t = &mut self.taken;
        let i = t.partition_point(|iv| iv.1 < a);
        let mut j = i;
        let (mut lo, mut hi) = (a, b);
        while j < t.len() && t[j].0 <= hi {
            lo = lo.min(t[j].0);
            hi = hi.max(t[j].1);
            j += 1;
        }
        t.splice(i..j, [(lo, hi)]);
    }
}

pub(crate) struct Columns {
    /// The column of each node (`u32::MAX`: a node with no finite position).
    pub(crate) of: Vec<u32>,
    pub(crate) cols: Vec<Column>,
}

impl Columns {
    /// The columns of each connected part of the drawing (`part`: a number per node; nodes of
    /// separate parts never share a column, so a part packed beside another keeps its own
    /// gaps), each part's columns numbered one after the other.
    pub(crate) fn new(pos: &[Point], sizes: &[Size], part: &[usize], clear: f64) -> Columns {
        let n = pos.len().min(sizes.len());
        let finite = |i: &usize| pos[*i].x.is_finite() && pos[*i].y.is_finite();
        let mut idx: Vec<usize> = (0..n).filter(finite).collect();
        idx.sort_by(|&a, &b| part[a].cmp(&part[b]).then(pos[a].x.total_cmp(&pos[b].x)).then(a.cmp(&b)));
        let mut of = vec![u32::MAX; pos.len()];
        let mut cols: Vec<Column> = Vec::new();
        let mut current = usize::MAX;
        for i in idx {
            let (x0, x1) = (pos[i].x, pos[i].x + sizes[i].w);
            match cols.last_mut() {
                // Overlapping the current column of the same part (by more than rounding).
                Some(c) if part[i] == current && x0 < c.right - 0.5 => c.right = c.right.max(x1),
                _ => cols.push(Column { left: x0, right: x1, taken: Vec::new() }),
            }
            current = part[i];
            of[i] = (cols.len() - 1) as u32;
        }
        let mut nodes: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cols.len()];
        for i in 0..n {
            if of[i] != u32::MAX {
                nodes[of[i] as usize].push((pos[i].y - clear, pos[i].y + sizes[i].h + clear));
            }
        }
        for (c, mut list) in cols.iter_mut().zip(nodes) {
            list.sort_by(|a, b| a.0.total_cmp(&b.0));
            for (a, b) in list {
                c.take(a, b);
            }
        }
        Columns { of, cols }
    }

    pub(crate) fn col(&self, node: usize) -> Option<usize> {
        self.of.get(node).filter(|&&c| c != u32::MAX).map(|&c| c as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_place_nearest_is_found_and_taken() {
        let mut c = Column { left: 0.0, right: 10.0, taken: Vec::new() };
        c.take(0.0, 100.0);
        c.take(140.0, 200.0);
        assert_eq!(c.nearest_free(50.0, 10.0, 0.0), -10.0);
        assert_eq!(c.nearest_free(80.0, 10.0, 0.0), 110.0);
        // The gap between the two is 40: a band of 20 fits at 120.
        assert_eq!(c.nearest_free(118.0, 10.0, 0.0), 118.0);
        c.take(110.0, 130.0);
        assert_eq!(c.taken, vec![(0.0, 100.0), (110.0, 130.0), (140.0, 200.0)]);
        assert_eq!(c.nearest_free(120.0, 10.0, 500.0), 210.0);
        c.take(95.0, 145.0);
        assert_eq!(c.taken, vec![(0.0, 200.0)]);
    }
}
