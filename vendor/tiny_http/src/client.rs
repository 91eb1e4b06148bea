use ascii::AsciiString;

use std::io::Error as IoError;
use std::io::Result as IoResult;
use std::io::{BufReader, BufWriter, ErrorKind, Read};

use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Instant;

use crate::common::{HTTPVersion, Method};
use crate::util::RefinedTcpStream;
use crate::util::{SequentialReader, SequentialReaderBuilder, SequentialWriterBuilder};
use crate::{Limits, Request};

/// A ClientConnection is an object that will store a socket to a client
/// and return Request objects.
pub struct ClientConnection {
    // address of the client
    remote_addr: IoResult<Option<SocketAddr>>,

    // sequence of Readers to the stream, so that the data is not read in
    //  the wrong order
    source: SequentialReaderBuilder<BufReader<RefinedTcpStream>>,

    // sequence of Writers to the stream, to avoid writing response #2 before
    //  response #1
    sink: SequentialWriterBuilder<BufWriter<RefinedTcpStream>>,

    // Reader to read the next header from
    next_header_source: SequentialReader<BufReader<RefinedTcpStream>>,

    // set to true if we know that the previous request is the last one
    no_more_requests: bool,

    // true if the connection goes through SSL
    secure: bool,

    // Lull: the bounds on each request
    limits: Limits,
}

/// Error that can happen when reading a request.
#[derive(Debug)]
enum ReadError {
    WrongRequestLine,
    WrongHeader(HTTPVersion),
    /// the client sent an unrecognized `Expect` header
    ExpectationFailed(HTTPVersion),
    ReadIoError(IoError),
    /// Lull: the request line is longer than the limit (414).
    UriTooLong,
    /// Lull: the header lines are longer than the limit (431).
    HeadersTooLarge(HTTPVersion),
    /// Lull: the body is longer than the limit (413).
    BodyTooLarge(HTTPVersion),
    /// Lull: the body ended before its declared length (400).
    BodyIncomplete,
    /// Lull: the request took longer than the limit to arrive (408).
    TimedOut,
    /// Lull: no request came on an open connection for the idle time: closed quietly.
    Idle,
}

/// Lull: why a line could not be read.
enum LineError {
    /// Longer than allowed.
    TooLong,
    /// The request's time ran out.
    TimedOut,
    /// No first byte within the idle time.
    Idle,
    Io(IoError),
}

/// Lull: whether an error is a read timeout of the socket (`WouldBlock` on Unix).
pub(crate) fn is_timeout(e: &IoError) -> bool {
    matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)
}

impl ClientConnection {
    /// Creates a new `ClientConnection` that takes ownership of the `TcpStream`.
    pub fn new(
        write_socket: RefinedTcpStream,
        mut read_socket: RefinedTcpStream,
        limits: Limits,
    ) -> ClientConnection {
        let remote_addr = read_socket.peer_addr();
        let secure = read_socket.secure();

        let mut source = SequentialReaderBuilder::new(BufReader::with_capacity(1024, read_socket));
        let first_header = source.next().unwrap();

        ClientConnection {
            source,
            sink: SequentialWriterBuilder::new(BufWriter::with_capacity(1024, write_socket)),
            remote_addr,
            next_header_source: first_header,
            no_more_requests: false,
            secure,
            limits,
        }
    }

    /// true if the connection is HTTPS
    pub fn secure(&self) -> bool {
        self.secure
    }

    /// Reads the next line from self.next_header_source.
    ///
    /// Reads until `CRLF` is reached. The next read will start
    ///  at the first byte of the new line.
    ///
    /// Lull: at most `max_len` bytes (the CRLF included), and within the request's time:
    /// `started` is when its first byte came (set here by that byte); before it, the
    /// connection may stay idle for the idle time.
    fn read_next_line(
        &mut self,
        max_len: usize,
        started: &mut Option<Instant>,
    ) -> Result<AsciiString, LineError> {
        let waiting_since = Instant::now();
        let mut buf = Vec::new();
        let mut prev_byte_was_cr = false;

        loop {
            let mut byte = [0u8];
            let got = match self.next_header_source.read(&mut byte) {
                Ok(0) => {
                    return Err(LineError::Io(IoError::new(
                        ErrorKind::ConnectionAborted,
                        "Unexpected EOF",
                    )))
                }
                Ok(_) => true,
                Err(e) if e.kind() == ErrorKind::Interrupted => false,
                Err(e) if is_timeout(&e) => false,
                Err(e) => return Err(LineError::Io(e)),
            };
            if got && started.is_none() {
                *started = Some(Instant::now());
            }
            match *started {
                Some(t) if t.elapsed() > self.limits.request_timeout => {
                    return Err(LineError::TimedOut)
                }
                None if waiting_since.elapsed() > self.limits.idle_timeout => {
                    return Err(LineError::Idle)
                }
                _ => {}
            }
            if !got {
                continue;
            }
            let byte = byte[0];

            if byte == b'\n' && prev_byte_was_cr {
                buf.pop(); // removing the '\r'
                return AsciiString::from_ascii(buf).map_err(|_| {
                    LineError::Io(IoError::new(ErrorKind::InvalidInput, "Header is not in ASCII"))
                });
            }

            prev_byte_was_cr = byte == b'\r';

            buf.push(byte);
            // The line with its CRLF is longer than allowed: it is not kept.
            if buf.len() + 1 > max_len {
                return Err(LineError::TooLong);
            }
        }
    }

