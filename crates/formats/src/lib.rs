//! trellis-formats: Weaveflow Graph Definitions and GRAPH.md. Pure: no I/O.
