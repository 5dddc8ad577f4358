//! `arena serve`: the arena in the browser. A local web server whose pages play any variant
//! with people and agents in any seats (**Play**), analyse a position (**Analyse**), step
//! through any recorded game (**Replay**), show a results folder's report (**Report**), a run
//! as it plays (**Live**, `api_live.rs`) and a person's statistics (**Stats**). Every finished game is appended to the play record, as
//! `arena play` does in the terminal ([`arena::played`]).
//!
//! The page is one HTML file, a script and a style sheet, compiled into the binary
//! (`assets/`); it talks to a JSON API under `/api/`, and draws every game from the generic
//! position JSON of [`board`]. A table's agent thinks on a thread of its own as soon as it is
//! asked (one at a time per table), and the operating system shares the cores among the
//! thinking agents in time slices, so a cheap agent's answer never waits behind an expensive
//! one; a table is locked only while it changes, never while its agent thinks. Analyses (the
//! Analyse page) run at most [`Options::thinkers`] at once.
//!
//! Memory: each table is charged what its agents' settings let them hold ([`seats::memory_mb`]),
//! and all tables together at most [`Options::table_memory_mb`]; a game that would not fit is
//! refused (with a 400 when its agents alone are over the cap). Tables are freed when the page
//! leaves them (`DELETE /api/games/ID`, or `POST /api/games/ID/leave` when the tab closes, after
//! [`Options::leave_grace`] unless a reload takes the game up again), when idle for
//! [`Options::idle`], and agents are dropped as soon as a game ends; the next sweep gives what
//! was freed back to the operating system (glibc keeps it otherwise).
//!
//! Every request the server cannot serve gets a 4xx with a JSON body `{"error": "..."}` that
//! says what was wrong: an unknown variant or agent, an illegal move, malformed JSON, a body
//! over [`BODY_LIMIT`], a path outside the results folder. The server binds to 127.0.0.1 unless
//! told otherwise, and then answers only requests addressed to that host (so a web page
//! elsewhere cannot reach it by renaming a host), and refuses posts from other origins.
//!
//! ```no_run
//! let options = web::Options::local(0, "results".into());
//! let runtime = tokio::runtime::Runtime::new()?;
//! runtime.block_on(async {
//!     let server = web::Server::bind(options).await?;
//!     println!("open http://{}/", server.address());
//!     server.run().await
//! })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod api_analyse;
mod api_files;
mod api_live;
mod api_play;
pub mod board;
pub mod error;
mod memory;
pub mod seats;
pub mod table;
pub mod why;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use rand::{RngExt, SeedableRng};

pub use error::ApiError;

/// The largest request body the server reads: a move list of the longest game fits many
/// times over.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The memory all tables may hold by default, in MiB: 4 GiB, room for 16 games of the default
/// `mcts` (a 256 MiB tree) or 60 of the default `alphabeta` (a 64 MiB table), and within a
/// small machine's memory.
pub const DEFAULT_TABLE_MEMORY_MB: u64 = 4096;

/// How long a connection may take to send a request head, by default (hyper's own default).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);

/// How often the server looks for tables to free.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// How many freed games the server remembers, to tell a page why its game is gone.
const GONE_KEPT: usize = 1000;