    /// Reads a request from the stream.
    /// Blocks until the header has been read.
    fn read(&mut self) -> Result<Request, ReadError> {
        let limits = self.limits.clone();
        let mut started = None;
        let (method, path, version, headers) = {
            // reading the request line
            let (method, path, version) = {
                let line = self
                    .read_next_line(limits.max_request_line, &mut started)
                    .map_err(|e| match e {
                        LineError::TooLong => ReadError::UriTooLong,
                        LineError::TimedOut => ReadError::TimedOut,
                        LineError::Idle => ReadError::Idle,
                        LineError::Io(e) => ReadError::ReadIoError(e),
                    })?;

                parse_request_line(
                    line.as_str().trim(), // TODO: remove this conversion
                )?
            };

            // getting all headers
            let headers = {
                let mut headers = Vec::new();
                // Lull: the header lines together, CRLFs included, within the limit.
                let mut left = limits.max_header_bytes;
                loop {
                    let line = self.read_next_line(left, &mut started).map_err(|e| match e {
                        LineError::TooLong => ReadError::HeadersTooLarge(version.clone()),
                        LineError::TimedOut => ReadError::TimedOut,
                        LineError::Idle => ReadError::Idle,
                        LineError::Io(e) => ReadError::ReadIoError(e),
                    })?;
                    left = left.saturating_sub(line.len() + 2);

                    if line.is_empty() {
                        break;
                    };
                    headers.push(match FromStr::from_str(line.as_str().trim()) {
                        // TODO: remove this conversion
                        Ok(h) => h,
                        _ => return Err(ReadError::WrongHeader(version)),
                    });
                }

                headers
            };

            (method, path, version, headers)
        };

        // building the writer for the request
        let writer = self.sink.next().unwrap();

        // follow-up for next potential request
        let mut data_source = self.source.next().unwrap();
        std::mem::swap(&mut self.next_header_source, &mut data_source);

        // building the next reader
        // Lull: the body is read here, whole, within the request's time (from its first
        // byte); a longer one than allowed is refused.
        let deadline = started.unwrap_or_else(Instant::now) + limits.request_timeout;
        let request = crate::request::new_request(
            self.secure,
            method,
            path,
            version.clone(),
            headers,
            *self.remote_addr.as_ref().unwrap(),
            data_source,
            writer,
            Some((limits.max_body, deadline)),
        )
        .map_err(|e| {
            use crate::request;
            match e {
                request::RequestCreationError::CreationIoError(e) => ReadError::ReadIoError(e),
                request::RequestCreationError::ExpectationFailed => {
                    ReadError::ExpectationFailed(version.clone())
                }
                request::RequestCreationError::BodyTooLarge => {
                    ReadError::BodyTooLarge(version.clone())
                }
                request::RequestCreationError::BodyIncomplete => ReadError::BodyIncomplete,
            }
        })?;

        // return the request
        Ok(request)
    }
}

impl ClientConnection {
    /// Lull: answers `status` with `{"error": why}`, as the server's own errors are written
    /// (the connection closes after it).
    fn refuse(&mut self, status: u16, why: &str) {
        use crate::{Header, Response, StatusCode};
        let writer = self.sink.next().unwrap();
        let body = format!("{{\"error\":\"{}\"}}", why.replace(['"', '\\'], "'"));
        let mut response = Response::from_string(body).with_status_code(StatusCode(status));
        if let Ok(h) = Header::from_bytes(&b"Content-Type"[..], &b"application/json; charset=utf-8"[..]) {
            response.add_header(h);
        }
        response
            .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
            .ok();
    }

