//! Lanes around the columns: an edge drawn back (or a forward edge too long to pass between
//! the columns) runs under (or over) every column it spans, below whatever lanes already run
//! there. Inner (shorter) lanes are laid first, so lanes nest like the loops they draw. Edges
//! into one node on one side share its lane (a bus), as a person would draw them.
//!
//! A segment tree over the columns answers "the lowest thing taken over these columns" and
//! records a new lane over them, both in logarithmic time.

/// Range maximum with range "raise to at least" updates.
pub(crate) struct MaxTree {
    size: usize,
    max: Vec<f64>,
    /// A raise not yet pushed to the children.
    raise: Vec<f64>,
}

impl MaxTree {
    pub(crate) fn new(values: &[f64]) -> MaxTree {
        let size = values.len().max(1).next_power_of_two();
        let mut max = vec![f64::NEG_INFINITY; 2 * size];
        max[size..size + values.len()].copy_from_slice(values);
        for i in (1..size).rev() {
            max[i] = max[2 * i].max(max[2 * i + 1]);
        }
        MaxTree { size, max, raise: vec![f64::NEG_INFINITY; 2 * size] }
    }

    /// The maximum over `lo..=hi`.
    pub(crate) fn query(&self, lo: usize, hi: usize) -> f64 {
        self.query_in(1, 0, self.size - 1, lo, hi)
    }

    fn query_in(&self, node: usize, a: usize, b: usize, lo: usize, hi: usize) -> f64 {
        if hi < a || b < lo {
            return f64::NEG_INFINITY;
        }
        if lo <= a && b <= hi {
            return self.max[node];
        }
        let mid = (a + b) / 2;
        let inner =
            self.query_in(2 * node, a, mid, lo, hi).max(self.query_in(2 * node + 1, mid + 1, b, lo, hi));
        inner.max(self.raise[node]).min(self.max[node])
    }

    /// Raises every value in `lo..=hi` to at least `v`.
    pub(crate) fn raise(&mut self, lo: usize, hi: usize, v: f64) {
        self.raise_in(1, 0, self.size - 1, lo, hi, v);
    }

    fn raise_in(&mut self, node: usize, a: usize, b: usize, lo: usize, hi: usize, v: f64) {
        if hi < a || b < lo {
            return;
        }
        if lo <= a && b <= hi {
            self.max[node] = self.max[node].max(v);
            self.raise[node] = self.raise[node].max(v);
            return;
        }
        let mid = (a + b) / 2;
        self.raise_in(2 * node, a, mid, lo, hi, v);
        self.raise_in(2 * node + 1, mid + 1, b, lo, hi, v);
        self.max[node] = self.max[2 * node].max(self.max[2 * node + 1]).max(self.raise[node]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raises_and_queries_agree_with_a_plain_list() {
        let start = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0];
        let mut plain = start.to_vec();
        let mut tree = MaxTree::new(&start);
        let ops = [(1, 3, 6.0), (0, 0, 2.0), (2, 6, 7.0), (5, 5, 10.0), (3, 4, 8.0)];
        for (lo, hi, v) in ops {
            tree.raise(lo, hi, v);
            for x in &mut plain[lo..=hi] {
                *x = f64::max(*x, v);
            }
            for a in 0..plain.len() {
                for b in a..plain.len() {
                    let want = plain[a..=b].iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert_eq!(tree.query(a, b), want, "{a}..={b} after raising {lo}..={hi} to {v}");
                }
            }
        }
    }
}
