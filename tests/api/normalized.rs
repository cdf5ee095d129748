//! One request is one request however it is spelled: every limit,
//! redaction and route match sees the path as the router matches it
//! (percent-encoded characters decoded, but for `%`, `/` and `+`), the
//! query as the query extractor reads it (`%XX` and `+` decoded), and one
//! client address whatever its IP spelling (IPv4 or IPv4-mapped IPv6).
//!
//! One table drives it: each row starts a server with one limit set small,
//! sends every spelling of one request (in rounds where a bucket is
//! counted), and checks what the row expects of them together. A failing
//! row prints its figures; all rows run before the test fails.
//! Limits do not depend on the store: the rows run on the memory store.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use botifarra::http::limit::RateLimits;
use botifarra::service::Limits;
use reqwest::header::HeaderMap;
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::json;

use crate::app::{Backend, TestApp, spawn_full, store_for, unlimited};

/// Rounds of every spelling sent where a bucket is counted.
const ROUNDS: usize = 3;

/// One spelling of a request: `{id}` stands for a match id (sent with its
/// first seat's token as `Authorization`, unless the target has `{tok}`,
/// that token in the query), `{code}` for an invite code, `{pid}` for a
/// player id that does not exist.
#[derive(Clone, Copy)]
struct Spelling {
    method: &'static str,
    target: &'static str,
    /// The `X-Forwarded-For` the one trusted proxy appended.
    forwarded: Option<&'static str>,
    /// Sent to the second, dual-stack listener (as `::ffff:127.0.0.1`).
    dual: bool,
}

const fn get(target: &'static str) -> Spelling {
    Spelling {
        method: "GET",
        target,
        forwarded: None,
        dual: false,
    }
}

const fn post(target: &'static str) -> Spelling {
    Spelling {
        method: "POST",
        ..get(target)
    }
}

const fn delete(target: &'static str) -> Spelling {
    Spelling {
        method: "DELETE",
        ..get(target)
    }
}

const fn from(forwarded: &'static str, s: Spelling) -> Spelling {
    Spelling {
        forwarded: Some(forwarded),
        ..s
    }
}

const fn dual(s: Spelling) -> Spelling {
    Spelling { dual: true, ..s }
}

