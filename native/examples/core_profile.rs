//! Profiling aid (not part of the build): the core's per-event path over a JSONL file,
//! `cargo run --release --example core_profile -- FILE [REPEAT] [archive]`, for `perf
//! record` or `valgrind --tool=callgrind` (instruction counts: the machine is shared).
use _native::{lines, Core};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let buf = std::fs::read(&args[1]).expect("read the file");
    let repeat: usize = args.get(2).map_or(5, |r| r.parse().expect("a count"));
    for _ in 0..repeat {
        let start = Instant::now();
        let mut core = Core::new();
        core.archive = args.get(3).map_or(false, |a| a == "archive");
        let (mut pos, mut line, mut count) = (0, 1, 0);
        while let Some((s, e, number, next)) = lines::next_record(&buf, pos, line) {
            core.process(&buf[s..e], &mut |_| true);
            pos = next;
            line = number + 1;
            count += 1;
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / count as f64;
        println!("{count} events, {us:.3} us/event");
    }
}
