//! CRC-32C (Castagnoli), the checksum of a Kafka v2 record batch, with the CPU's own
//! instruction where it has one.
//!
//! Why here: the adjudicator worker checks every fetched batch's CRC before the core reads
//! it, and aiokafka's C checksum (a table a byte at a time) was about 5% of the worker's
//! CPU at ~25 kB of events a hand (perf, issue #16). SSE 4.2's `crc32` instruction does
//! eight bytes in one; other machines get a slicing-by-8 table, which still beats a byte
//! at a time. No crate: the ones that do this need a newer Rust than Debian 12's 1.63
//! (docs/native.md, "Building") or pull in a build script for the detection.
//!
//! The check itself (what is covered, where the stored value is) is `kafka::crc_ok`.

/// The reflected Castagnoli polynomial.
const POLY: u32 = 0x82F6_3B78;

/// Slicing-by-8 tables: `TABLES[k][b]` is the CRC of byte `b` followed by `k` zero bytes.
const TABLES: [[u32; 256]; 8] = tables();

const fn tables() -> [[u32; 256]; 8] {
    let mut t = [[0u32; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let mut crc = b as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ POLY } else { crc >> 1 };
            bit += 1;
        }
        t[0][b] = crc;
        b += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut b = 0;
        while b < 256 {
            let prev = t[k - 1][b];
            t[k][b] = (prev >> 8) ^ t[0][(prev & 0xFF) as usize];
            b += 1;
        }
        k += 1;
    }
    t
}

/// CRC-32C of `data` (initial value and final xor `0xFFFFFFFF`, as Kafka's).
pub fn crc32c(data: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("sse4.2") {
            // SAFETY: `hardware` only uses SSE 4.2 instructions, and the line above has
            // just checked that this CPU has them; it reads `data` through safe slices.
            return !unsafe { hardware(!0, data) };
        }
    }
    !software(!0, data)
}

/// The table way, eight bytes a step (the running value in, not inverted).
fn software(mut crc: u32, data: &[u8]) -> u32 {
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let low = crc ^ u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        crc = TABLES[7][(low & 0xFF) as usize]
            ^ TABLES[6][((low >> 8) & 0xFF) as usize]
            ^ TABLES[5][((low >> 16) & 0xFF) as usize]
            ^ TABLES[4][(low >> 24) as usize]
            ^ TABLES[3][c[4] as usize]
            ^ TABLES[2][c[5] as usize]
            ^ TABLES[1][c[6] as usize]
            ^ TABLES[0][c[7] as usize];
    }
    for &b in chunks.remainder() {
        crc = (crc >> 8) ^ TABLES[0][((crc ^ b as u32) & 0xFF) as usize];
    }
    crc
}

/// The instruction's way, eight bytes an instruction (the running value in, not inverted).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.2")]
unsafe fn hardware(crc: u32, data: &[u8]) -> u32 {
    use std::arch::x86_64::{_mm_crc32_u64, _mm_crc32_u8};
    let mut wide = crc as u64;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let word = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        wide = _mm_crc32_u64(wide, word);
    }
    let mut crc = wide as u32;
    for &b in chunks.remainder() {
        crc = _mm_crc32_u8(crc, b);
    }
    crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_value_of_the_standard() {
        // CRC-32C's catalogued check value (the CRC of the ASCII digits 1 to 9).
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(!software(!0, b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
    }

    #[test]
    fn the_known_answers_of_rfc_3720() {
        // iSCSI's test patterns (RFC 3720, B.4): 32 bytes of zeros, of ones, ascending.
        assert_eq!(crc32c(&[0u8; 32]), 0x8A91_36AA);
        assert_eq!(crc32c(&[0xFFu8; 32]), 0x62A8_AB43);
        let ascending: Vec<u8> = (0u8..32).collect();
        assert_eq!(crc32c(&ascending), 0x46DD_794E);
        let descending: Vec<u8> = (0u8..32).rev().collect();
        assert_eq!(crc32c(&descending), 0x113F_DB5C);
    }

    #[test]
    fn both_ways_agree_at_every_length_and_alignment() {
        let data: Vec<u8> = (0..4099u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        for start in 0..9 {
            for end in (start..data.len()).step_by(37) {
                let part = &data[start..end];
                assert_eq!(crc32c(part), !software(!0, part), "bytes {}..{}", start, end);
            }
        }
    }
}
