//! A server on 127.0.0.1 for a test, in a thread of its own, and a small HTTP/1.1 client
//! over plain TCP (so the fuzz test can also send bytes no client library would).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Once, mpsc};
use std::time::Duration;

/// Panics anywhere in this process since the hook was set (the server's handlers run here).
pub static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

/// A running server; dropping it stops it.
pub struct Running {
    pub address: SocketAddr,
    pub results: PathBuf,
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A fresh results folder for `test`.
pub fn results_folder(test: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-web-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("results folder");
    dir
}

/// Starts a server on a free port of 127.0.0.1 over `results`, changed by `adjust`.
pub fn serve(results: &Path, adjust: impl FnOnce(&mut web::Options)) -> Running {
    count_panics();
    let mut options = web::Options::local(0, results.to_path_buf());
    adjust(&mut options);
    let (ready, address) = mpsc::channel();
    let (stop, stopped) = mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let server = web::Server::bind(options).await.expect("the server binds");
            ready.send(server.address()).expect("the test waits");
            let stop = async move {
                let _ = tokio::task::spawn_blocking(move || stopped.recv()).await;
            };
            server.run_until(stop).await.expect("the server runs");
        });
        runtime.shutdown_timeout(Duration::from_secs(30));
    });
    let address = address
        .recv_timeout(Duration::from_secs(30))
        .expect("the server starts");
    Running {
        address,
        results: results.to_path_buf(),
        stop: Some(stop),
        thread: Some(thread),
    }
}

/// One keep-alive connection to the server.
pub struct Client {
    address: SocketAddr,
    reader: BufReader<TcpStream>,
}

/// A response: status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
    /// The headers, names in lower case, in the order sent.
    pub headers: Vec<(String, String)>,
}

impl Answer {
    /// The value of header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

impl Client {
    pub fn new(address: SocketAddr) -> Client {
        let stream = TcpStream::connect(address).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .expect("timeout");
        stream.set_nodelay(true).expect("nodelay");
        Client {
            address,
            reader: BufReader::new(stream),
        }
    }

    /// Sends a request with a JSON body (for posts) and reads the answer.
    pub fn send(&mut self, method: &str, path: &str, body: Option<&str>) -> Answer {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: keep-alive\r\n",
            self.address
        );
        if let Some(body) = body {
            head.push_str(&format!(
                "Content-Type: application/json\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        let stream = self.reader.get_mut();
        stream.write_all(head.as_bytes()).expect("request head");
        if let Some(body) = body {
            stream.write_all(body.as_bytes()).expect("request body");
        }
        read_answer(&mut self.reader).expect("an answer")
    }

    pub fn get(&mut self, path: &str) -> Answer {
        self.send("GET", path, None)
    }

    pub fn post(&mut self, path: &str, body: &serde_json::Value) -> Answer {
        self.send("POST", path, Some(&body.to_string()))
    }
}

/// Reads one HTTP/1.1 response (Content-Length or chunked body).
pub fn read_answer(reader: &mut impl BufRead) -> std::io::Result<Answer> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "closed without an answer",
        ));
    }
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
    let mut length = None;
    let mut chunked = false;
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let value = value.trim();
            headers.push((name.to_ascii_lowercase(), value.to_string()));
            if name.eq_ignore_ascii_case("content-length") {
                length = value.parse::<usize>().ok();
            } else if name.eq_ignore_ascii_case("transfer-encoding")
                && value.eq_ignore_ascii_case("chunked")
            {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim(), 16)
                .map_err(|_| std::io::Error::other("bad chunk size"))?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = length {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(Answer {
        status,
        body: String::from_utf8_lossy(&body).into_owned(),
        headers,
    })
}

/// Plays a whole game of agents through the API from a new game's answer; returns the final
/// view and the latency of each move request.
pub fn play_out(
    client: &mut Client,
    game: &serde_json::Value,
) -> (serde_json::Value, Vec<Duration>) {
    let id = game["id"].as_str().expect("an id").to_string();
    let mut view = game.clone();
    let mut times = Vec::new();
    while view["over"].is_null() {
        let ply = view["ply"].as_u64().expect("a ply");
        let clock = std::time::Instant::now();
        let answer = client.post(
            &format!("/api/games/{id}/think"),
            &serde_json::json!({ "ply": ply }),
        );
        times.push(clock.elapsed());
        assert_eq!(answer.status, 200, "{}", answer.body);
        view = answer.json()["game"].clone();
    }
    (view, times)
}