/// Why a game is no longer open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gone {
    /// Freed, idle, to make room for a new game or an analysis.
    Evicted,
    /// Untouched for longer than [`Options::idle`].
    Idle,
    /// Its page was closed and no reload took it up within [`Options::leave_grace`].
    Left,
    /// Its page closed it (`DELETE`), starting another.
    Closed,
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// Where to listen. Port 0 picks a free port.
    pub address: SocketAddr,
    /// The results folder: Replay and Report read under it, and nothing outside it.
    pub results: PathBuf,
    /// The play record (default `RESULTS/play/games.csv`).
    pub record: PathBuf,
    /// The name a person plays under when the page gives none.
    pub name: String,
    /// The longest an agent may think about one move (its deadline).
    pub think_limit: Duration,
    /// Analyses (the Analyse page) running at once; more wait their turn without blocking
    /// other requests. Tables' agents do not queue: each thinks at once on a thread of its own.
    pub thinkers: usize,
    /// Games kept at once; the oldest idle ones are dropped to make room.
    pub tables: usize,
    /// The memory all tables together may hold, in MiB, as their agents' settings say
    /// ([`seats::memory_mb`]: `tt_mb`, `tree_mb`, 1 MiB for every other agent). A game whose
    /// agents alone ask more is refused; otherwise the oldest idle games make room.
    pub table_memory_mb: u64,
    /// A game nobody has touched for this long is freed.
    pub idle: Duration,
    /// A game whose page left it (a closed tab) is freed after this long unless a request
    /// takes it up again (a reload).
    pub leave_grace: Duration,
    /// A connection that has not sent a whole request head this long after it opened, or
    /// after its last answer, is closed (so half-sent requests cannot hold connections open).
    pub header_timeout: Duration,
    /// The operator's agents (`arena serve --agent NAME=SPEC`), which requests seat by name:
    /// the only way an outside agent (a program) sits at the server's tables.
    pub agents: Vec<seats::OwnAgent>,
    /// The sandbox the operator's outside agents run in (`--sandbox`).
    pub sandbox: protocol::sandbox::Mode,
}

