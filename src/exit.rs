//! The exit status: one enum, one conversion.

/// How a run ended (the codes are documented in the README and docs/design.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: something was shown.
    Shown,
    /// 1: no match.
    NoMatch,
    /// 2: bad input (pattern, glob, flag) or a broken environment (no rg).
    Error,
    /// 3: some requested paths could not be searched; the rest was.
    Partial,
}

impl ExitStatus {
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Shown => 0,
            ExitStatus::NoMatch => 1,
            ExitStatus::Error => 2,
            ExitStatus::Partial => 3,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}
