//! Prints a generated document: `cargo run --release -p trellis-spec --example gen_spec 100000 > big.json`.

fn main() {
    let nodes: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000);
    print!("{}", trellis_spec::generate::generate_text(nodes, 42));
}