impl Options {
    /// Listening on 127.0.0.1:`port`, reading `results`, the record in `results/play/`.
    pub fn local(port: u16, results: PathBuf) -> Options {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Options {
            address: SocketAddr::from(([127, 0, 0, 1], port)),
            record: arena::played::default_record(&results),
            results,
            name: arena::played::HUMAN.to_string(),
            think_limit: Duration::from_secs(60),
            thinkers: (2 * cores).max(4),
            tables: 100,
            table_memory_mb: DEFAULT_TABLE_MEMORY_MB,
            idle: Duration::from_secs(20 * 60),
            leave_grace: Duration::from_secs(15),
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            agents: Vec::new(),
            sandbox: protocol::sandbox::Mode::BestEffort,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebError {
    /// The address could not be bound.
    #[error("cannot listen on {address}: {error}{}", if error.kind() == std::io::ErrorKind::AddrInUse { " (another program uses this port: give another with --port, or --port 0 for any free one)" } else { "" })]
    Bind {
        /// The address.
        address: SocketAddr,
        /// The system's error.
        error: std::io::Error,
    },
    /// The results folder could not be made or read.
    #[error("cannot use the results folder `{}`: {error}", path.display())]
    Results {
        /// The folder.
        path: PathBuf,
        /// The system's error.
        error: std::io::Error,
    },
    /// The name is not one the record takes.
    #[error("--name: {0}")]
    Name(String),
    /// The server stopped on an I/O error.
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// A game at a table, whatever its game.
pub type AnyTable = Box<dyn table::Session>;

/// One open game: its lock, when a request last touched it, when its page left it (0: it has
/// not), and the memory its agents may hold.
#[derive(Clone)]
struct Entry {
    table: Arc<tokio::sync::Mutex<AnyTable>>,
    touched: Arc<AtomicU64>,
    left: Arc<AtomicU64>,
    memory_mb: u64,
    /// The order games were opened in: of two touched in the same millisecond, the older goes
    /// first.
    opened: u64,
}

/// What every request shares.
#[derive(Clone)]
pub struct App {
    inner: Arc<Shared>,
}

struct Shared {
    options: Options,
    /// The results folder, canonical: every path served must lie under it.
    root: PathBuf,
    tables: Mutex<HashMap<String, Entry>>,
    opened: AtomicU64,
    thinkers: Arc<tokio::sync::Semaphore>,
    ids: Mutex<rand_chacha::ChaCha8Rng>,
    started: Instant,
    /// The hosts requests may name (empty: any, for a bind the user chose to open).
    hosts: Vec<String>,
    /// Set when a game, an agent or an analysis was freed: the next sweep gives the memory
    /// back to the operating system ([`memory::trim`]).
    freed: AtomicBool,
    /// The memory the analyses running now may hold, MiB (changed under the `tables` lock).
    analysing_mb: AtomicU64,
    /// The last [`GONE_KEPT`] games freed, and why (locked after `tables` where both are).
    gone: Mutex<VecDeque<(String, Gone)>>,
    /// Set while a report is being written: one at a time ([`App::begin_report`]).
    writing_report: Arc<AtomicBool>,
    /// The operator's agents as checked when the server started ([`seats::check_own`]).
    own: Vec<seats::Offered>,
    /// Their checks on variants typed by hand, by agent name and variant id (at most one per
    /// variant id each: [`App::check_own_later`]).
    own_checked: Mutex<HashMap<(String, String), Result<(), String>>>,
}

impl App {
    /// The state of a server with `options` listening on `bound`. The operator's agents are
    /// checked here ([`seats::check_own`]): this blocks while their programs start.
    pub fn new(options: Options, bound: SocketAddr) -> Result<App, WebError> {
        std::fs::create_dir_all(&options.results).map_err(|error| WebError::Results {
            path: options.results.clone(),
            error,
        })?;
        let root = options
            .results
            .canonicalize()
            .map_err(|error| WebError::Results {
                path: options.results.clone(),
                error,
            })?;
        arena::played::check_name(&options.name).map_err(WebError::Name)?;
        let hosts = if bound.ip().is_loopback() {
            let port = bound.port();
            vec![
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ]
        } else {
            Vec::new()
        };
        // Game ids only need to differ between games of this server: the clock and the
        // process id seed them.
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
            ^ u64::from(std::process::id()).rotate_left(32);
        let own = seats::check_own(&options.agents, options.sandbox);
        Ok(App {
            inner: Arc::new(Shared {
                thinkers: Arc::new(tokio::sync::Semaphore::new(options.thinkers.max(1))),
                options,
                root,
                tables: Mutex::new(HashMap::new()),
                opened: AtomicU64::new(0),
                ids: Mutex::new(rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
                started: Instant::now(),
                hosts,
                freed: AtomicBool::new(false),
                analysing_mb: AtomicU64::new(0),
                gone: Mutex::new(VecDeque::new()),
                writing_report: Arc::new(AtomicBool::new(false)),
                own,
                own_checked: Mutex::new(HashMap::new()),
            }),
        })
    }

    fn options(&self) -> &Options {
        &self.inner.options
    }

    /// The operator's agents, as checked when the server started.
    pub fn own_agents(&self) -> &[seats::Offered] {
        &self.inner.own
    }

    /// The pre-flight check of the operator's agent `own` on a `variant` it was not checked on
    /// at start (an id typed by hand), made once on the blocking pool and remembered.
    async fn check_own_later(
        &self,
        own: &seats::Offered,
        variant: &rules::Variant,
    ) -> Result<(), String> {
        let key = (own.agent.name.clone(), variant.to_string());
        let known = |app: &App| {
            app.inner
                .own_checked
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&key)
                .cloned()
        };
        if let Some(known) = known(self) {
            return known;
        }
        let (agent, asked, mode) = (own.agent.clone(), *variant, self.options().sandbox);
        let checked =
            tokio::task::spawn_blocking(move || seats::check_variant(&agent, &asked, mode))
                .await
                .unwrap_or_else(|error| Err(format!("its check failed: {error}")));
        self.inner
            .own_checked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, checked.clone());
        checked
    }

    fn now_ms(&self) -> u64 {
        self.inner.started.elapsed().as_millis() as u64
    }

    /// A fresh random number for ids and seeds.
    fn random(&self) -> u64 {
        let mut rng = self.inner.ids.lock().unwrap_or_else(|e| e.into_inner());
        rng.random::<u64>()
    }

    /// The open game `id`.
    fn table(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<AnyTable>>, ApiError> {
        let tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        let entry = tables.get(id).ok_or_else(|| self.missing(id))?;
        entry.touched.store(self.now_ms(), Ordering::Relaxed);
        // A request after the page left (a reload) takes the game up again.
        entry.left.store(0, Ordering::Relaxed);
        Ok(entry.table.clone())
    }

    /// The answer for a game `id` that is not open: why it was freed, if it was lately.
    fn missing(&self, id: &str) -> ApiError {
        let gone = self.inner.gone.lock().unwrap_or_else(|e| e.into_inner());
        let why = gone
            .iter()
            .rev()
            .find(|(gone, _)| gone == id)
            .map(|(_, why)| *why);
        let options = self.options();
        ApiError::not_found(match why {
            Some(Gone::Evicted) => format!(
                "game `{id}` was closed to make room: the server keeps {} games and {} MiB of \
                 agents' tables, and closes the oldest idle game for a new one; start another",
                options.tables, options.table_memory_mb
            ),
            Some(Gone::Idle) => {
                let idle = options.idle.as_secs();
                let idle = if idle >= 60 && idle.is_multiple_of(60) {
                    format!("{} minutes", idle / 60)
                } else {
                    format!("{idle} s")
                };
                format!("game `{id}` was freed after {idle} untouched; start another")
            }
            Some(Gone::Left) => format!("game `{id}` was freed after its page was closed"),
            Some(Gone::Closed) => format!("game `{id}` was closed by its page"),
            None => format!(
                "no game `{id}` here: it ended long ago, the server restarted, or the id is wrong"
            ),
        })
    }

    /// Notes that the game `id` was freed, and why.
    fn forget(&self, id: String, why: Gone) {
        let mut gone = self.inner.gone.lock().unwrap_or_else(|e| e.into_inner());
        if gone.len() >= GONE_KEPT {
            gone.pop_front();
        }
        gone.push_back((id, why));
        self.freed();
    }

    /// Frees the game `id` now (its page started another, or closed): an agent thinking there
    /// finishes its move into a table nobody holds, and is dropped with it.
    fn close(&self, id: &str) -> Result<(), ApiError> {
        let mut tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        match tables.remove(id) {
            Some(_) => {
                self.forget(id.to_string(), Gone::Closed);
                Ok(())
            }
            None => Err(self.missing(id)),
        }
    }

    /// Notes that memory was freed (a game, an agent, an analysis): the next sweep gives it
    /// back to the operating system.
    fn freed(&self) {
        self.inner.freed.store(true, Ordering::Relaxed);
    }

    /// Marks the game `id` as left by its page: freed after the grace unless taken up again.
    fn leave(&self, id: &str) -> Result<(), ApiError> {
        let tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        let entry = tables.get(id).ok_or_else(|| self.missing(id))?;
        entry.left.store(self.now_ms().max(1), Ordering::Relaxed);
        Ok(())
    }

    /// Frees the games idle for longer than [`Options::idle`] and those left for longer than
    /// [`Options::leave_grace`].
    fn sweep(&self) {
        let mut tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        self.sweep_locked(&mut tables);
    }

    fn sweep_locked(&self, tables: &mut HashMap<String, Entry>) {
        let now = self.now_ms();
        let stale = now.saturating_sub(self.options().idle.as_millis() as u64);
        let gone = now.saturating_sub(self.options().leave_grace.as_millis() as u64);
        let mut freed = Vec::new();
        tables.retain(|id, entry| {
            let left = entry.left.load(Ordering::Relaxed);
            if left != 0 && left <= gone {
                freed.push((id.clone(), Gone::Left));
                return false;
            }
            let keep = entry.touched.load(Ordering::Relaxed) >= stale
                || !entry.table.try_lock().is_ok_and(|t| t.idle());
            if !keep {
                freed.push((id.clone(), Gone::Idle));
            }
            keep
        });
        for (id, why) in freed {
            self.forget(id, why);
        }
    }

    /// The memory the open tables and the running analyses may hold, MiB.
    pub fn tables_memory_mb(&self) -> u64 {
        let tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        self.held_mb(&tables)
    }

    /// What the open tables and the running analyses may hold, MiB (under the `tables` lock).
    fn held_mb(&self, tables: &HashMap<String, Entry>) -> u64 {
        tables.values().map(|entry| entry.memory_mb).sum::<u64>()
            + self.inner.analysing_mb.load(Ordering::Relaxed)
    }

    /// Opens a game whose agents may hold `memory_mb` and returns its id, freeing the oldest
    /// idle games when the server holds as many games, or as much memory, as it keeps.
    fn open(&self, table: AnyTable, memory_mb: u64) -> Result<String, ApiError> {
        let mut tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        self.make_room(&mut tables, memory_mb, "this game's agents", true)?;
        let id = format!("{:016x}", self.random());
        tables.insert(
            id.clone(),
            Entry {
                table: Arc::new(tokio::sync::Mutex::new(table)),
                touched: Arc::new(AtomicU64::new(self.now_ms())),
                left: Arc::new(AtomicU64::new(0)),
                memory_mb,
                opened: self.inner.opened.fetch_add(1, Ordering::Relaxed),
            },
        );
        Ok(id)
    }

    /// Holds `memory_mb` for an analysis (its agents and the solver, one at a time) until the
    /// hold is dropped, making room as a new game does.
    fn hold_for_analysis(&self, memory_mb: u64) -> Result<Hold, ApiError> {
        let mut tables = self.inner.tables.lock().unwrap_or_else(|e| e.into_inner());
        self.make_room(&mut tables, memory_mb, "this analysis's agents", false)?;
        self.inner
            .analysing_mb
            .fetch_add(memory_mb, Ordering::Relaxed);
        Ok(Hold {
            app: self.clone(),
            memory_mb,
        })
    }

    /// Frees the oldest idle games until `memory_mb` more fits under
    /// [`Options::table_memory_mb`] (and, for a `new_table`, one more game under
    /// [`Options::tables`]); `what` names the asker in the refusal.
    fn make_room(
        &self,
        tables: &mut HashMap<String, Entry>,
        memory_mb: u64,
        what: &str,
        new_table: bool,
    ) -> Result<(), ApiError> {
        let limit = if new_table {
            self.options().tables.max(1)
        } else {
            usize::MAX
        };
        let cap = self.options().table_memory_mb;
        if memory_mb > cap {
            return Err(ApiError::bad(format!(
                "{what} may hold {memory_mb} MiB (their tt_mb and tree_mb), more than the {cap} \
                 MiB all of this server's games and analyses may hold together; give them \
                 smaller tables"
            )));
        }
        self.sweep_locked(tables);
        loop {
            let held = self.held_mb(tables);
            if tables.len() < limit && held + memory_mb <= cap {
                return Ok(());
            }
            let idle = tables
                .iter()
                .filter(|(_, entry)| entry.table.try_lock().is_ok_and(|t| t.idle()))
                .min_by_key(|(_, entry)| (entry.touched.load(Ordering::Relaxed), entry.opened))
                .map(|(id, _)| id.clone());
            match idle {
                Some(id) => {
                    tables.remove(&id);
                    self.forget(id, Gone::Evicted);
                }
                None if tables.len() >= limit => {
                    return Err(ApiError::too_many(format!(
                        "the server holds {limit} games, all busy; try again in a moment"
                    )));
                }
                None => {
                    return Err(ApiError::too_many(format!(
                        "the games and analyses in progress hold {held} of the {cap} MiB this \
                         server gives them all, and {what} need {memory_mb}; try again in a \
                         moment"
                    )));
                }
            }
        }
    }

    /// The number of open games.
    pub fn open_tables(&self) -> usize {
        self.inner
            .tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// The results folder as given, for messages.
    fn results(&self) -> &Path {
        &self.options().results
    }
}

/// The one report being written; the next may start when it is dropped.
struct WritingReport(Arc<AtomicBool>);

impl Drop for WritingReport {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

impl App {
    /// Starts writing a report, or refuses (409) while another is being written: a report of
    /// a large pool takes long and much memory, and each runs on a thread of its own.
    fn begin_report(&self) -> Result<WritingReport, ApiError> {
        let flag = &self.inner.writing_report;
        flag.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .map_err(|_| {
                ApiError::conflict(
                    "another report is being written (one at a time); try again when it is done",
                )
            })?;
        Ok(WritingReport(flag.clone()))
    }
}

/// Memory held for an analysis; given back when dropped.
struct Hold {
    app: App,
    memory_mb: u64,
}

impl Drop for Hold {
    fn drop(&mut self) {
        self.app
            .inner
            .analysing_mb
            .fetch_sub(self.memory_mb, Ordering::Relaxed);
        self.app.freed();
    }
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    app: App,
}

impl Server {
    /// Binds the address of `options` and prepares the results folder.
    pub async fn bind(options: Options) -> Result<Server, WebError> {
        let address = options.address;
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|error| WebError::Bind { address, error })?;
        let bound = listener
            .local_addr()
            .map_err(|error| WebError::Bind { address, error })?;
        // The operator's agents start their programs to be checked: off the async threads.
        let app = tokio::task::spawn_blocking(move || App::new(options, bound))
            .await
            .map_err(|error| WebError::Serve(std::io::Error::other(error.to_string())))??;
        Ok(Server { listener, app })
    }

    /// The address it listens on (with the port picked, for port 0).
    pub fn address(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or(self.app.options().address)
    }

    /// The operator's agents, as checked when the server bound.
    pub fn own_agents(&self) -> &[seats::Offered] {
        self.app.own_agents()
    }

    /// Serves until the process is stopped.
    pub async fn run(self) -> Result<(), WebError> {
        self.run_until(std::future::pending()).await
    }

    /// Serves until `stop` completes, then finishes the requests under way. Each connection
    /// is HTTP/1.1 served by hyper, closed when a request head takes longer than
    /// [`Options::header_timeout`] to arrive.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), WebError> {
        sweep_in_background(&self.app);
        let header_timeout = self.app.options().header_timeout;
        let router = router(self.app);
        // Every connection holds a receiver: `stopping` tells them to finish, and `done`
        // closes once the last one has.
        let (stopping, stopped) = tokio::sync::watch::channel(false);
        let (done, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
        let mut stop = std::pin::pin!(stop);
        loop {
            let stream = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(error) => {
                        // A connection reset before it was taken, or out of descriptors:
                        // the server goes on, after a pause for the latter.
                        if !is_connection_error(&error) {
                            tokio::time::sleep(Duration::from_secs(1)).await;
                        }
                        continue;
                    }
                },
                () = &mut stop => break,
            };
            let service = hyper_util::service::TowerToHyperService::new(router.clone());
            let mut stopped = stopped.clone();
            let done = done.clone();
            tokio::spawn(async move {
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(header_timeout);
                let connection =
                    builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let mut connection = std::pin::pin!(connection);
                let mut finishing = false;
                loop {
                    tokio::select! {
                        // An error is the connection's alone (a reset, a timeout): it closes.
                        _ = connection.as_mut() => break,
                        _ = stopped.changed(), if !finishing => {
                            finishing = true;
                            connection.as_mut().graceful_shutdown();
                        }
                    }
                }
                drop(done);
            });
        }
        drop(self.listener);
        let _ = stopping.send(true);
        drop(done);
        let _ = all_done.recv().await;
        Ok(())
    }
}

/// Whether an accept error concerns that one connection only (not the listener).
fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        error.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    )
}

/// Frees idle and left tables every [`SWEEP_EVERY`] while the server runs, and gives what was
/// freed since the last sweep back to the operating system (the task ends with the server's
/// state).
fn sweep_in_background(app: &App) {
    let shared = Arc::downgrade(&app.inner);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(SWEEP_EVERY);
        loop {
            every.tick().await;
            let Some(inner) = shared.upgrade() else {
                return;
            };
            let app = App { inner };
            app.sweep();
            if app.inner.freed.swap(false, Ordering::Relaxed) {
                drop(app);
                let _ = tokio::task::spawn_blocking(memory::trim).await;
            }
        }
    });
}

