//! A D-Bus session bus of the test's own: a second start of the app finds the first through it
//! (`tauri-plugin-single-instance`), and no other test's app (nor the user's) is on it.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// `dbus-daemon --session`, stopped (SIGTERM) when dropped.
pub struct SessionBus {
    child: Child,
    /// `DBUS_SESSION_BUS_ADDRESS` for the processes that should use it.
    pub address: String,
}

impl SessionBus {
    pub fn start() -> SessionBus {
        let mut child = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile", "--print-address=1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon (apt package dbus)");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout).read_line(&mut line).expect("dbus-daemon prints its address");
        let address = line.trim().to_string();
        assert!(address.starts_with("unix:"), "dbus-daemon's address: {address:?}");
        SessionBus { child, address }
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}
