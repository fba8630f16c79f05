//! `cargo run --release --example allocs FILE.jsonl`: heap allocations a record of the
//! pure-Rust per-event path makes (a counting allocator), by size class.
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static CALLS: AtomicUsize = AtomicUsize::new(0);
static REALLOCS: AtomicUsize = AtomicUsize::new(0);
static BY_SIZE: [AtomicUsize; 8] = [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0),
                                    AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0),
                                    AtomicUsize::new(0), AtomicUsize::new(0)];

fn class(size: usize) -> usize {
    match size { 0..=16 => 0, 17..=32 => 1, 33..=64 => 2, 65..=128 => 3, 129..=512 => 4,
                 513..=4096 => 5, 4097..=65536 => 6, _ => 7 }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters of the
// calls are kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Ordering::Relaxed);
        BY_SIZE[class(layout.size())].fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let path = std::env::args().nth(1).expect("usage: allocs FILE.jsonl");
    let data = std::fs::read(path).expect("read");
    let records: Vec<&[u8]> = data.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let mut core = _native::Core::new();
    let before = CALLS.load(Ordering::Relaxed);
    let mut hands = 0;
    for raw in &records {
        if let _native::Processed::Applied { outputs, .. } = core.process(raw, &mut |_| true) {
            hands += outputs.iter().filter(|o| matches!(o, _native::table::Output::Closed(_))).count();
        }
    }
    let calls = CALLS.load(Ordering::Relaxed) - before;
    println!("{} records, {} hands: {:.2} allocations a record, {:.1} a hand; reallocs {}",
             records.len(), hands, calls as f64 / records.len() as f64,
             calls as f64 / hands.max(1) as f64, REALLOCS.load(Ordering::Relaxed));
    let names = ["<=16", "<=32", "<=64", "<=128", "<=512", "<=4k", "<=64k", ">64k"];
    for (i, n) in names.iter().enumerate() {
        println!("  {:>6}: {}", n, BY_SIZE[i].load(Ordering::Relaxed));
    }
}
