//! Link settings for the `scout` binary.
//!
//! On Linux the binary is linked as a fixed-address executable (no PIE):
//! the grammar tables hold tens of thousands of pointers, and in a
//! position-independent executable the dynamic loader must relocate each
//! one before `main`, touching every page that holds them (19,428 run-time
//! relocations become 171: bench/history/2026-notebook.md, "scout's own
//! cost"; the start-up it buys is in BENCHMARKS.md, "Build and size"). Only the binary
//! is affected: the library, tests and build scripts link as usual.
//! A static build (`install.sh`: crt-static with a static relocation
//! model) is fixed-address already; with crt-static alone it is a static
//! PIE, which `-no-pie` would break, so neither gets the flag.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux");
    let crt_static = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .is_ok_and(|features| features.split(',').any(|f| f == "crt-static"));
    if linux && !crt_static {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
