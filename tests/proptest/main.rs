//! The property tests of bad input, in one test binary of their own: `fuzz` counts every panic
//! of the process (caught or not), so no other test may run beside them. Run one with a
//! filter, e.g. `cargo test --profile ci --test proptest proptest_inputs::`; the ignored
//! companions with 100,000 cases each: `cargo test --profile ci --test proptest -- --ignored`.

mod fuzz;
mod proptest_execute;
mod proptest_inputs;
#[cfg(feature = "tools")]
mod proptest_readers;
