//! `lull explore`: a local web page to look at the quiescence search.
//!
//! A small HTTP server ([`tiny_http`], a pool of [`WORKERS`] threads) on 127.0.0.1 serves one
//! page ([`api::PAGE_HTML`] with its script and style sheet, embedded: no network at run
//! time) and a JSON API ([`api`]). The page sets up a position (a FEN, or moves clicked on
//! the board), switches the quiescence options and the depth, and runs a job ([`jobs`]): the
//! horizon pair of [`crate::tools::teaching::horizon`] (the same search without and with the
//! quiescence search) and the quiescence tree (of [`crate::tools::teaching::qtree`]) where the search
//! without it stopped. Jobs run on their own threads and can be stopped; each browser tab
//! has its own.
//!
//! Only 127.0.0.1 is bound unless `--host` asks for another address; on a loopback address
//! the `Host` header must name the loopback too (`localhost`, `127.0.0.1`, `[::1]`), which
//! keeps pages of other sites from reaching the server through DNS rebinding. Every handler
//! runs under `catch_unwind`: a panic is a 500 answer, and the server goes on.
//!
//! No client can hold the server ([`server_limits`]): each connection has a thread of its own
//! that reads a request whole, body included, before a worker sees it, within
//! [`REQUEST_TIMEOUT_MS`] from its first byte (408 past it); a request line over
//! [`MAX_REQUEST_LINE`] bytes is answered 414, header lines over [`MAX_HEADER_BYTES`] 431, a
//! body over [`MAX_BODY`] 413, each as soon as it is seen and before it is kept; at most
//! [`MAX_CONNECTIONS`] connections are open at once (503 beyond), an idle one is closed after
//! [`IDLE_TIMEOUT_MS`]. The searches a request starts are bounded in nodes and time
//! ([`jobs`]).

pub mod api;
pub mod breakdown;
pub mod jobs;
pub mod notes;
pub mod tour;

use std::io::Read as _;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use api::{handle, Reply, MAX_BODY};
use jobs::JobTable;

use crate::tools::cli::fail;

/// Worker threads answering requests (the searches run on threads of their own).
pub const WORKERS: usize = 8;
/// Default port.
pub const DEFAULT_PORT: u16 = 7654;
/// Longest request line (method, URL, version), in bytes: longer is answered 414.
pub const MAX_REQUEST_LINE: usize = 8 * 1024;
/// Most bytes of a request's header lines: more is answered 431.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
/// Milliseconds a request (request line, headers, body) may take to arrive, from its first
/// byte: past them the answer is 408.
pub const REQUEST_TIMEOUT_MS: u64 = 10_000;
/// Milliseconds an open connection may wait for its next request before it is closed.
pub const IDLE_TIMEOUT_MS: u64 = 15_000;
/// Milliseconds of one read from a client at most (how often the deadlines are checked).
pub const READ_TIMEOUT_MS: u64 = 500;
/// Milliseconds of one write to a client at most (one that reads nothing).
pub const WRITE_TIMEOUT_MS: u64 = 5_000;
/// Connections open at once at most (each has a thread): another is answered 503.
pub const MAX_CONNECTIONS: usize = 64;

/// The bounds of the server on connections and requests (the constants above).
pub fn server_limits() -> tiny_http::Limits {
    tiny_http::Limits {
        max_request_line: MAX_REQUEST_LINE,
        max_header_bytes: MAX_HEADER_BYTES,
        max_body: MAX_BODY,
        request_timeout: Duration::from_millis(REQUEST_TIMEOUT_MS),
        idle_timeout: Duration::from_millis(IDLE_TIMEOUT_MS),
        read_timeout: Duration::from_millis(READ_TIMEOUT_MS),
        write_timeout: Duration::from_millis(WRITE_TIMEOUT_MS),
        max_connections: MAX_CONNECTIONS,
    }
}

/// Arguments of `lull explore`.
#[derive(Clone, Debug, clap::Args)]
pub struct ExploreArgs {
    /// Port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on. The default serves this machine only; another address (e.g.
    /// 0.0.0.0) exposes the explorer, and its searches, to the network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
}

/// A running server.
pub struct ExploreServer {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    jobs: Arc<JobTable>,
    closing: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
}

impl ExploreServer {
    /// Binds `host:port` (port 0: any free port) and starts the workers, within
    /// [`server_limits`].
    pub fn start(host: IpAddr, port: u16) -> Result<Self, String> {
        Self::start_with(host, port, server_limits(), jobs::Caps::default())
    }

