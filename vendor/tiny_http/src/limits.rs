//! Lull: what one client can make the server hold, bounded (see PATCHED.md).

use std::time::Duration;

/// Bounds on every connection and request. A request over one of them gets its error status
/// (408, 413, 414, 431, 503) from the connection's own thread, and the connection is closed:
/// the threads that answer requests only ever get requests whose bodies are complete.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Longest request line (method, URL and version), in bytes: a longer one is answered
    /// 414 (URI Too Long) as soon as it is seen, before it is kept.
    pub max_request_line: usize,
    /// Most bytes of all header lines of a request: more is answered 431 (Request Header
    /// Fields Too Large) as soon as it is seen.
    pub max_header_bytes: usize,
    /// Largest body, in bytes. A body up to it is read whole by the connection's thread
    /// before the request is handed on; a longer one (declared, or chunked) is answered 413
    /// (Payload Too Large).
    pub max_body: usize,
    /// Longest time a request may take to arrive (request line, headers and body), from its
    /// first byte: past it the answer is 408 (Request Timeout).
    pub request_timeout: Duration,
    /// Longest wait for the first byte of a request on an open connection; past it the
    /// connection is closed without a word.
    pub idle_timeout: Duration,
    /// Longest wait of one read from the socket (how often the deadlines above are checked
    /// while a client sends nothing).
    pub read_timeout: Duration,
    /// Longest wait of one write to the socket (a client that reads nothing).
    pub write_timeout: Duration,
    /// Most connections open at once (each has a thread): another is answered 503 (Service
    /// Unavailable) and closed.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_request_line: 8 * 1024,
            max_header_bytes: 64 * 1024,
            max_body: 1 << 20,
            request_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(60),
            read_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
}
