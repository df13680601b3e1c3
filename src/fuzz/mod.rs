//! Property tests over the readers of outside bytes, as an attacker or a
//! broken tool would write them: rg's output ([`readers`]) and the hook's
//! payloads ([`hooks`]). A room above every other, as it reads them all;
//! bench/fuzz.py runs them at length.

mod hooks;
mod readers;