    /// [`ExploreServer::start`] within other `limits` and `caps` (smaller in a test).
    pub fn start_with(
        host: IpAddr,
        port: u16,
        limits: tiny_http::Limits,
        caps: jobs::Caps,
    ) -> Result<Self, String> {
        let server = tiny_http::Server::http_with_limits(SocketAddr::new(host, port), limits)
            .map_err(|e| format!("cannot listen on {}: {e}", SocketAddr::new(host, port)))?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| "the server has no IP address".to_string())?;
        let server = Arc::new(server);
        let jobs = Arc::new(JobTable::with_caps(caps));
        let closing = Arc::new(AtomicBool::new(false));
        let mut workers = Vec::new();
        for i in 0..WORKERS {
            let (server, jobs, closing) =
                (Arc::clone(&server), Arc::clone(&jobs), Arc::clone(&closing));
            let worker = std::thread::Builder::new()
                .name(format!("explore-http-{i}"))
                .spawn(move || serve(&server, &jobs, &closing, host))
                .map_err(|e| format!("cannot start a server thread: {e}"))?;
            workers.push(worker);
        }
        Ok(Self {
            server,
            addr,
            jobs,
            closing,
            workers,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address, for people: `http://127.0.0.1:7654/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Blocks while the server runs (until [`ExploreServer::shutdown`] from elsewhere, or
    /// the end of the process).
    pub fn wait(mut self) {
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }

    /// Stops the searches and the workers, and waits for the workers.
    pub fn shutdown(mut self) {
        self.close();
    }

    fn close(&mut self) {
        self.closing.store(true, Ordering::SeqCst);
        self.jobs.stop_all();
        for _ in 0..self.workers.len() {
            self.server.unblock();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Drop for ExploreServer {
    fn drop(&mut self) {
        if !self.workers.is_empty() {
            self.close();
        }
    }
}

/// Whether `host` (a `Host` header) names the loopback: `localhost`, `127.0.0.1`, `[::1]`,
/// with or without a port.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim();
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(h, _)| h)
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether a request with that `Host` header may be answered by a server bound to `bound`.
fn host_allowed(host: Option<&str>, bound: IpAddr) -> bool {
    if bound.is_loopback() {
        host.is_some_and(is_loopback_host)
    } else {
        // Exposed on purpose (--host): any name may reach it.
        true
    }
}

/// One worker: answers requests until the server closes.
fn serve(server: &tiny_http::Server, jobs: &JobTable, closing: &AtomicBool, bound: IpAddr) {
    loop {
        let request = match server.recv() {
            Ok(r) => r,
            Err(_) if closing.load(Ordering::SeqCst) => return,
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(10));
                continue;
            }
        };
        if closing.load(Ordering::SeqCst) {
            return;
        }
        answer(request, jobs, bound);
    }
}

fn answer(mut request: tiny_http::Request, jobs: &JobTable, bound: IpAddr) {
    let host = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_string());
    let method = request.method().as_str().to_string();
    let url = request.url().to_string();
    let reply = if !host_allowed(host.as_deref(), bound) {
        Reply::error(
            403,
            "the Host header must name this machine (localhost or 127.0.0.1)",
        )
    } else if let Err(reply) = declared_length_ok(&request) {
        // Refused before a byte of the body is read or any room made for it.
        reply
    } else {
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        match read {
            Err(e) => Reply::error(400, format!("cannot read the request body: {e}")),
            Ok(_) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                handle(&method, &url, &body, jobs)
            }))
            .unwrap_or_else(|_| Reply::error(500, "internal error (the server goes on)")),
        }
    };
    let head = method.eq_ignore_ascii_case("HEAD");
    let mut response = tiny_http::Response::from_data(if head {
        Vec::new()
    } else {
        reply.body.into_bytes()
    })
    .with_status_code(reply.status);
    for (name, value) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; object-src 'none'",
        ),
    ] {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    }
    // A client that went away is its own business.
    let _ = request.respond(response);
}

/// Checks the body a request declares before any of it is read: a `Content-Length` that is
/// not a number is a 400, one over [`MAX_BODY`] a 413 (an actual body longer than it says is
/// cut at `MAX_BODY + 1` bytes and refused by the handler).
fn declared_length_ok(request: &tiny_http::Request) -> Result<(), Reply> {
    let declared = request
        .headers()
        .iter()
        .filter(|h| h.field.equiv("Content-Length"))
        .map(|h| h.value.as_str().trim().to_string())
        .collect::<Vec<_>>();
    if declared.len() > 1 {
        return Err(Reply::error(400, "more than one Content-Length header"));
    }
    match declared.first() {
        None => Ok(()),
        Some(text) => match text.parse::<u64>() {
            Ok(n) if n <= MAX_BODY as u64 => Ok(()),
            Ok(n) => Err(Reply::error(
                413,
                format!("request body over {MAX_BODY} bytes ({n} declared)"),
            )),
            Err(_) => Err(Reply::error(400, "Content-Length is not a number of bytes")),
        },
    }
}

/// `lull explore`: serves the page until the process ends. Exit code 1 when the address
/// cannot be bound.
pub fn run(args: ExploreArgs) -> ExitCode {
    let server = match ExploreServer::start(args.host, args.port) {
        Ok(s) => s,
        Err(e) => return fail(1, e),
    };
    println!("lull explore: open {} (Ctrl-C to stop)", server.url());
    if !args.host.is_loopback() {
        println!(
            "warning: listening on {}: other machines can reach the explorer",
            args.host
        );
    }
    server.wait();
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_of_the_loopback() {
        for h in [
            "localhost",
            "localhost:7654",
            "127.0.0.1:1",
            "[::1]:80",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in [
            "evil.example",
            "evil.example:7654",
            "10.0.0.1",
            "",
            "[::2]:1",
        ] {
            assert!(!is_loopback_host(h), "{h}");
        }
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(!host_allowed(None, lo));
        assert!(!host_allowed(Some("rebound.example"), lo));
        assert!(host_allowed(
            Some("rebound.example"),
            "0.0.0.0".parse().unwrap()
        ));
    }
}