/// Every route of the server.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/js/{name}", get(script))
        .route("/app.css", get(style))
        .route("/favicon.svg", get(icon))
        .route("/api/meta", get(api_analyse::meta))
        .route("/api/variant", get(api_analyse::variant))
        .route("/api/analyse", post(api_analyse::analyse))
        .route("/api/stats", get(api_analyse::stats))
        .route("/api/games", post(api_play::create))
        .route(
            "/api/games/{id}",
            get(api_play::show).delete(api_play::close),
        )
        .route("/api/games/{id}/leave", post(api_play::leave))
        .route("/api/games/{id}/move", post(api_play::person_move))
        .route("/api/games/{id}/think", post(api_play::think))
        .route("/api/games/{id}/hint", post(api_play::hint))
        .route("/api/games/{id}/undo", post(api_play::undo))
        .route("/api/games/{id}/resign", post(api_play::resign))
        .route("/api/games/{id}/ready", post(api_play::ready))
        .route("/api/games/{id}/move-now", post(api_play::move_now))
        .route("/api/games/{id}/record.csv", get(api_play::record_csv))
        .route("/api/games/{id}/moves.txt", get(api_play::moves_text))
        .route("/api/replay", get(api_files::line))
        .route("/api/records", get(api_files::records))
        .route("/api/records/games", get(api_files::games))
        .route("/api/records/game", get(api_files::game))
        .route("/api/reports", get(api_files::reports))
        .route(
            "/api/report",
            get(api_files::report).post(api_files::write_report),
        )
        .route("/api/live", get(api_live::runs))
        .route("/api/live/run", get(api_live::run))
        .route("/files/{*path}", get(api_files::file))
        .fallback(not_found)
        .method_not_allowed_fallback(not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        // A panic anywhere becomes a 500 for that request alone; the tests count none.
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        .with_state(app)
}

