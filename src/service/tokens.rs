//! Seat tokens and match ids: OS randomness, stored only as hashes.

use rand::TryRng;
use rand::rngs::SysRng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::Error;

/// `n` bytes from the operating system's secure random source.
pub fn os_random<const N: usize>() -> Result<[u8; N], Error> {
    let mut out = [0u8; N];
    SysRng
        .try_fill_bytes(&mut out)
        .map_err(|e| Error::Internal(format!("OS random source: {e}")))?;
    Ok(out)
}

/// A new seat token (256 random bits, URL-safe) and its hash for storage.
pub fn new_token() -> Result<(String, String), Error> {
    let token = format!("bt_{}", hex::encode(os_random::<32>()?));
    let hash = hash_token(&token);
    Ok((token, hash))
}

/// A new match id (96 random bits, hex).
pub fn new_match_id() -> Result<String, Error> {
    Ok(hex::encode(os_random::<12>()?))
}

/// SHA-256 of a token, hex.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether a presented token's hash ([`hash_token`]) is `stored` (compared
/// in constant time).
pub fn hash_matches(hash: &str, stored: &str) -> bool {
    hash.as_bytes().ct_eq(stored.as_bytes()).into()
}

/// A short, non-reversible key for a presented token (rate-limit buckets).
pub fn token_key(token: &str) -> String {
    hash_token(token)[..16].to_string()
}
