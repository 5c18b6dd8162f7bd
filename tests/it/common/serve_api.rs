//! The explorer's HTTP API spoken to as the page speaks to it: a `sargon serve` on a free
//! loopback port ([`Server`]), for tests/it/serve.rs and tests/it/serve_engines.rs. The
//! answers are read into the server's own types (`sargon_explorer::api`): a field renamed
//! or retyped on either side fails here.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::{Duration, Instant};

use sargon_explorer::api::{SearchBody, SearchStatus};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Our own port as an `exec:` program: `sargon trace` in JSON Lines, with the book as
/// asked (docs/checking-your-port.md), its path quoted for `sh`.
pub fn our_port_exec() -> String {
    let sargon = env!("CARGO_BIN_EXE_sargon").replace('\'', r"'\''");
    format!(
        r#"exec:'{sargon}' trace "$SARGON_FEN" --depth "$SARGON_DEPTH" --format jsonl $([ "$SARGON_BOOK" = 0 ] && echo --no-book)"#
    )
}

/// A `sargon serve` on a free port, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        Server::start_with_env(extra, &[])
    }

    /// [`Server::start`] with environment variables set for the server.
    pub fn start_with_env(extra: &[&str], env: &[(&str, &str)]) -> Server {
        let (child, url) = super::start_serve_with_env(extra, env);
        let port = url
            .trim_start_matches("http://127.0.0.1:")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|_| panic!("no port in {url}"));
        Server { child, port }
    }

    /// One request; the status and the body.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head += &format!("Host: 127.0.0.1:{}\r\n", self.port);
        }
        for (k, v) in headers {
            head += &format!("{k}: {v}\r\n");
        }
        let body = body.unwrap_or("");
        head += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // A refused large body may close the socket before all of it is written.
        let _ = stream.write_all(body.as_bytes());
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        let text = String::from_utf8_lossy(&response).to_string();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
        // Chunked bodies (the event stream) are left as they are; JSON routes send a length.
        (status, body.to_string())
    }

    /// A GET, its answer read as a `T` (an API type; `ErrorAnswer` for a refusal).
    pub fn get<T: DeserializeOwned>(&self, path: &str) -> (u16, T) {
        let (status, body) = self.request("GET", path, None, &[]);
        (status, read(path, status, &body))
    }

    /// A POST of `body` as JSON, its answer read as a `T`.
    pub fn post<T: DeserializeOwned>(&self, path: &str, body: &impl Serialize) -> (u16, T) {
        let body = serde_json::to_string(body).unwrap();
        let (status, text) = self.request("POST", path, Some(&body), &[]);
        (status, read(path, status, &text))
    }

    /// Start a search: its first status.
    pub fn search(&self, body: &SearchBody) -> SearchStatus {
        let (status, v) = self.post("/api/search", body);
        assert_eq!(status, 200, "{v:?}");
        v
    }

    /// Wait for search `id` to be over; its last status.
    pub fn wait(&self, id: u64) -> SearchStatus {
        let started = Instant::now();
        loop {
            let (status, v): (u16, SearchStatus) = self.get(&format!("/api/search/{id}"));
            assert_eq!(status, 200, "{v:?}");
            if !["waiting", "running"].contains(&v.state.as_str()) {
                return v;
            }
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "search {id} never ended"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// An answer read as a `T`, or a failure that shows it.
fn read<T: DeserializeOwned>(path: &str, status: u16, body: &str) -> T {
    serde_json::from_str(body).unwrap_or_else(|e| {
        panic!("{path}: status {status}, not the answer expected ({e}): {body:?}")
    })
}

/// A search of `fen` to `depth` with the port and the book, as the page asks by default.
pub fn search_body(fen: &str, depth: u8) -> SearchBody {
    SearchBody {
        fen: fen.to_string(),
        engine: "port".to_string(),
        depth,
        book: true,
        page: None,
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
