//! `cargo run --release --example one_pass FILE.jsonl [mutate]`: the one-pass intake
//! (`fast`) against the tree (`json` + `validate`) on every record of a file (and, with
//! `mutate`, every single-byte mutation of every hundredth record): it may only take a
//! record the tree accepts, with the same canonical JSON, compact body and envelope
//! (`fast::check_against_tree` panics otherwise). Prints how many it took.
fn main() {
    let path = std::env::args().nth(1).expect("usage: one_pass FILE.jsonl [mutate]");
    let mutate = std::env::args().nth(2).map_or(false, |m| m == "mutate");
    let data = std::fs::read(path).expect("read");
    let (mut records, mut taken, mut variants, mut variants_taken) = (0, 0, 0, 0);
    for (i, raw) in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()).enumerate() {
        records += 1;
        taken += _native::fast::check_against_tree(raw).is_some() as usize;
        if mutate && i % 100 == 0 {
            for m in _native::fast::mutations(raw) {
                variants += 1;
                variants_taken += _native::fast::check_against_tree(&m).is_some() as usize;
            }
        }
    }
    println!("{} records, {} taken by the one pass; {} mutations, {} taken; no difference",
             records, taken, variants, variants_taken);
}