/// What the spellings of a row must do together.
enum Expect {
    /// All draw on the one bucket `label` of `size` requests, refilled at
    /// `per_sec`: over [`ROUNDS`] rounds, the answers not refused are
    /// `size` (and at most what refilled meanwhile on top).
    OneBucket {
        label: &'static str,
        size: usize,
        per_sec: f64,
    },
    /// Held open together, the spellings are refused past `size`.
    OneCap { size: usize },
    /// Each is answered as the first on its listener (status and `Allow`).
    SameAnswer,
    /// Each is answered `status` and counted against no `label` bucket.
    NotCharged { label: &'static str, status: u16 },
    /// Each is logged with the invite code redacted and its route named.
    Redacted,
    /// Each is counted in the request metrics under `route`.
    Labelled { route: &'static str },
}

struct Row {
    name: &'static str,
    limits: fn(&mut RateLimits),
    spellings: Vec<Spelling>,
    expect: Expect,
}

fn no_limit(_: &mut RateLimits) {}

fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "invite path: /v1/invites/X vs /v1/%69nvites/X(/join) vs /%76%31/…",
            limits: |l| l.invites_per_min = 4,
            spellings: vec![
                get("/v1/invites/{code}"),
                get("/v1/%69nvites/{code}"),
                post("/v1/%69nvites/{code}/join"),
                get("/%76%31/invites/{code}"),
                post("/v1/invit%65s/{code}/join"),
            ],
            expect: Expect::OneBucket {
                label: "invite",
                size: 4,
                per_sec: 4.0 / 60.0,
            },
        },
        Row {
            name: "invite path in the log: the code is redacted however spelled",
            limits: no_limit,
            spellings: vec![
                post("/v1/invites/{code}/join"),
                post("/v1/%69nvites/{code}/join"),
                get("/v1/invit%65s/{code}"),
            ],
            expect: Expect::Redacted,
        },
        Row {
            name: "create: POST /v1/players vs /v1/%70layers vs /v1/%6datches",
            limits: |l| l.creates_per_min = 4,
            spellings: vec![
                post("/v1/players"),
                post("/v1/%70layers"),
                post("/v1/pl%61yers"),
                post("/v1/matches"),
                post("/v1/%6datches"),
            ],
            expect: Expect::OneBucket {
                label: "create",
                size: 4,
                per_sec: 4.0 / 60.0,
            },
        },
        Row {
            name: "hint: ?hint= vs ?h%69nt= vs ?%68int= vs …/legal-%6doves?hint=",
            limits: |l| l.hints_per_sec = 1,
            spellings: vec![
                get("/v1/matches/{id}/legal-moves?hint=random"),
                get("/v1/matches/{id}/legal-moves?h%69nt=random"),
                get("/v1/matches/{id}/legal-moves?%68%69%6E%74=r%61ndom"),
                get("/v1/matches/{id}/legal-%6doves?hint=random"),
                get("/v1/m%61tches/{id}/legal-moves?hint=random"),
            ],
            expect: Expect::OneBucket {
                label: "hint",
                size: 2,
                per_sec: 1.0,
            },
        },
        Row {
            name: "not a hint: ?hint%3D…, ?xhint=, ?hint+= name no `hint` to the extractor",
            limits: |l| l.hints_per_sec = 1,
            spellings: vec![
                get("/v1/matches/{id}/legal-moves?hint%3Drandom"),
                get("/v1/matches/{id}/legal-moves?xhint=random"),
                get("/v1/matches/{id}/legal-moves?hint+=random"),
            ],
            expect: Expect::NotCharged {
                label: "hint",
                status: 400,
            },
        },
        Row {
            name: "per-token bucket: Authorization vs ?access_token= vs ?%61ccess_token=",
            limits: |l| l.per_token_per_sec = 1,
            spellings: vec![
                get("/v1/matches/{id}/events"),
                get("/v1/matches/{id}/events?access_token={tok}"),
                get("/v1/matches/{id}/events?%61ccess_token={tok}"),
                get("/v1/matches/{id}/events?access%5Ftoken={tok}"),
            ],
            expect: Expect::OneBucket {
                label: "token",
                size: 2,
                per_sec: 1.0,
            },
        },
        Row {
            name: "per-address bucket: 198.51.100.7 vs ::ffff:198.51.100.7 (any spelling)",
            limits: |l| {
                l.per_ip_per_sec = 1;
                l.trusted_proxies = 1;
            },
            spellings: vec![
                from("198.51.100.7", get("/healthz")),
                from("::ffff:198.51.100.7", get("/healthz")),
                from("::FFFF:c633:6407", get("/healthz")),
                from("0:0:0:0:0:ffff:198.51.100.7", get("/healthz")),
            ],
            expect: Expect::OneBucket {
                label: "ip",
                size: 2,
                per_sec: 1.0,
            },
        },
        Row {
            name: "streams cap: 198.51.100.8 vs ::ffff:198.51.100.8",
            limits: |l| {
                l.streams_per_ip = 1;
                l.trusted_proxies = 1;
            },
            spellings: vec![
                from("198.51.100.8", get("/v1/matches/{id}/stream")),
                from("::ffff:198.51.100.8", get("/v1/matches/{id}/stream")),
            ],
            expect: Expect::OneCap { size: 1 },
        },
        Row {
            name: "connections cap: 127.0.0.1 vs ::ffff:127.0.0.1 (dual-stack listener)",
            limits: |l| l.connections_per_ip = 1,
            spellings: vec![get("/healthz"), dual(get("/metrics"))],
            expect: Expect::OneCap { size: 1 },
        },
        Row {
            name: "405 with Allow: DELETE /v1/matches vs /v1/%6datches",
            limits: no_limit,
            spellings: vec![
                delete("/v1/matches"),
                delete("/v1/%6datches"),
                delete("/v1/m%61tches"),
            ],
            expect: Expect::SameAnswer,
        },
        Row {
            name: "metrics on its own address: /metrics vs /%6detrics vs /m%65trics",
            limits: no_limit,
            spellings: vec![
                get("/metrics"),
                get("/%6detrics"),
                get("/m%65trics"),
                dual(get("/metrics")),
                dual(get("/%6detrics")),
                dual(get("/m%65trics")),
            ],
            expect: Expect::SameAnswer,
        },
        Row {
            name: "metrics label: GET /v1/pl%61yers/{pid} counts under /v1/players/{id}",
            limits: no_limit,
            spellings: vec![get("/v1/pl%61yers/{pid}"), get("/v1/%70layers/{pid}")],
            expect: Expect::Labelled {
                route: "/v1/players/{id}",
            },
        },
        Row {
            name: "no bypass: //v1/players, /V1/players, /v1/Players are 404 to the router",
            limits: |l| l.creates_per_min = 4,
            spellings: vec![
                post("//v1/players"),
                post("/V1/players"),
                post("/v1/Players"),
                post("/v1//players"),
            ],
            expect: Expect::NotCharged {
                label: "create",
                status: 404,
            },
        },
    ]
}

/// A row's server and what its spellings stand for.
struct Setup {
    app: TestApp,
    /// `http://127.0.0.1:<port>` of the dual-stack listener.
    dual: Option<String>,
    id: String,
    token: String,
    code: String,
}

