//! Giving freed memory back to the operating system.
//!
//! glibc's allocator gives back only what lies at the top of an arena (and blocks it mapped
//! on their own, which a freed block of a size once mapped stops being: the threshold grows):
//! the transposition tables of games a server played and freed (8 MiB and up each) stay
//! resident in the middle of its arenas while the server idles. On CI, 200 abandoned games
//! once left 94.8 MB resident where 38.9 MB had been before them. The server asks the
//! allocator to give every whole free page back ([`trim`]) on the sweep after it freed
//! something, off the request threads: glibc walks and locks each arena in turn.

/// Gives every whole free page of every allocator arena back to the operating system (glibc's
/// `malloc_trim(0)`); says whether any came back.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(
    unsafe_code,
    reason = "glibc's malloc_trim has no binding in std; the web's one unsafe call"
)]
pub fn trim() -> bool {
    unsafe extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: malloc_trim takes a byte count and touches only the allocator's own state, under
    // the allocator's locks (MT-Safe in its manual); it asks nothing of its caller.
    unsafe { malloc_trim(0) != 0 }
}

/// Where the allocator is not glibc (musl, other systems), [`trim`] gives nothing back.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() -> bool {
    false
}
