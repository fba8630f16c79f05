//! `cargo run --release --example intake_speed FILE [intake|core] [passes]`: µs per record
//! of the pure-Rust path (no Python): intake alone (the one pass, `fast`, with the tree
//! for what it gives up, and SHA-256), then intake + chain + hand assembly (`Core`).
//!
//! Times are this thread's CPU time (`/proc/thread-self/schedstat`, nanoseconds), not the
//! wall clock: the machine is shared, and waiting for a core is not the core's cost. The
//! best of `passes` (default 5) passes is printed, each pass on a fresh `Core`.
use std::time::Instant;

/// Nanoseconds this thread has run on a CPU (Linux); the wall clock where unavailable.
fn cpu_ns(start: &Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or_else(|| start.elapsed().as_nanos())
}

fn best_of(passes: usize, mut run: impl FnMut()) -> f64 {
    let clock = Instant::now();
    let mut best = u128::MAX;
    for _ in 0..passes {
        let started = cpu_ns(&clock);
        run();
        best = best.min(cpu_ns(&clock) - started);
    }
    best as f64
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: intake_speed FILE.jsonl [intake|core] [passes]");
    let mode = std::env::args().nth(2).unwrap_or_default();
    let passes: usize = std::env::args().nth(3).and_then(|p| p.parse().ok()).unwrap_or(5);
    let data = std::fs::read(path).expect("read");
    let records: Vec<&[u8]> = data.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let n = records.len() as f64;
    let mut scratch = Vec::new();
    let mut body = Vec::new();
    let mut accepted = 0;
    let mut digests = 0u8;
    let intake_passes = if mode == "core" { 0 } else { passes };
    let intake = best_of(intake_passes, || {
        accepted = 0;
        // What `Core` runs: the one pass, the tree for what it gives up, then SHA-256.
        for raw in &records {
            if _native::fast::take(raw, &mut scratch, &mut body).is_some() {
                digests ^= _native::canonical::sha256(&scratch)[0];
                accepted += 1;
            } else if let Some(tree) = _native::intake::parse(raw) {
                if let _native::intake::Intake::Accepted { .. } = _native::intake::accept(&tree, &mut scratch) {
                    accepted += 1;
                }
            }
        }
    }) / n / 1e3;
    if mode == "intake" {
        println!("intake {:.3} us/record (digests {})", intake, digests);
        return;
    }
    let whole = best_of(passes, || {
        let mut core = _native::Core::new();
        for raw in &records {
            core.process(raw, &mut |_| true);
        }
    }) / n / 1e3;
    if mode == "core" {
        println!("core {:.3} us/record", whole);
        return;
    }
    println!("{} records, {} accepted: intake {:.3} us/record, with chain and assembly {:.3} us/record (CPU time, best of {})",
             records.len(), accepted, intake, whole, passes);
}
