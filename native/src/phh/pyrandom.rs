//! Python's `random.Random(text)` as far as the PHH importer draws from it: the
//! Mersenne Twister (MT19937) seeded the way CPython 3.11 seeds it from a `str`, and
//! `getrandbits(128)`.
//!
//! Why a copy: the importer names every event with a UUID drawn from a generator seeded
//! with the table id (`services.importers.phh`, `random.Random(table_id)`), so the same
//! files always give the same bytes; the native importer must draw the very same numbers.
//! The algorithm is the reference MT19937 (Matsumoto and Nishimura's `init_by_array` and
//! `genrand_int32`); the seeding is CPython's `random_seed` for a `str`: the text's UTF-8
//! bytes followed by their SHA-512, read as one big-endian integer, cut into 32-bit words
//! from the least significant. The tests check draws against CPython's own.

use sha2::{Digest, Sha512};

const N: usize = 624;
const M: usize = 397;

pub struct PyRandom {
    state: [u32; N],
    index: usize,
}

impl PyRandom {
    /// `random.Random(text)` (seed version 2).
    pub fn from_text(text: &str) -> PyRandom {
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(&Sha512::digest(text.as_bytes()));
        // The big-endian integer's 32-bit words, least significant first; leading zero
        // bytes do not count (CPython sizes the key by the integer's bit length).
        let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
        let significant = &bytes[first..];
        let mut key: Vec<u32> = significant.rchunks(4)
            .map(|chunk| chunk.iter().fold(0u32, |word, &b| word << 8 | u32::from(b)))
            .collect();
        if key.is_empty() {
            key.push(0);
        }
        PyRandom::from_key(&key)
    }

    fn from_key(key: &[u32]) -> PyRandom {
        let mut mt = [0u32; N];
        mt[0] = 19_650_218;
        for i in 1..N {
            mt[i] = 1_812_433_253u32.wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PyRandom { state: mt, index: N }
    }

    fn twist(&mut self) {
        let mt = &mut self.state;
        for k in 0..N {
            let y = (mt[k] & 0x8000_0000) | (mt[(k + 1) % N] & 0x7fff_ffff);
            let mut next = mt[(k + M) % N] ^ (y >> 1);
            if y & 1 != 0 {
                next ^= 0x9908_b0df;
            }
            mt[k] = next;
        }
        self.index = 0;
    }

    /// `genrand_uint32`: the next 32 bits.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(128)`: four draws, the first the least significant word.
    pub fn bits128(&mut self) -> u128 {
        (0..4).fold(0u128, |value, word| value | u128::from(self.next_u32()) << (32 * word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by CPython 3.11: `random.Random(seed).getrandbits(128)` twice, then
    /// `getrandbits(32)`.
    #[test]
    fn draws_are_cpythons() {
        let cases = [
            ("phh:pluribus/100", 0xdcd549b832fc51cb56b5d13f59aa5423u128,
             0xd09b72dc3251ca463873e823b870d664u128, 0x4534ab83u32),
            ("", 0x34f68880986ceb007458f93cf5d15920, 0xc0bb0f86bbcbf77add460eca6354bc50, 0x3888804f),
            (&"x".repeat(200), 0xf7382f7f2c4d61eaaf9412d7d99a0371, 0xc1a9c6bee605cc34df4b1016525c63b0,
             0x98b132dd),
        ];
        for (seed, first, second, third) in cases {
            let mut rng = PyRandom::from_text(seed);
            assert_eq!((rng.bits128(), rng.bits128(), rng.next_u32()), (first, second, third), "{seed}");
        }
    }

    #[test]
    fn more_than_one_twist_keeps_to_cpython() {
        // random.Random("t"): 700 draws of getrandbits(128) (2,800 words, four twists),
        // the last one printed by CPython 3.11
        let mut rng = PyRandom::from_text("t");
        let last = (0..700).map(|_| rng.bits128()).last().unwrap();
        assert_eq!(last, LAST_OF_700);
    }

    const LAST_OF_700: u128 = 0x7351ff052449bd1d6ae32089d8d48244;
}
