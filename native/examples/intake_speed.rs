//! `cargo run --release --example intake_speed FILE`: µs per record of the pure-Rust path
//! (no Python): intake alone, then intake + chain + hand assembly.
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: intake_speed FILE.jsonl [intake|all]");
    let mode = std::env::args().nth(2).unwrap_or_default();
    let data = std::fs::read(path).expect("read");
    let records: Vec<&[u8]> = data.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let mut scratch = Vec::new();
    if mode == "core" {
        let mut core = _native::Core::new();
        let started = Instant::now();
        for raw in &records {
            core.process(raw, &mut |_| true);
        }
        println!("core {:.3} us/record", started.elapsed().as_secs_f64() / records.len() as f64 * 1e6);
        return;
    }
    let started = Instant::now();
    let mut accepted = 0;
    for raw in &records {
        if let Some(tree) = _native::intake::parse(raw) {
            if let _native::intake::Intake::Accepted { .. } = _native::intake::accept(&tree, &mut scratch) {
                accepted += 1;
            }
        }
    }
    let intake = started.elapsed().as_secs_f64() / records.len() as f64 * 1e6;
    if mode == "intake" {
        println!("intake {:.3} us/record", intake);
        return;
    }
    let mut core = _native::Core::new();
    let started = Instant::now();
    for raw in &records {
        core.process(raw, &mut |_| true);
    }
    let whole = started.elapsed().as_secs_f64() / records.len() as f64 * 1e6;
    println!("{} records, {} accepted: intake {:.3} us/record, with chain and assembly {:.3} us/record",
             records.len(), accepted, intake, whole);
}
