//! One change of an ordered list (the canvas's nodes, edges, diagnostics): remove `remove`
//! items at `at`, then insert `insert` there. An edit answer carries a few of these instead of
//! the whole list, so an edit of a 10,000-node graph sends the one node it touched.

use serde::Serialize;
use ts_rs::TS;

/// Remove `remove` items at `at`, then insert `insert` at `at`. Applied in order, a list of
/// them turns the list the UI holds into the list Rust holds.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ListEdit<T> {
    #[ts(type = "number")]
    pub at: usize,
    #[ts(type = "number")]
    pub remove: usize,
    pub insert: Vec<T>,
}

impl<T: Clone + PartialEq> ListEdit<T> {
    /// The one edit that turns `before` into `after`: what lies between their common prefix and
    /// their common suffix is replaced. `None` when the lists are equal. Linear in the lists'
    /// length; exact whatever changed (a single insertion, removal or replacement, the usual
    /// case, gives the smallest answer).
    pub fn between(before: &[T], after: &[T]) -> Option<ListEdit<T>> {
        let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
        let room = before.len().min(after.len()) - prefix;
        let suffix =
            before.iter().rev().zip(after.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        let remove = before.len() - prefix - suffix;
        let insert = &after[prefix..after.len() - suffix];
        if remove == 0 && insert.is_empty() {
            return None;
        }
        Some(ListEdit { at: prefix, remove, insert: insert.to_vec() })
    }

    /// Applies the edit (indices clamped, so a wrong edit cannot panic).
    pub fn apply_to(&self, list: &mut Vec<T>) {
        let at = self.at.min(list.len());
        let end = (at + self.remove).min(list.len());
        list.splice(at..end, self.insert.iter().cloned());
    }

    /// The same edit `offset` places further down (the list it applies to has a prefix).
    pub fn shifted(mut self, offset: usize) -> ListEdit<T> {
        self.at += offset;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(before: &[i32], after: &[i32]) {
        let mut list = before.to_vec();
        if let Some(e) = ListEdit::between(before, after) {
            e.apply_to(&mut list);
        }
        assert_eq!(list, after, "{before:?} -> {after:?}");
    }

    #[test]
    fn between_gives_the_edit_that_turns_one_list_into_the_other() {
        check(&[], &[]);
        check(&[1, 2, 3], &[1, 2, 3]);
        check(&[1, 2, 3], &[1, 3]);
        check(&[1, 2, 3], &[1, 9, 2, 3]);
        check(&[1, 2, 2, 3], &[1, 2, 3]);
        check(&[1, 1, 1], &[1, 1]);
        check(&[1, 2], &[3, 4, 5]);
        check(&[], &[1]);
        check(&[1], &[]);
        assert_eq!(
            ListEdit::between(&[1, 2, 3], &[1, 3]),
            Some(ListEdit { at: 1, remove: 1, insert: vec![] })
        );
        assert_eq!(ListEdit::between(&[5], &[5]), None);
    }
}