/// Whether this host accepts IPv4 on an IPv6 wildcard listener.
fn dual_stack_works() -> bool {
    let Ok(l) = TcpListener::bind("[::]:0") else {
        return false;
    };
    let port = l.local_addr().map(|a| a.port()).unwrap_or(0);
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}

async fn setup(row: &Row, code: &str) -> Setup {
    let mut opts = unlimited();
    (row.limits)(&mut opts.rate_limits);
    let needs_dual = row.spellings.iter().any(|s| s.dual);
    let listener = needs_dual.then(|| TcpListener::bind("[::]:0").expect("bind [::]:0"));
    let dual = listener.as_ref().map(|l| {
        format!(
            "http://127.0.0.1:{}",
            l.local_addr().expect("local address").port()
        )
    });
    let store = store_for(Backend::Memory, None).await;
    let app = spawn_full(store, opts, Limits::default(), listener).await;
    let (mut id, mut token) = (String::new(), String::new());
    if row.spellings.iter().any(|s| s.target.contains("{id}")) {
        let (i, tokens) = app.create(json!({})).await;
        id = i;
        token = tokens[0].clone().expect("a remote seat's token");
    }
    Setup {
        app,
        dual,
        id,
        token,
        code: code.to_string(),
    }
}

/// An answer: status and headers, and the response itself when held open.
struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    _held: Option<(Client, Response)>,
}

impl Answer {
    fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    }

    /// Whether the bucket `label` counted this request.
    fn charged(&self, label: &str) -> bool {
        self.header("ratelimit-policy")
            .contains(&format!("\"{label}\""))
    }
}

impl Setup {
    fn target(&self, s: &Spelling) -> String {
        s.target
            .replace("{id}", &self.id)
            .replace("{code}", &self.code)
            .replace("{tok}", &self.token)
            .replace("{pid}", "p0123456789abcdef01234567")
    }

    /// Sends `s` on a client of its own (its connection its own); `hold`
    /// keeps the client and the unread response.
    async fn send(&self, s: &Spelling, hold: bool) -> Answer {
        let base = if s.dual {
            self.dual.as_deref().expect("a dual-stack listener")
        } else {
            self.app.base.as_str()
        };
        let client = Client::new();
        let method = Method::from_bytes(s.method.as_bytes()).unwrap();
        let mut req = client.request(method, format!("{base}{}", self.target(s)));
        if s.target.contains("{id}") && !s.target.contains("{tok}") {
            req = req.bearer_auth(&self.token);
        }
        if let Some(f) = s.forwarded {
            req = req.header("x-forwarded-for", f);
        }
        if s.method == "POST" {
            req = req
                .header("content-type", "application/json")
                .body(json!({"name": "spelled", "kind": "bot"}).to_string());
        }
        let resp = req.send().await.expect("the request reaches the server");
        let (status, headers) = (resp.status(), resp.headers().clone());
        let held = if hold {
            Some((client, resp))
        } else {
            drop(resp.bytes().await);
            None
        };
        Answer {
            status,
            headers,
            _held: held,
        }
    }
}

/// Runs `row`: `Ok` with its figures, or `Err` with what went wrong.
async fn run(row: &Row) -> Result<String, String> {
    let setup = setup(row, &unique_code()).await;
    match &row.expect {
        Expect::OneBucket {
            label,
            size,
            per_sec,
        } => one_bucket(&setup, row, label, *size, *per_sec).await,
        Expect::OneCap { size } => {
            let mut answers = Vec::new();
            for s in &row.spellings {
                answers.push(setup.send(s, true).await);
            }
            let open = answers.iter().filter(|a| a.status != 429).count();
            let figures = format!("{open} of {} held open", answers.len());
            if open == *size {
                Ok(figures)
            } else {
                Err(format!("{figures}, cap {size}"))
            }
        }
        Expect::SameAnswer => same_answer(&setup, row).await,
        Expect::NotCharged { label, status } => {
            let mut wrong = Vec::new();
            for s in &row.spellings {
                let a = setup.send(s, false).await;
                if a.status.as_u16() != *status || a.charged(label) {
                    let charged = if a.charged(label) { "charged" } else { "free" };
                    wrong.push(format!("{} {}: {} {charged}", s.method, s.target, a.status));
                }
            }
            let n = row.spellings.len();
            if wrong.is_empty() {
                Ok(format!(
                    "{n} of {n} answered {status}, none counted as `{label}`"
                ))
            } else {
                Err(wrong.join("; "))
            }
        }
        Expect::Redacted => redacted(&setup, row).await,
        Expect::Labelled { route } => labelled(&setup, row, route).await,
    }
}

