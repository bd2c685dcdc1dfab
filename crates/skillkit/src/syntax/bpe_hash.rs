//! The hash of the BPE vocabulary tables, shared by the build script (which lays the tables out)
//! and [`super::bpe`] (which reads them): both must place a token's bytes in the same slot.
//!
//! A slot is a little-endian `u32`: the token's id (its rank) in the low [`ID_BITS`] bits and a
//! fingerprint of its hash in the others, so that a probe rejects almost every other token without
//! reading its bytes. [`EMPTY`] marks a free slot.

/// Bits of a slot that hold the token id.
pub const ID_BITS: u32 = 18;
/// The id part of a slot.
pub const ID_MASK: u32 = (1 << ID_BITS) - 1;
/// A free slot (its id part, `ID_MASK`, is never a token's id).
pub const EMPTY: u32 = u32::MAX;

/// A 64-bit hash of a token's bytes: 8 bytes at a time, then a finalizer that spreads every input
/// bit to the high bits (the slot index) and the low bits (the fingerprint).
#[inline]
pub fn hash(b: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (b.len() as u64).wrapping_mul(K);
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
    }
    // The murmur3 finalizer.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The slot index of a hash in a table of `2^bits` slots.
#[inline]
pub fn slot_of(h: u64, bits: u32) -> usize {
    (h >> (64 - bits)) as usize
}

/// The fingerprint part of a slot for a hash.
#[inline]
pub fn fingerprint(h: u64) -> u32 {
    (h as u32) & !ID_MASK
}
