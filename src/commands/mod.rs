//! One module per command; each takes resolved settings and writers.

pub mod doctor;
pub mod search;