    /// Lull: reads and drops what the client still sends, at most `LINGER_BYTES` and for at
    /// most one read timeout at a time and `LINGER_TIME` in all, before the connection is
    /// closed (closing a socket with unread data resets it, and the answer written just
    /// before may then never reach the client).
    fn linger(&mut self) {
        const LINGER_BYTES: usize = 1 << 20;
        const LINGER_TIME: std::time::Duration = std::time::Duration::from_secs(2);
        let start = Instant::now();
        let mut left = LINGER_BYTES;
        let mut buf = [0u8; 4096];
        while left > 0 && start.elapsed() < LINGER_TIME {
            let want = left.min(buf.len());
            match self.next_header_source.read(&mut buf[..want]) {
                Ok(0) => return,
                Ok(n) => left -= n,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    }
}

impl Iterator for ClientConnection {
    type Item = Request;

    /// Blocks until the next Request is available.
    /// Returns None when no new Requests will come from the client.
    fn next(&mut self) -> Option<Request> {
        use crate::{Response, StatusCode};

        // the client sent a "connection: close" header in this previous request
        //  or is using HTTP 1.0, meaning that no new request will come
        if self.no_more_requests {
            return None;
        }

        loop {
            let rq = match self.read() {
                Err(ReadError::WrongRequestLine) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(400));
                    response
                        .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
                        .ok();
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::WrongHeader(ver)) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(400));
                    response.raw_print(writer, ver, &[], false, None).ok();
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::ReadIoError(ref err)) if err.kind() == ErrorKind::TimedOut => {
                    // request timeout
                    self.refuse(408, "the request took too long to arrive");
                    return None; // closing the connection
                }

                // Lull: a request over a limit gets its status with a word of why, then the
                // connection closes (what the client still sends is read and dropped for a
                // moment, so that the answer is not lost to a reset).
                Err(ReadError::TimedOut) => {
                    self.refuse(408, "the request took too long to arrive");
                    return None;
                }
                Err(ReadError::UriTooLong) => {
                    self.refuse(414, "the request line (the URL) is too long");
                    self.linger();
                    return None;
                }
                Err(ReadError::HeadersTooLarge(_)) => {
                    self.refuse(431, "the request's header fields are too large");
                    self.linger();
                    return None;
                }
                Err(ReadError::BodyTooLarge(_)) => {
                    let why = format!("request body over {} bytes", self.limits.max_body);
                    self.refuse(413, &why);
                    self.linger();
                    return None;
                }
                Err(ReadError::BodyIncomplete) => {
                    self.refuse(400, "the request body ended before its declared length");
                    return None;
                }
                Err(ReadError::Idle) => return None,

                Err(ReadError::ExpectationFailed(ver)) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(417));
                    response.raw_print(writer, ver, &[], true, None).ok();
                    return None; // TODO: should be recoverable, but needs handling in case of body
                }

                Err(ReadError::ReadIoError(_)) => return None,

                Ok(rq) => rq,
            };

            // checking HTTP version
            if *rq.http_version() > (1, 1) {
                let writer = self.sink.next().unwrap();
                let response = Response::from_string(
                    "This server only supports HTTP versions 1.0 and 1.1".to_owned(),
                )
                .with_status_code(StatusCode(505));
                response
                    .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
                    .ok();
                continue;
            }

            // updating the status of the connection
            let connection_header = rq
                .headers()
                .iter()
                .find(|h| h.field.equiv("Connection"))
                .map(|h| h.value.as_str());

            let lowercase = connection_header.map(|h| h.to_ascii_lowercase());

            match lowercase {
                Some(ref val) if val.contains("close") => self.no_more_requests = true,
                Some(ref val) if val.contains("upgrade") => self.no_more_requests = true,
                Some(ref val)
                    if !val.contains("keep-alive") && *rq.http_version() == HTTPVersion(1, 0) =>
                {
                    self.no_more_requests = true
                }
                None if *rq.http_version() == HTTPVersion(1, 0) => self.no_more_requests = true,
                _ => (),
            };

            // returning the request
            return Some(rq);
        }
    }
}

/// Parses a "HTTP/1.1" string.
fn parse_http_version(version: &str) -> Result<HTTPVersion, ReadError> {
    let (major, minor) = match version {
        "HTTP/0.9" => (0, 9),
        "HTTP/1.0" => (1, 0),
        "HTTP/1.1" => (1, 1),
        "HTTP/2.0" => (2, 0),
        "HTTP/3.0" => (3, 0),
        _ => return Err(ReadError::WrongRequestLine),
    };

    Ok(HTTPVersion(major, minor))
}

/// Parses the request line of the request.
/// eg. GET / HTTP/1.1
fn parse_request_line(line: &str) -> Result<(Method, String, HTTPVersion), ReadError> {
    let mut parts = line.split(' ');

    let method = parts.next().and_then(|w| w.parse().ok());
    let path = parts.next().map(ToOwned::to_owned);
    let version = parts.next().and_then(|w| parse_http_version(w).ok());

    method
        .and_then(|method| Some((method, path?, version?)))
        .ok_or(ReadError::WrongRequestLine)
}

#[cfg(test)]
mod test {
    #[test]
    fn test_parse_request_line() {
        let (method, path, ver) = super::parse_request_line("GET /hello HTTP/1.1").unwrap();

        assert!(method == crate::Method::Get);
        assert!(path == "/hello");
        assert!(ver == crate::common::HTTPVersion(1, 1));

        assert!(super::parse_request_line("GET /hello").is_err());
        assert!(super::parse_request_line("qsd qsd qsd").is_err());
    }
}
