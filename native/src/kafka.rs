//! The records of a Kafka record batch (message format v2, uncompressed), read in the core.
//!
//! Why here: the adjudicator worker consumed `table-events` through aiokafka, which makes
//! two Python objects of every record (its record and a `ConsumerRecord`) before pitwatch
//! sees it, about a quarter of the worker's CPU at 75 records a hand (profiled, issue
//! #16). The worker now hands the fetched batch's bytes to the core (`Engine.
//! feed_kafka_batch`), which splits them into records as it splits a file into lines,
//! and only the records that have an outcome (a closed hand, an alert, a dead letter)
//! become Python objects. aiokafka still fetches, checks each batch's CRC, skips aborted
//! transactions and control batches, and reads every batch this module does not take
//! (compressed, older formats); see `services/pipeline/raw_batches.py`.
//!
//! The format (Kafka's `DefaultRecordBatch`): a 61-byte header, then the records, each
//! `length attributes timestampDelta offsetDelta keyLength key valueLength value
//! headerCount headers`, every length and delta a zigzag varint, -1 a null key, value or
//! header value. A batch the broker sent is read whole or refused whole (`Err` with what
//! is wrong), never half taken.

/// Bytes of a v2 batch's header, before its records.
pub const HEADER_BYTES: usize = 61;
const MAGIC_AT: usize = 16;
const ATTRIBUTES_AT: usize = 21;
const COUNT_AT: usize = 57;
const CODEC_MASK: u16 = 0x07;
const CONTROL_BIT: u16 = 0x20;

/// One record of a batch; its key, value and headers point into the batch's bytes.
#[derive(Debug, PartialEq, Eq)]
pub struct Record<'b> {
    pub offset: i64,
    pub key: Option<&'b [u8]>,
    pub value: Option<&'b [u8]>,
    /// The record's headers as they are in the batch (`headers` reads them).
    pub headers: &'b [u8],
    pub header_count: usize,
}

/// A batch's records: `next` reads them in order from a byte position.
pub struct Batch<'b> {
    pub base_offset: i64,
    records: &'b [u8],
    count: usize,
}

/// Where a v2 batch's CRC is stored; it covers the bytes from `CRC_COVERS_FROM` to the end.
const CRC_AT: usize = 17;
const CRC_COVERS_FROM: usize = 21;

/// Whether `buf`, exactly one v2 record batch (any codec), holds the CRC-32C of its
/// bytes from the attributes on: the check aiokafka's `DefaultRecordBatch.validate_crc`
/// makes, done here because the core's checksum is several times faster
/// (`crc32c.rs`). A buffer too short to hold a header fails it.
pub fn crc_ok(buf: &[u8]) -> bool {
    if buf.len() < HEADER_BYTES {
        return false;
    }
    crate::crc32c::crc32c(&buf[CRC_COVERS_FROM..]) == be_i32(buf, CRC_AT) as u32
}

fn be_i64(b: &[u8], at: usize) -> i64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&b[at..at + 8]);
    i64::from_be_bytes(word)
}

fn be_i32(b: &[u8], at: usize) -> i32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&b[at..at + 4]);
    i32::from_be_bytes(word)
}