/// Refuses requests addressed to another host (DNS rebinding) and posts from another origin
/// (a web page elsewhere), unless the server was opened to the network on purpose.
async fn guard(State(app): State<App>, request: Request, next: Next) -> Response {
    let hosts = &app.inner.hosts;
    if !hosts.is_empty() {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .or_else(|| request.uri().authority().map(|a| a.as_str()));
        match host {
            Some(host) if hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) => {}
            Some(host) => {
                return ApiError::forbidden(format!(
                    "this server answers requests for {} only, not for `{host}`",
                    hosts[0]
                ))
                .into_response();
            }
            None => {
                return ApiError::bad("the request names no host (a Host header)").into_response();
            }
        }
        if request.method() != Method::GET
            && request.method() != Method::HEAD
            && let Some(origin) = request.headers().get(header::ORIGIN)
        {
            let origin = origin.to_str().unwrap_or("");
            let allowed = origin
                .strip_prefix("http://")
                .is_some_and(|rest| hosts.iter().any(|h| h.eq_ignore_ascii_case(rest)));
            if !allowed {
                return ApiError::forbidden(format!(
                    "posts from another origin (`{origin}`) are refused"
                ))
                .into_response();
            }
        }
    }
    next.run(request).await
}

async fn not_found(request: Request) -> ApiError {
    ApiError::not_found(format!(
        "no page or API at {} {}: the pages are at / and the API under /api/",
        request.method(),
        request.uri().path()
    ))
}

