//! The hash the arena derives ids and seeds with.

/// 64-bit FNV-1a: a small, stable hash for ids and seeds (not for security).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
