//! `cargo run --release --example phases FILE`: where the core's time per record goes.
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: phases FILE.jsonl");
    let data = std::fs::read(path).expect("read");
    let records: Vec<&[u8]> = data.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
    let n = records.len() as f64;
    for _ in 0..3 {
        let t = Instant::now();
        let trees: Vec<_> = records.iter().map(|r| _native::json::parse(r).unwrap()).collect();
        let parse = t.elapsed().as_secs_f64() / n * 1e6;
        let t = Instant::now();
        let mut scratch = Vec::new();
        let mut envs = Vec::with_capacity(records.len());
        let mut canon = 0.0;
        let mut sha = 0.0;
        for tree in &trees {
            let t1 = Instant::now();
            let (env, _) = _native::validate::validate(tree, &mut scratch).unwrap();
            canon += t1.elapsed().as_secs_f64();
            let t2 = Instant::now();
            let hash = _native::canonical::sha256(&scratch);
            sha += t2.elapsed().as_secs_f64();
            envs.push((env, hash));
        }
        let validate = t.elapsed().as_secs_f64() / n * 1e6;
        // The one pass (what `Core` runs): strict JSON, validation, canonical JSON and the
        // compact body together, then SHA-256.
        let t = Instant::now();
        let mut bodies = Vec::with_capacity(records.len());
        let mut body = Vec::new();
        for raw in &records {
            let event = _native::fast::take(raw, &mut scratch, &mut body).expect("the one pass takes it");
            let hash = _native::canonical::sha256(&scratch);
            bodies.push((body.clone(), hash, event));
        }
        let one_pass = t.elapsed().as_secs_f64() / n * 1e6;
        let events: Vec<_> = bodies.iter().map(|(b, h, e)| {
            (_native::validate::Event { body: b, id: e.id.clone(), ..*e }, *h)
        }).collect();
        let mut tables: std::collections::HashMap<String, _native::table::TableState> = Default::default();
        let t = Instant::now();
        let mut out = Vec::new();
        let mut closes = 0;
        let mut lists = _native::recycle::Lists::default();
        for (env, hash) in &events {
            let state = tables.entry(env.table_id.to_string()).or_insert_with(|| _native::table::TableState::new(env.table_id));
            out.clear();
            state.apply(env, *hash, &[], &mut out, &mut lists);  // not archiving: no bytes kept
            closes += out.len();
        }
        let apply = t.elapsed().as_secs_f64() / n * 1e6;
        println!("tree: parse {:.3}  validate+canonical {:.3} (of which sha {:.3}); one pass with sha {:.3}; \
                  chain+assembly {:.3} us/record ({} outputs)",
                 parse, validate, sha / n * 1e6, one_pass, apply, closes);
        drop(envs);
        let _ = canon;
    }
}