async fn one_bucket(
    setup: &Setup,
    row: &Row,
    label: &str,
    size: usize,
    per_sec: f64,
) -> Result<String, String> {
    let start = Instant::now();
    let (mut allowed, mut sent, mut uncharged) = (0, 0, 0);
    for _ in 0..ROUNDS {
        for s in &row.spellings {
            let a = setup.send(s, false).await;
            sent += 1;
            allowed += usize::from(a.status != 429);
            uncharged += usize::from(!a.charged(label));
        }
    }
    let refilled = (start.elapsed().as_secs_f64() * per_sec).floor() as usize;
    let figures = format!(
        "{allowed} of {sent} past a bucket of {size}, {uncharged} not counted as `{label}`"
    );
    if (size..=size + refilled).contains(&allowed) && uncharged == 0 {
        Ok(figures)
    } else {
        Err(figures)
    }
}

async fn same_answer(setup: &Setup, row: &Row) -> Result<String, String> {
    let mut answers = Vec::new();
    for s in &row.spellings {
        let a = setup.send(s, false).await;
        answers.push((s, a.status, a.header("allow")));
    }
    let show = |(s, st, al): &(&Spelling, StatusCode, String)| {
        let at = if s.dual { " (dual)" } else { "" };
        format!("{} {}{at}: {st} Allow {al:?}", s.method, s.target)
    };
    let mut firsts = Vec::new();
    let mut odd = Vec::new();
    for dual in [false, true] {
        let mut on = answers.iter().filter(|(s, _, _)| s.dual == dual);
        let Some(first) = on.next() else { continue };
        firsts.push(show(first));
        odd.extend(
            on.filter(|(_, st, al)| (st, al) != (&first.1, &first.2))
                .map(show),
        );
    }
    let figures = firsts.join("; ");
    if odd.is_empty() {
        Ok(format!("all {} answered as {figures}", answers.len()))
    } else {
        Err(format!("{figures}, but {}", odd.join("; ")))
    }
}

async fn redacted(setup: &Setup, row: &Row) -> Result<String, String> {
    let log = crate::logs::capture();
    let mut want = Vec::new();
    for s in &row.spellings {
        setup.send(s, false).await;
        let route = if s.target.ends_with("/join") {
            "/v1/invites/{code}/join"
        } else {
            "/v1/invites/{code}"
        };
        let target = s.target.replace("{code}", "[redacted]");
        want.push((
            format!("http.target={target}"),
            format!("http.route={route}"),
        ));
    }
    // The request span closes a moment after the answer.
    let deadline = Instant::now() + Duration::from_secs(5);
    let missing = loop {
        let missing: Vec<&(String, String)> = want
            .iter()
            .filter(|(t, r)| log.count_all(&[t, r]) == 0)
            .collect();
        if missing.is_empty() || Instant::now() > deadline {
            break missing.len();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let leaked = log.count_all(&[&setup.code]);
    let figures = format!(
        "{} of {} logged redacted with their route, {leaked} lines with the code",
        want.len() - missing,
        want.len()
    );
    if missing == 0 && leaked == 0 {
        Ok(figures)
    } else {
        Err(figures)
    }
}

async fn labelled(setup: &Setup, row: &Row, route: &str) -> Result<String, String> {
    let count = || async {
        let text = setup.app.get("/metrics", None).await.text;
        crate::metrics::value(
            &text,
            "botifarra_http_requests_total",
            &[("route", route), ("method", "GET")],
        ) as usize
    };
    let before = count().await;
    for _ in 0..ROUNDS {
        for s in &row.spellings {
            setup.send(s, false).await;
        }
    }
    // The metrics are counted as the answer leaves.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let grown = count().await - before;
    let sent = ROUNDS * row.spellings.len();
    let figures = format!("{grown} of {sent} counted under {route}");
    if grown >= sent {
        Ok(figures)
    } else {
        Err(figures)
    }
}

/// An invite code no table has, unique to this row of this run (so that
/// its absence from the shared log means something).
fn unique_code() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    (0..8)
        .map(|_| {
            let c = ALPHABET[(n % 32) as usize] as char;
            n /= 32;
            c
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_spelling_of_a_request_is_one_request() {
    // The log is captured from the start, before any row's server.
    crate::logs::capture();
    let dual_stack = dual_stack_works();
    let mut failed = Vec::new();
    for row in rows() {
        if row.spellings.iter().any(|s| s.dual) && !dual_stack {
            eprintln!("SKIP {}: no dual-stack listener on this host", row.name);
            continue;
        }
        match run(&row).await {
            Ok(figures) => eprintln!("ok   {}: {figures}", row.name),
            Err(figures) => {
                eprintln!("FAIL {}: {figures}", row.name);
                failed.push(format!("{}: {figures}", row.name));
            }
        }
    }
    assert!(failed.is_empty(), "rows failed:\n{}", failed.join("\n"));
}