impl<'b> Batch<'b> {
    /// The batch `buf` holds exactly (from its base offset to its last record's end):
    /// magic 2, no compression, not a control batch (aiokafka reads those).
    pub fn new(buf: &'b [u8]) -> Result<Batch<'b>, String> {
        if buf.len() < HEADER_BYTES {
            return Err(format!("a record batch of {} bytes is shorter than its header", buf.len()));
        }
        let length = be_i32(buf, 8);
        if length < 0 || length as usize + 12 != buf.len() {
            return Err(format!("a record batch's length field ({}) does not match its {} bytes",
                               length, buf.len()));
        }
        if buf[MAGIC_AT] != 2 {
            return Err(format!("a record batch of message format {} (only 2 is read here)",
                               buf[MAGIC_AT]));
        }
        let attributes = u16::from_be_bytes([buf[ATTRIBUTES_AT], buf[ATTRIBUTES_AT + 1]]);
        if attributes & CODEC_MASK != 0 || attributes & CONTROL_BIT != 0 {
            return Err("a compressed or control record batch (aiokafka reads those)".to_string());
        }
        let count = be_i32(buf, COUNT_AT);
        if count < 0 {
            return Err(format!("a record batch with a record count of {}", count));
        }
        Ok(Batch { base_offset: be_i64(buf, 0), records: &buf[HEADER_BYTES..],
                   count: count as usize })
    }

    /// How many records the batch says it holds.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Every record of the batch read through (`next` reads each one's headers too), with
    /// nothing taken, and their number against the header's count: whether the whole
    /// batch is well formed, asked before any record of it is fed, so that a batch refused
    /// is refused before it changed anything.
    pub fn check(&self) -> Result<(), String> {
        let (mut pos, mut read) = (0, 0);
        while let Some((_, next)) = self.next(pos)? {
            pos = next;
            read += 1;
        }
        if read != self.count {
            return Err(format!("a record batch holds {} records where its header says {}",
                               read, self.count));
        }
        Ok(())
    }

    /// The record at byte `pos` of the records (0: the first) and the position of the
    /// next; `Ok(None)` at the end. A record that runs past the batch, or ends before its
    /// length says, is an error.
    pub fn next(&self, pos: usize) -> Result<Option<(Record<'b>, usize)>, String> {
        let b = self.records;
        if pos >= b.len() {
            return Ok(None);
        }
        let mut at = pos;
        let length = varint(b, &mut at)?;
        let end = usize::try_from(length).ok().and_then(|n| at.checked_add(n))
            .filter(|&end| end <= b.len())
            .ok_or_else(|| format!("a record's length ({}) runs past its batch", length))?;
        let r = &b[..end];
        at += 1; // attributes (unused in format 2)
        varint(r, &mut at)?; // timestamp delta
        let offset_delta = varint(r, &mut at)?;
        let key = bytes(r, &mut at)?;
        let value = bytes(r, &mut at)?;
        let header_count = varint(r, &mut at)?;
        let header_count = usize::try_from(header_count)
            .map_err(|_| format!("a record with {} headers", header_count))?;
        let headers = &r[at.min(end)..end];
        let mut check = 0;
        for _ in 0..header_count {
            header(headers, &mut check)?;
        }
        if check != headers.len() {
            return Err("a record's headers do not end where its length says".to_string());
        }
        let offset = self.base_offset.checked_add(offset_delta)
            .ok_or_else(|| "a record's offset overflows".to_string())?;
        Ok(Some((Record { offset, key, value, headers, header_count }, end)))
    }
}

/// A record header: its name and value (None: null).
pub type Header<'b> = (&'b str, Option<&'b [u8]>);

/// A record's headers, `(name, value)` in order (a null value is `None`); a name that is
/// not UTF-8 is an error (Kafka's header names are strings).
pub fn headers(raw: &[u8], count: usize) -> Result<Vec<Header<'_>>, String> {
    let mut at = 0;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(header(raw, &mut at)?);
    }
    Ok(out)
}

fn header<'b>(b: &'b [u8], at: &mut usize) -> Result<Header<'b>, String> {
    let name = bytes(b, at)?.ok_or_else(|| "a record header without a name".to_string())?;
    let name = std::str::from_utf8(name).map_err(|_| "a record header's name is not UTF-8".to_string())?;
    Ok((name, bytes(b, at)?))
}

/// A length-prefixed byte string (-1: null).
fn bytes<'b>(b: &'b [u8], at: &mut usize) -> Result<Option<&'b [u8]>, String> {
    let length = varint(b, at)?;
    if length == -1 {
        return Ok(None);
    }
    let end = usize::try_from(length).ok().and_then(|n| at.checked_add(n))
        .filter(|&end| end <= b.len())
        .ok_or_else(|| format!("a record field's length ({}) runs past its record", length))?;
    let out = &b[*at..end];
    *at = end;
    Ok(Some(out))
}

