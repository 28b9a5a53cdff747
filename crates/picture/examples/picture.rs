//! Draws a document as File > Export Image does, laid out as the app lays out a document
//! without a layout file: `cargo run -p trellis-picture --example picture -- FILE OUT.(svg|png)`.
//! For looking at layouts of real files (the corpus, generated specs) without the app.
#![allow(clippy::print_stdout)]

use std::path::PathBuf;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(file), Some(out)) = (args.first().map(PathBuf::from), args.get(1).map(PathBuf::from)) else {
        eprintln!("usage: picture FILE OUT.(svg|png)");
        std::process::exit(2);
    };
    let fs = trellis_doc::RealFs;
    let registries = (trellis_doc::discovery::registry_loader())(&fs, Some(&file));
    let mut s = match trellis_doc::Session::open(
        &fs,
        trellis_doc::DocId(1),
        &file,
        registries,
        Arc::new(trellis_doc::SystemClock),
    ) {
        Ok(s) => s,
        Err(ds) => {
            for d in ds {
                eprintln!("{}: {}", file.display(), d.message);
            }
            std::process::exit(1);
        }
    };
    s.lay_out_if_missing();
    let scene = match trellis_picture::Scene::of(&s, &trellis_picture::Scope::Whole) {
        Ok(scene) => scene,
        Err(d) => {
            eprintln!("{}", d.message);
            std::process::exit(1);
        }
    };
    let svg = trellis_picture::svg::render(&scene, &trellis_picture::Theme::Light.palette());
    let written = if out.extension().is_some_and(|e| e == "png") {
        let png = trellis_picture::png(
            &svg,
            trellis_picture::system_fonts(),
            &trellis_picture::PngOptions { scale: 1.0, ..Default::default() },
        );
        match png {
            Ok(png) => std::fs::write(&out, png.bytes),
            Err(d) => {
                eprintln!("{}", d.message);
                std::process::exit(1);
            }
        }
    } else {
        std::fs::write(&out, svg)
    };
    if let Err(e) = written {
        eprintln!("{}: {e}", out.display());
        std::process::exit(1);
    }
    println!("{}", out.display());
}
