//! Lays out the o200k_base and cl100k_base vocabularies as tables that `syntax::bpe` reads in place
//! (`include_bytes!`): no parsing and no heap at start-up, only the pages a lookup touches. The
//! vocabularies come from the `bpe-openai` crate (a build dependency), whose token ids are
//! tiktoken's ranks (it builds each dictionary from the `.tiktoken` file in rank order).
//!
//! Per encoding, in `OUT_DIR`:
//! - `<name>.tokens`: every token's bytes, concatenated in id order;
//! - `<name>.starts`: `n + 1` little-endian `u32` offsets into it (token `i` is `starts[i]..starts[i + 1]`);
//! - `<name>.slots`: an open-addressing hash table (linear probing) of `2^bits` little-endian `u32`
//!   slots, each a token id and a fingerprint of its hash (see `src/syntax/bpe_hash.rs`);
//! - `<name>.pairs`: 65,536 little-endian `u32`, the id of each two-byte token at index
//!   `first << 8 | second` (`EMPTY` where those two bytes are no token): most lookups while
//!   merging are of two bytes, and this answers them with one read, no hash and no compare;
//! - `<name>.rs`: the table's constants (number of tokens, slot bits, longest token).

#[path = "src/syntax/bpe_hash.rs"]
#[allow(dead_code)]
mod bpe_hash;

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/syntax/bpe_hash.rs");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR is set during build");
    let out = Path::new(&out);
    write_table(out, "o200k", &bpe_openai::o200k_base().bpe);
    write_table(out, "cl100k", &bpe_openai::cl100k_base().bpe);
}

fn write_table(out: &Path, name: &str, bpe: &bpe_openai::byte_pair_encoding::BytePairEncoding) {
    let n = bpe.num_tokens();
    assert!(n < bpe_hash::ID_MASK as usize, "{name}: too many tokens for the slot layout");
    // At most ~40 % full: a lookup that misses (most pair lookups while merging) probes ~2 slots.
    let bits = (n * 5 / 2).next_power_of_two().trailing_zeros();
    let mut tokens = Vec::new();
    let mut starts = Vec::with_capacity((n + 1) * 4);
    let mut slots = vec![bpe_hash::EMPTY; 1 << bits];
    let mut max_len = 0;
    let mut pairs = vec![bpe_hash::EMPTY; 1 << 16];
    starts.extend_from_slice(&0u32.to_le_bytes());
    for id in 0..n as u32 {
        let b = bpe.token_bytes(id);
        tokens.extend_from_slice(b);
        starts.extend_from_slice(&(tokens.len() as u32).to_le_bytes());
        max_len = max_len.max(b.len());
        if let [first, second] = *b {
            pairs[usize::from(first) << 8 | usize::from(second)] = id;
        }
        let h = bpe_hash::hash(b);
        let mut i = bpe_hash::slot_of(h, bits);
        while slots[i] != bpe_hash::EMPTY {
            i = (i + 1) & ((1 << bits) - 1);
        }
        slots[i] = id | bpe_hash::fingerprint(h);
    }
    let slots: Vec<u8> = slots.iter().flat_map(|s| s.to_le_bytes()).collect();
    let pairs: Vec<u8> = pairs.iter().flat_map(|s| s.to_le_bytes()).collect();
    let write = |ext: &str, data: &[u8]| {
        std::fs::write(out.join(format!("{name}.{ext}")), data).expect("can write to OUT_DIR");
    };
    write("tokens", &tokens);
    write("starts", &starts);
    write("slots", &slots);
    write("pairs", &pairs);
    write(
        "rs",
        format!("Table {{\n    tokens: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.tokens\")),\n    starts: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.starts\")),\n    slots: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.slots\")),\n    pairs: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{name}.pairs\")),\n    n: {n},\n    bits: {bits},\n    max_len: {max_len},\n}}\n")
            .as_bytes(),
    );
}