/// A zigzag varint (Kafka's varint and varlong: at most 10 bytes).
fn varint(b: &[u8], at: &mut usize) -> Result<i64, String> {
    let mut raw = 0u64;
    for shift in 0..10 {
        let byte = *b.get(*at).ok_or_else(|| "a record ends inside a number".to_string())?;
        *at += 1;
        raw |= u64::from(byte & 0x7f) << (7 * shift);
        if byte & 0x80 == 0 {
            return Ok((raw >> 1) as i64 ^ -((raw & 1) as i64));
        }
    }
    Err("a record holds a number longer than 10 bytes".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put_varint(out: &mut Vec<u8>, n: i64) {
        let mut z = ((n << 1) ^ (n >> 63)) as u64;
        loop {
            let byte = (z & 0x7f) as u8;
            z >>= 7;
            if z == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }

    fn put_bytes(out: &mut Vec<u8>, b: Option<&[u8]>) {
        match b {
            None => put_varint(out, -1),
            Some(b) => {
                put_varint(out, b.len() as i64);
                out.extend_from_slice(b);
            }
        }
    }

    type Spec<'a> = (i64, Option<&'a [u8]>, Option<&'a [u8]>, Vec<(&'a str, Option<&'a [u8]>)>);

    /// A batch as Kafka's format describes it, written here byte by byte.
    fn batch(base: i64, records: &[Spec<'_>], attributes: u16) -> Vec<u8> {
        let mut body = Vec::new();
        for (delta, key, value, headers) in records {
            let mut r = vec![0u8];
            put_varint(&mut r, 7); // timestamp delta
            put_varint(&mut r, *delta);
            put_bytes(&mut r, *key);
            put_bytes(&mut r, *value);
            put_varint(&mut r, headers.len() as i64);
            for (name, value) in headers {
                put_bytes(&mut r, Some(name.as_bytes()));
                put_bytes(&mut r, *value);
            }
            put_varint(&mut body, r.len() as i64);
            body.extend_from_slice(&r);
        }
        let mut out = Vec::new();
        out.extend_from_slice(&base.to_be_bytes());
        out.extend_from_slice(&((HEADER_BYTES - 12 + body.len()) as i32).to_be_bytes());
        out.extend_from_slice(&0i32.to_be_bytes()); // leader epoch
        out.push(2);
        out.extend_from_slice(&0u32.to_be_bytes()); // crc (aiokafka checks it)
        out.extend_from_slice(&attributes.to_be_bytes());
        out.extend_from_slice(&((records.len() as i32) - 1).to_be_bytes());
        out.extend_from_slice(&[0u8; 16]); // timestamps
        out.extend_from_slice(&(-1i64).to_be_bytes());
        out.extend_from_slice(&(-1i16).to_be_bytes());
        out.extend_from_slice(&(-1i32).to_be_bytes());
        out.extend_from_slice(&(records.len() as i32).to_be_bytes());
        out.extend_from_slice(&body);
        out
    }

    fn all(buf: &[u8]) -> Result<Vec<Record<'_>>, String> {
        let b = Batch::new(buf)?;
        let mut out = Vec::new();
        let mut pos = 0;
        while let Some((r, next)) = b.next(pos)? {
            out.push(r);
            pos = next;
        }
        b.check()?;
        Ok(out)
    }

    #[test]
    fn the_crc_covers_the_batch_from_its_attributes_on() {
        let mut buf = batch(1000, &[(0, Some(b"T1"), Some(b"{\"a\":1}"), vec![("h", None)])], 0);
        assert!(!crc_ok(&buf), "the helper writes a zero CRC");
        let crc = crate::crc32c::crc32c(&buf[CRC_COVERS_FROM..]);
        buf[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_be_bytes());
        assert!(crc_ok(&buf));
        // Bytes before the attributes (offset, length, epoch, magic) are not covered.
        let mut uncovered = buf.clone();
        uncovered[0] ^= 1;
        assert!(crc_ok(&uncovered));
        for at in CRC_COVERS_FROM..buf.len() {
            let mut changed = buf.clone();
            changed[at] ^= 0x10;
            assert!(!crc_ok(&changed), "a changed byte at {} passed", at);
        }
        assert!(!crc_ok(&buf[..HEADER_BYTES - 1]));
    }

    #[test]
    fn reads_keys_values_offsets_and_headers() {
        let buf = batch(1000, &[
            (0, Some(b"T1"), Some(b"{\"a\":1}"), vec![]),
            (1, None, None, vec![("h", None), ("x", Some(b"yz"))]),
            (2, Some(b""), Some(b""), vec![]),
        ], 0);
        let records = all(&buf).unwrap();
        assert_eq!(records.len(), 3);
        assert_eq!((records[0].offset, records[0].key, records[0].value),
                   (1000, Some(&b"T1"[..]), Some(&b"{\"a\":1}"[..])));
        assert_eq!((records[1].offset, records[1].key, records[1].value), (1001, None, None));
        assert_eq!(headers(records[1].headers, records[1].header_count).unwrap(),
                   vec![("h", None), ("x", Some(&b"yz"[..]))]);
        assert_eq!((records[2].offset, records[2].key, records[2].value),
                   (1002, Some(&b""[..]), Some(&b""[..])));
        assert_eq!(Batch::new(&buf).unwrap().count(), 3);
    }

    #[test]
    fn large_offsets_and_long_values() {
        let value = vec![b'x'; 70_000]; // a three-byte length
        let buf = batch(1 << 40, &[(300, Some(b"k"), Some(&value), vec![])], 0);
        let records = all(&buf).unwrap();
        assert_eq!(records[0].offset, (1 << 40) + 300);
        assert_eq!(records[0].value.map(<[u8]>::len), Some(70_000));
    }

    #[test]
    fn refuses_what_aiokafka_reads_and_what_is_broken() {
        let good = batch(0, &[(0, Some(b"k"), Some(b"v"), vec![])], 0);
        assert!(Batch::new(&batch(0, &[(0, None, Some(b"v"), vec![])], 4)).is_err()); // zstd
        assert!(Batch::new(&batch(0, &[(0, None, Some(b"v"), vec![])], 0x20)).is_err()); // control
        let mut old = good.clone();
        old[MAGIC_AT] = 1;
        assert!(Batch::new(&old).is_err());
        assert!(Batch::new(&good[..good.len() - 1]).is_err()); // the length field disagrees
        // Every truncation of the records inside a consistent length is refused, not read.
        for cut in HEADER_BYTES..good.len() {
            let mut short = good[..cut].to_vec();
            let length = (cut - 12) as i32;
            short[8..12].copy_from_slice(&length.to_be_bytes());
            assert!(all(&short).is_err(), "cut {}", cut);
        }
        // Every single byte changed inside the records: read as something or refused,
        // never a panic or a read past the batch.
        for at in HEADER_BYTES..good.len() {
            for byte in [0u8, 0x7f, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[at] = byte;
                let _ = all(&bad);
            }
        }
    }

    #[test]
    fn check_reads_every_header_name() {
        let good = batch(0, &[(0, None, Some(b"v"), vec![("ab", None)])], 0);
        assert!(Batch::new(&good).unwrap().check().is_ok());
        let at = good.windows(2).position(|w| w == b"ab").unwrap();
        let mut bad = good.clone();
        bad[at] = 0xff;
        assert!(Batch::new(&bad).unwrap().check().is_err());
    }

    #[test]
    fn varints_are_zigzag() {
        for n in [0i64, -1, 1, 63, -64, 64, 300, -300, i64::MAX, i64::MIN] {
            let mut b = Vec::new();
            put_varint(&mut b, n);
            let mut at = 0;
            assert_eq!(varint(&b, &mut at), Ok(n));
            assert_eq!(at, b.len());
        }
        let mut at = 0;
        assert!(varint(&[0x80; 11], &mut at).is_err());
    }
}
