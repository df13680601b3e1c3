//! One module per command; each takes resolved settings and writers.

pub mod doctor;
pub mod edit;
pub mod files;
pub mod grep;
pub mod hook;
pub mod index;
pub mod man;
pub mod memory;
pub mod read;
pub mod search;
pub mod setup;
pub mod smart;
