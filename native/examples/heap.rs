//! `cargo run --release --example heap FILE`: live heap bytes (a counting allocator) and
//! RSS after feeding FILE's records to one `Core` (bench_memory's open tables, no Python).
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; only a counter of
// the bytes asked for is kept beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / 1048576.0
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: heap FILE.jsonl");
    let data = std::fs::read(path).expect("read");
    let mut core = _native::Core::new();
    let (live0, rss0) = (LIVE.load(Ordering::Relaxed), rss_mb());
    for raw in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        core.process(raw, &mut |_| true);
    }
    let live = LIVE.load(Ordering::Relaxed) - live0;
    let tables = core.tables.len();
    let (mut events, mut reserved, mut kept) = (0, 0, 0);
    for t in core.tables.values() {
        if let Some(h) = &t.open_hand {
            events += h.events.len();
            reserved += h.events.capacity() + h.fps.capacity() * 4;
        }
        kept += t.kept.capacity() * std::mem::size_of::<_native::table::Kept>();
    }
    println!("{} tables: live heap {:.1} MB ({:.0} B a table), RSS grown {:.1} MB; open hands' bytes {:.1} MB, reserved {:.1} MB; kept {:.1} MB; size_of TableState {}",
             tables, live as f64 / 1048576.0, live as f64 / tables as f64, rss_mb() - rss0,
             events as f64 / 1048576.0, reserved as f64 / 1048576.0, kept as f64 / 1048576.0,
             std::mem::size_of::<_native::table::TableState>());
}