async fn not_allowed(request: Request) -> ApiError {
    ApiError::not_allowed(format!(
        "{} is not a method of {}: see the API in the README",
        request.method(),
        request.uri().path()
    ))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}

async fn index() -> Response {
    asset(
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    )
}

/// One module of `assets/js/`: its name and its text, compiled in.
macro_rules! module {
    ($name:literal) => {
        ($name, include_str!(concat!("../assets/js/", $name)))
    };
}

/// The page's script: plain ES modules, each a file of `assets/js/` served at `/js/NAME`
/// (`index.html` loads `main.js`, which imports the others by relative address). The web
/// crate's test `page` checks that every module the page reaches is here, and nothing else.
pub const MODULES: &[(&str, &str)] = &[
    module!("analyse.js"),
    module!("api.js"),
    module!("board-common.js"),
    module!("board-grid.js"),
    module!("board-ring.js"),
    module!("board-tools.js"),
    module!("board.js"),
    module!("dom.js"),
    module!("eval-chart.js"),
    module!("format.js"),
    module!("live.js"),
    module!("main.js"),
    module!("play-clock.js"),
    module!("play-setup.js"),
    module!("play-state.js"),
    module!("play.js"),
    module!("prefs.js"),
    module!("replay.js"),
    module!("report.js"),
    module!("stats.js"),
];

async fn script(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match MODULES.iter().find(|(file, _)| *file == name) {
        Some((_, body)) => asset("text/javascript; charset=utf-8", body),
        None => ApiError::not_found(format!(
            "no script `/js/{name}`: the page's modules are {}",
            MODULES
                .iter()
                .map(|(file, _)| *file)
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into_response(),
    }
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", include_str!("../assets/app.css"))
}

async fn icon() -> Response {
    asset("image/svg+xml", include_str!("../assets/favicon.svg"))
}
