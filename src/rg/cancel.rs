//! Stopping the rg processes of one request: an MCP tool call the client
//! cancelled, served inside the server's process. Each rg started
//! for a cancellable request runs in a process group of its own (an rg
//! wrapper script's children with it), and cancelling kills the groups
//! still running. A search in a shell is never started so: its rg stays
//! in the shell's group, where Ctrl-C reaches it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rustix::process::{kill_process_group, Pid, Signal};

/// A request's cancellation, shared by every rg it starts.
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<State>);

#[derive(Debug, Default)]
struct State {
    cancelled: AtomicBool,
    /// The process groups (each led by an rg) running now.
    groups: Mutex<Vec<Pid>>,
}

impl Cancel {
    /// Stops every rg of the request, running or yet to start.
    pub fn cancel(&self) {
        self.0.cancelled.store(true, Ordering::SeqCst);
        let groups = self.0.groups.lock().unwrap_or_else(|e| e.into_inner());
        for &group in groups.iter() {
            let _ = kill_process_group(group, Signal::KILL);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    /// Notes the group an rg just started leads; one started after the
    /// request was cancelled is stopped at once.
    pub(super) fn started(&self, id: u32) {
        let Some(group) = Pid::from_raw(id as i32) else {
            return;
        };
        let mut groups = self.0.groups.lock().unwrap_or_else(|e| e.into_inner());
        if self.is_cancelled() {
            let _ = kill_process_group(group, Signal::KILL);
        }
        groups.push(group);
    }

    /// Forgets the group of an rg about to be reaped: once it is, its id
    /// may lead another process, which a later cancel must not kill.
    pub(super) fn ended(&self, id: u32) {
        let mut groups = self.0.groups.lock().unwrap_or_else(|e| e.into_inner());
        groups.retain(|g| g.as_raw_nonzero().get() as u32 != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::time::{Duration, Instant};

    #[test]
    fn cancelling_stops_the_group_and_what_starts_after_it() {
        let cancel = Cancel::default();
        // A shell and the sleep it starts: both in the shell's group.
        let mut child = Command::new("sh")
            .args(["-c", "sleep 30 & wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        cancel.started(child.id());
        assert!(!cancel.is_cancelled());
        let started = Instant::now();
        cancel.cancel();
        cancel.ended(child.id());
        child.wait().unwrap();
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(cancel.is_cancelled());
        // One started after the cancel is stopped as it is noted.
        let mut late = Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        cancel.started(late.id());
        cancel.ended(late.id());
        let status = late.wait().unwrap();
        assert!(!status.success());
    }
}
