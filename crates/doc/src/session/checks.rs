//! A session's diagnostics: the reading's findings, the one validator's, and those of its
//! subgraph nodes' references, kept in that order.

use trellis_spec::{validate, Diagnostic};

use super::state::Session;
use crate::document::Document;
use crate::fs::FileSystem;
use crate::registries::Registries;

impl Session {
    /// Replaces the registries (a registry file changed) and revalidates.
    pub fn set_registries(&mut self, registries: Registries) -> &[Diagnostic] {
        self.registries = registries;
        self.revalidate();
        &self.diagnostics
    }

    /// Runs the one validator again.
    pub fn revalidate(&mut self) {
        let mut out = self.read_diagnostics.clone();
        match &self.document {
            Document::GraphSpec(spec) => {
                out.extend(validate::validate(spec, Some(&self.registries.registry)))
            }
            Document::Weaveflow(d) => {
                out.extend(crate::formats::weaveflow::validate(d, &self.registries, self.source.as_deref()))
            }
            Document::GraphMd(d) => out.extend(trellis_formats::graphmd::validate(d)),
        }
        self.subgraphs.refresh(&self.document, self.path.as_deref(), false);
        out.extend(self.subgraphs.diagnostics.iter().cloned());
        self.diagnostics = out;
    }

    /// What the subgraph nodes refer to (empty until a file system is attached).
    pub fn subgraph_links(&self) -> &[crate::subgraphs::SubgraphLink] {
        &self.subgraphs.links
    }

    /// Resolves the subgraph references again (`force`: even when the document and its path
    /// did not change, since the files they name may have) and puts their diagnostics in
    /// place. Answers whether anything changed.
    pub fn refresh_subgraphs(&mut self, force: bool) -> bool {
        let before = self.subgraphs.diagnostics.len();
        if !self.subgraphs.refresh(&self.document, self.path.as_deref(), force) {
            return false;
        }
        let keep = self.diagnostics.len().saturating_sub(before);
        self.diagnostics.truncate(keep);
        self.diagnostics.extend(self.subgraphs.diagnostics.iter().cloned());
        true
    }

    /// Lets the session resolve subgraph references with `fs`, and resolves them.
    pub fn attach_fs(&mut self, fs: std::sync::Arc<dyn FileSystem>) {
        self.subgraphs.attach(fs);
        self.refresh_subgraphs(false);
    }
}
