//! Expose the target triple to the tests (for `cargo metadata --filter-platform`).
fn main() {
    println!("cargo:rustc-env=E2E_TARGET={}", std::env::var("TARGET").unwrap());
}
