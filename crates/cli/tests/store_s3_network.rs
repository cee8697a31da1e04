//! The S3 location on a bad network, against small scripted servers on
//! loopback (no S3 server needed, so these run in every `cargo test`):
//! timeouts on a server that stalls, retries past dropped connections,
//! bodies cut short and 5xx, conditional creates and multipart completes
//! whose answer was lost, and messages that never carry the signed URL or
//! the credentials. `store_s3.rs` has the same against SeaweedFS through a
//! proxy failing at random.

mod common;

use chunkhash_store::location::s3::Network;
use chunkhash_store::location::{Location, S3};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const KEY_ID: &str = "AKIDFAKEKEYID0123456";
const SECRET: &str = "fakeSecretKeyDoNotLeak0123456789";
const TOKEN: &str = "FakeSessionTokenDoNotLeak987";

/// Longer than any of these tests may take on the slowest machine: only a
/// hang goes past it (timings are never asserted).
const HANG: Duration = Duration::from_secs(60);

/// The timeout where a server is meant to answer: far longer than a loaded
/// machine may take to run the fake server's thread, so the test sees the
/// answer, never a `timed out` in its place. It costs nothing: the answer
/// comes at once.
const ANSWER: Duration = Duration::from_secs(10);

/// The timeout where a server stalls on purpose: the test waits it out.
const STALL: Duration = Duration::from_millis(300);

/// What a message must never contain.
fn assert_redacted(message: &str) {
    for secret in ["X-Amz-", "x-amz-", KEY_ID, SECRET, TOKEN, "Signature", "signature"] {
        assert!(!message.contains(secret), "{secret:?} in: {message}");
    }
}

/// A request as the fake server read it.
#[derive(Debug)]
struct Request {
    method: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(header, _)| header.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }
}

/// What the fake server does with a request.
enum Answer {
    Reply(u16, Vec<u8>),
    /// A redirect (3xx) to this `Location`.
    Redirect(u16, String),
    /// Closes the connection without a word.
    Close,
    /// Says nothing and keeps the connection open.
    Stall,
    /// A 200 declaring `len` bytes, then these bytes only; then closes, or
    /// with `stall`, keeps the connection open.
    Cut {
        len: usize,
        sent: Vec<u8>,
        stall: bool,
    },
}

/// A server on loopback answering each request (one per connection) by
/// `handler`; its `http://` endpoint.
fn fake_s3(handler: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    let handler = Arc::new(handler);
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let handler = handler.clone();
            std::thread::spawn(move || {
                let _ = serve(client, &*handler);
            });
        }
    });
    endpoint
}

fn serve(mut client: TcpStream, handler: &dyn Fn(&Request) -> Answer) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let (method, target) = (words.next().unwrap_or_default().to_string(), words.next().unwrap_or_default());
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let (path, query) = (path.to_string(), query.to_string());
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    let mut request = Request { method, path, query, headers, body: Vec::new() };
    let len = request.header("content-length").and_then(|len| len.parse().ok()).unwrap_or(0);
    request.body = vec![0; len];
    reader.read_exact(&mut request.body)?;
    match handler(&request) {
        Answer::Reply(status, body) => {
            write!(client, "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())?;
            client.write_all(&body)?;
        }
        Answer::Redirect(status, location) => {
            write!(
                client,
                "HTTP/1.1 {status} X\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )?;
        }
        Answer::Close => {}
        Answer::Stall => std::thread::sleep(Duration::from_secs(60)),
        Answer::Cut { len, sent, stall } => {
            write!(client, "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n")?;
            client.write_all(&sent)?;
            client.flush()?;
            if stall {
                std::thread::sleep(Duration::from_secs(60));
            }
        }
    }
    client.flush()
}

/// A server that answers every connection at once with bytes that are
/// neither HTTP nor TLS, without reading (a TLS ClientHello has no line to
/// wait for); its `http://` endpoint.
fn garbage_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut client in listener.incoming().flatten() {
            let _ = client.write_all(b"this is neither HTTP nor TLS\r\n\r\n");
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    endpoint
}

/// An S3 location at `endpoint` with the fake credentials.
fn location(endpoint: &str, timeout: Duration, tries: u32) -> S3 {
    let mut s3 = S3::new("s3://bucket/prefix", Some(endpoint)).unwrap();
    s3.set_credentials(KEY_ID, SECRET, Some(TOKEN));
    s3.set_network(Network { connect_timeout: timeout, timeout, tries }).unwrap();
    s3
}

/// [`location`] with S3's smallest parts (5 MiB), 5 s timeouts and 3 tries.
fn multipart_location(endpoint: &str) -> S3 {
    let mut s3 = location(endpoint, Duration::from_secs(5), 3);
    s3.set_part_size(5 << 20).unwrap();
    s3
}

fn error_body(code: &str) -> Vec<u8> {
    format!("<?xml version=\"1.0\"?><Error><Code>{code}</Code><Message>scripted</Message></Error>").into_bytes()
}

/// A port nothing listens on (bound, then let go).
fn closed_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[test]
fn transport_errors_name_the_object_and_never_the_signed_url() {
    let stalling = fake_s3(|_| Answer::Stall);
    let closing = fake_s3(|_| Answer::Close);
    let garbage = garbage_server();
    let cases = [
        ("refused", format!("http://127.0.0.1:{}", closed_port()), "could not connect"),
        ("dns", "http://nonexistent.invalid:9000".to_string(), "DNS lookup failed"),
        ("stall", stalling, "timed out"),
        ("closed", closing, "network error"),
        ("tls", garbage.replace("http://", "https://"), "TLS"),
    ];
    for (case, endpoint, expected) in cases {
        let s3 = location(&endpoint, if case == "stall" { STALL } else { ANSWER }, 2);
        let debug = format!("{s3:?}");
        assert_redacted(&debug);
        let errors = [
            s3.read("snapshots/0123").unwrap_err(),
            s3.write_new("manifest", b"m", false).unwrap_err(),
            s3.list("packs").unwrap_err(),
            s3.len("packs/x.pack").unwrap_err(),
        ];
        for error in errors {
            let (text, debug) = (error.to_string(), format!("{error:?}"));
            println!("{case}: {text}");
            assert!(text.contains("s3://bucket/prefix/"), "{case}: {text}");
            assert!(text.contains(expected), "{case}: {text}");
            // Never taken for a missing or an existing object.
            assert!(
                !matches!(error.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::AlreadyExists),
                "{case}: {error:?}"
            );
            assert_redacted(&text);
            assert_redacted(&debug);
        }
        if case == "tls" {
            // No retry of a failed handshake: one try only.
            assert_eq!(s3.retries(), 0, "{case}");
        }
    }
}

/// `chunkhash store ls` against `endpoint` with fake credentials in the
/// environment: its stderr.
fn store_ls(endpoint: &str, extra: &[&str]) -> (Option<i32>, String, Duration) {
    let dir = common::Dir::new("store-s3-network-ls");
    let mut command = Command::new(env!("CARGO_BIN_EXE_chunkhash"));
    command.current_dir(&dir.path).args(["store", "--store", "s3://b/p", "--s3-endpoint", endpoint]).args(extra);
    command.arg("ls").stdin(Stdio::null()).env_remove("CHUNKHASH_STORE").env("TMPDIR", &dir.path);
    command.env("AWS_ACCESS_KEY_ID", KEY_ID).env("AWS_SECRET_ACCESS_KEY", SECRET).env("AWS_SESSION_TOKEN", TOKEN);
    let started = Instant::now();
    let output = command.output().unwrap();
    let elapsed = started.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout);
    (output.status.code(), stderr, elapsed)
}

#[test]
fn the_commands_messages_on_transport_errors_hold_no_secret() {
    // The reproduction of issue 30: nothing listening on the endpoint.
    let (code, stderr, _) = store_ls(&format!("http://127.0.0.1:{}", closed_port()), &["--s3-tries", "2"]);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("s3://b/p/") && stderr.contains("could not connect"), "{stderr}");
    assert_redacted(&stderr);
    let (code, stderr, _) = store_ls("http://nonexistent.invalid:9000", &[]);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("DNS lookup failed"), "{stderr}");
    assert_redacted(&stderr);
    // https:// is built in: the handshake is tried, and fails clearly.
    let garbage = garbage_server().replace("http://", "https://");
    let (code, stderr, _) = store_ls(&garbage, &[]);
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("TLS"), "{stderr}");
    assert_redacted(&stderr);
    // A stalled server: the configured timeout, each try.
    let stalling = fake_s3(|_| Answer::Stall);
    let (code, stderr, elapsed) = store_ls(&stalling, &["--s3-timeout", "400ms", "--s3-tries", "2"]);
    println!("store ls on a stalled server, 400 ms timeout, 2 tries: failed after {elapsed:?}");
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("timed out") && stderr.contains("after 2 tries"), "{stderr}");
    assert_redacted(&stderr);
    // Two tries of 400 ms each at least; the upper bound only catches a
    // hang (a loaded machine may be slow, nothing here depends on timing).
    assert!(elapsed >= Duration::from_millis(800) && elapsed < HANG, "{elapsed:?}");
    // Bad settings are usage errors.
    let (code, stderr, _) = store_ls(&stalling, &["--s3-timeout", "soon"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--s3-timeout"), "{stderr}");
    let (code, stderr, _) = store_ls(&stalling, &["--s3-tries", "0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("at least one try"), "{stderr}");
}

#[test]
fn a_stalled_connection_fails_within_the_timeout() {
    let timeout = Duration::from_millis(500);
    // Accepted and never answered; then a body that stops midway.
    let silent = fake_s3(|_| Answer::Stall);
    let midway = fake_s3(|_| Answer::Cut { len: 1000, sent: vec![7; 100], stall: true });
    for (case, endpoint) in [("silent", silent), ("midway", midway)] {
        let s3 = location(&endpoint, timeout, 1);
        let started = Instant::now();
        let error = s3.read("packs/x.pack").unwrap_err();
        let elapsed = started.elapsed();
        println!("{case}: failed after {elapsed:?} (timeout {timeout:?}): {error}");
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut, "{case}: {error}");
        // It cannot fail sooner than the timeout; the point is that it
        // fails at all, the upper bound only catches a hang.
        assert!(elapsed >= timeout && elapsed < HANG, "{case}: {elapsed:?}");
        assert_redacted(&error.to_string());
    }
    // A server that accepts and never reads: an upload larger than the
    // socket buffers blocks in write, and the write timeout ends it.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let held: Vec<TcpStream> = listener.incoming().flatten().collect();
        drop(held);
    });
    let s3 = location(&endpoint, timeout, 1);
    let started = Instant::now();
    let error = s3.write("packs/big.pack", &vec![0; 64 << 20], false).unwrap_err();
    let elapsed = started.elapsed();
    println!("unread upload: failed after {elapsed:?} (timeout {timeout:?}): {error}");
    assert_eq!(error.kind(), std::io::ErrorKind::TimedOut, "{error}");
    assert!(elapsed >= timeout && elapsed < HANG, "{elapsed:?}");
    assert_redacted(&error.to_string());
}

#[test]
fn dropped_connections_cut_bodies_and_5xx_are_retried() {
    let object: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
    let served = object.clone();
    let count = Arc::new(Mutex::new(0));
    let counter = count.clone();
    // Each failure once, in turn, then the object.
    let endpoint = fake_s3(move |_| {
        let mut count = counter.lock().unwrap();
        *count += 1;
        match *count {
            1 => Answer::Close,
            2 => Answer::Reply(503, error_body("SlowDown")),
            3 => Answer::Cut { len: served.len(), sent: served[..1000].to_vec(), stall: false },
            4 => Answer::Cut { len: served.len(), sent: served[..10].to_vec(), stall: true },
            5 => Answer::Reply(500, error_body("InternalError")),
            _ => Answer::Reply(200, served.clone()),
        }
    });
    // One of them stalls: the timeout is waited out once, so it is short,
    // yet long enough for the others' answers on a loaded machine.
    let s3 = location(&endpoint, Duration::from_secs(2), 6);
    assert_eq!(s3.read("packs/x.pack").unwrap(), object);
    assert_eq!((*count.lock().unwrap(), s3.retries()), (6, 5));
    // No retry of what another try cannot change: 403, and 404 (missing).
    let forbidden = fake_s3(|_| Answer::Reply(403, error_body("AccessDenied")));
    let s3 = location(&forbidden, ANSWER, 5);
    let error = s3.read("packs/x.pack").unwrap_err();
    assert!(error.to_string().contains("HTTP 403 AccessDenied"), "{error}");
    assert_eq!(s3.retries(), 0);
    let missing = fake_s3(|_| Answer::Reply(404, error_body("NoSuchKey")));
    let s3 = location(&missing, ANSWER, 5);
    assert_eq!(s3.read("packs/x.pack").unwrap_err().kind(), std::io::ErrorKind::NotFound);
    assert_eq!(s3.retries(), 0);
    // Bounded: a server that always fails gets the set number of tries.
    let failing = fake_s3(|_| Answer::Reply(503, error_body("SlowDown")));
    let s3 = location(&failing, ANSWER, 3);
    let error = s3.read("packs/x.pack").unwrap_err();
    assert!(error.to_string().contains("after 3 tries"), "{error}");
    assert_eq!(s3.retries(), 2);
}

/// Objects by path, as the fake S3 keeps them.
type Objects = Arc<Mutex<HashMap<String, Vec<u8>>>>;

/// A tiny S3 that keeps objects and can lose its answers: the first
/// request of a given method and query word is carried out, then its
/// connection closed without an answer.
fn forgetful_s3(lose: &'static [(&'static str, &'static str)]) -> (String, Objects) {
    let objects: Objects = Arc::default();
    let parts = Arc::new(Mutex::new(HashMap::<u32, Vec<u8>>::new()));
    let lost = Arc::new(Mutex::new(Vec::<(&str, &str)>::new()));
    let store = objects.clone();
    let endpoint = fake_s3(move |request| {
        let mut objects = store.lock().unwrap();
        let mut parts = parts.lock().unwrap();
        let is = |method: &str, word: &str| request.method == method && request.query.contains(word);
        let answer = if is("POST", "uploads") {
            let body = "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>";
            Answer::Reply(200, body.into())
        } else if is("PUT", "partNumber=") {
            let number = request.query.split('&').find_map(|pair| pair.strip_prefix("partNumber=")).unwrap();
            parts.insert(number.parse().unwrap(), request.body.clone());
            Answer::Reply(200, Vec::new())
        } else if is("POST", "uploadId=") && parts.is_empty() {
            Answer::Reply(404, error_body("NoSuchUpload"))
        } else if is("POST", "uploadId=") {
            let mut numbers: Vec<u32> = parts.keys().copied().collect();
            numbers.sort();
            let whole = numbers.iter().flat_map(|number| parts[number].clone()).collect();
            objects.insert(request.path.clone(), whole);
            parts.clear();
            Answer::Reply(200, b"<CompleteMultipartUploadResult></CompleteMultipartUploadResult>".to_vec())
        } else if request.method == "PUT"
            && request.header("if-none-match") == Some("*")
            && objects.contains_key(&request.path)
        {
            Answer::Reply(412, error_body("PreconditionFailed"))
        } else if request.method == "PUT" {
            objects.insert(request.path.clone(), request.body.clone());
            Answer::Reply(200, Vec::new())
        } else if request.method == "DELETE" {
            Answer::Reply(204, Vec::new())
        } else {
            match objects.get(&request.path) {
                Some(bytes) => Answer::Reply(200, bytes.clone()),
                None => Answer::Reply(404, error_body("NoSuchKey")),
            }
        };
        let mut lost = lost.lock().unwrap();
        for &(method, word) in lose {
            if is(method, word) && !lost.contains(&(method, word)) {
                lost.push((method, word));
                return Answer::Close;
            }
        }
        answer
    });
    (endpoint, objects)
}

#[test]
fn a_conditional_create_whose_answer_was_lost_is_accepted_only_with_the_same_bytes() {
    let (endpoint, objects) = forgetful_s3(&[("PUT", "")]);
    let s3 = location(&endpoint, Duration::from_secs(5), 3);
    // Stored by the first try, whose answer was lost; the retry gets 412.
    s3.write_new("snapshots/abcd", b"abcd\n", false).unwrap();
    assert_eq!(s3.retries(), 1);
    assert_eq!(objects.lock().unwrap()["/bucket/prefix/snapshots/abcd"], b"abcd\n");
    // Another writer's object under that name is not taken for ours.
    let error = s3.write_new("snapshots/abcd", b"other\n", false).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists, "{error}");
    let (endpoint, objects) = forgetful_s3(&[("PUT", "")]);
    objects.lock().unwrap().insert("/bucket/prefix/manifest".into(), b"theirs".to_vec());
    let s3 = location(&endpoint, Duration::from_secs(5), 3);
    let error = s3.write_new("manifest", b"ours", false).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists, "{error}");
    assert_eq!(objects.lock().unwrap()["/bucket/prefix/manifest"], b"theirs");
}

#[test]
fn a_multipart_upload_survives_lost_answers_to_a_part_and_to_complete() {
    // Over the 5 MiB part size: two parts.
    let bytes: Vec<u8> = (0..6u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 24) as u8).collect();
    let (endpoint, objects) = forgetful_s3(&[("PUT", "partNumber=2"), ("POST", "uploadId=")]);
    let s3 = multipart_location(&endpoint);
    let dir = common::Dir::new("store-s3-network-multipart");
    let staged = dir.write("staged.pack", &bytes);
    s3.publish(&staged, "packs/big.pack", None, false).unwrap();
    // The part sent again, and the complete whose retry found the upload
    // gone (NoSuchUpload) accepted because the object holds these bytes.
    assert_eq!(s3.retries(), 2);
    assert!(objects.lock().unwrap()["/bucket/prefix/packs/big.pack"] == bytes);
    assert!(!staged.exists());
}

#[test]
fn a_redirect_is_an_error_and_never_followed() {
    // Where the redirects point: it must never be contacted (the signed
    // request must not go elsewhere, and a PUT must not become a GET).
    let contacted = Arc::new(Mutex::new(Vec::<String>::new()));
    let record = contacted.clone();
    let target = fake_s3(move |request| {
        record.lock().unwrap().push(format!("{} {}", request.method, request.path));
        Answer::Reply(200, Vec::new())
    });
    let dir = common::Dir::new("store-s3-network-redirect");
    let bytes = vec![5u8; (5 << 20) + 1];
    for status in [301, 302, 307] {
        let redirect_to = format!("{target}/elsewhere");
        let endpoint = fake_s3(move |_| Answer::Redirect(status, redirect_to.clone()));
        let s3 = multipart_location(&endpoint);
        let staged = dir.write("staged.pack", &bytes);
        let errors = [
            ("PUT", s3.write("index/x.idx", b"index", false).unwrap_err()),
            ("PUT", s3.write_new("manifest", b"m", false).unwrap_err()),
            // Over the part size: CreateMultipartUpload, a POST.
            ("POST", s3.publish(&staged, "packs/big.pack", None, false).unwrap_err()),
            ("GET", s3.read("packs/x.pack").unwrap_err()),
        ];
        for (method, error) in errors {
            let text = error.to_string();
            println!("{status} to {method}: {text}");
            assert!(text.starts_with(&format!("{method} s3://bucket/prefix/")), "{status}: {text}");
            assert!(text.contains(&format!("HTTP {status}: the endpoint redirects")), "{status}: {text}");
            assert!(!text.contains("elsewhere"), "{status}: {text}");
            assert_redacted(&text);
        }
        // Nothing accepted: the staged pack is kept, and no try was retried.
        assert!(staged.exists());
        assert_eq!(s3.retries(), 0);
    }
    assert!(contacted.lock().unwrap().is_empty(), "{:?}", contacted.lock().unwrap());
}

/// The body of the `n`th answer to CompleteMultipartUpload.
type CompleteAnswer = fn(usize) -> Vec<u8>;

/// A multipart S3 whose CompleteMultipartUpload answers, at its `n`th call
/// (from 1), 200 with `complete(n)` (the object is stored only when that
/// is a `CompleteMultipartUploadResult`); its endpoint, objects and the
/// number of completes.
fn completing_s3(complete: CompleteAnswer) -> (String, Objects, Arc<Mutex<usize>>) {
    let objects: Objects = Arc::default();
    let completes = Arc::new(Mutex::new(0));
    let (store, counter) = (objects.clone(), completes.clone());
    let parts = Mutex::new(HashMap::<u32, Vec<u8>>::new());
    let endpoint = fake_s3(move |request| {
        let is = |method: &str, word: &str| request.method == method && request.query.contains(word);
        if is("POST", "uploads") {
            let body = "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>";
            Answer::Reply(200, body.into())
        } else if is("PUT", "partNumber=") {
            let number = request.query.split('&').find_map(|pair| pair.strip_prefix("partNumber=")).unwrap();
            parts.lock().unwrap().insert(number.parse().unwrap(), request.body.clone());
            Answer::Reply(200, Vec::new())
        } else if is("POST", "uploadId=") {
            let mut count = counter.lock().unwrap();
            *count += 1;
            let body = complete(*count);
            if String::from_utf8_lossy(&body).contains("<CompleteMultipartUploadResult") {
                let parts = parts.lock().unwrap();
                let mut numbers: Vec<u32> = parts.keys().copied().collect();
                numbers.sort();
                let whole = numbers.iter().flat_map(|number| parts[number].clone()).collect();
                store.lock().unwrap().insert(request.path.clone(), whole);
            }
            Answer::Reply(200, body)
        } else if request.method == "DELETE" {
            Answer::Reply(204, Vec::new())
        } else {
            Answer::Reply(404, error_body("NoSuchKey"))
        }
    });
    (endpoint, objects, completes)
}

/// AWS's answer to a CompleteMultipartUpload that failed after it began
/// sending whitespace: the declaration, 1 KiB of spaces, then an error.
fn padded_error() -> Vec<u8> {
    let mut body = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".to_vec();
    body.extend([b' '; 1024]);
    body.extend(b"<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>");
    body
}

#[test]
fn a_complete_answered_200_is_accepted_only_with_its_result() {
    let bytes: Vec<u8> = (0..6u32 << 20).map(|i| (i.wrapping_mul(2654435761) >> 24) as u8).collect();
    let dir = common::Dir::new("store-s3-network-complete");
    let failing: [(&str, CompleteAnswer, &str); 3] = [
        ("padded error", |_| padded_error(), "HTTP 200 InternalError"),
        ("empty body", |_| Vec::new(), "is not a CompleteMultipartUploadResult"),
        ("other XML", |_| b"<?xml version=\"1.0\"?>  <Other/>".to_vec(), "is not a CompleteMultipartUploadResult"),
    ];
    for (case, complete, expected) in failing {
        let (endpoint, objects, completes) = completing_s3(complete);
        let s3 = multipart_location(&endpoint);
        let staged = dir.write("staged.pack", &bytes);
        let error = s3.publish(&staged, "packs/big.pack", None, false).unwrap_err();
        println!("{case}: {error}");
        assert!(error.to_string().contains(expected) && error.to_string().contains("after 3 tries"), "{case}: {error}");
        assert_eq!(*completes.lock().unwrap(), 3, "{case}");
        // Not accepted: the staged pack is kept, nothing was stored.
        assert!(staged.exists(), "{case}");
        assert!(objects.lock().unwrap().is_empty(), "{case}");
    }
    // The error once, then the result: the retry completes the upload.
    let (endpoint, objects, completes) = completing_s3(|n| match n {
        1 => padded_error(),
        _ => b"<?xml version=\"1.0\"?>\n   <CompleteMultipartUploadResult></CompleteMultipartUploadResult>".to_vec(),
    });
    let s3 = multipart_location(&endpoint);
    let staged = dir.write("staged.pack", &bytes);
    s3.publish(&staged, "packs/big.pack", None, false).unwrap();
    assert_eq!((*completes.lock().unwrap(), s3.retries()), (2, 1));
    assert!(objects.lock().unwrap()["/bucket/prefix/packs/big.pack"] == bytes);
    assert!(!staged.exists());
}

#[test]
fn a_server_echoing_the_credentials_and_the_signed_url_has_them_removed() {
    let signatures = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = signatures.clone();
    let endpoint = fake_s3(move |request| {
        let signature =
            request.query.split('&').find_map(|pair| pair.strip_prefix("X-Amz-Signature=")).unwrap_or_default();
        seen.lock().unwrap().push(signature.to_string());
        let host = request.header("host").unwrap_or_default();
        let message = format!(
            "key {KEY_ID} token {TOKEN} secret {SECRET} sig {signature} url http://{host}{}?{} query {}",
            request.path, request.query, request.query
        );
        Answer::Reply(403, format!("<Error><Code>AccessDenied</Code><Message>{message}</Message></Error>").into_bytes())
    });
    let s3 = location(&endpoint, Duration::from_secs(5), 3);
    let errors = [s3.read("packs/x.pack").unwrap_err(), s3.write("index/x.idx", b"i", false).unwrap_err()];
    let signatures = signatures.lock().unwrap();
    assert_eq!(signatures.len(), 2);
    for (error, signature) in errors.iter().zip(signatures.iter()) {
        let (text, debug) = (error.to_string(), format!("{error:?}"));
        println!("{text}");
        assert!(text.contains("HTTP 403 AccessDenied key [redacted] token [redacted]"), "{text}");
        assert!(signature.len() == 64, "{signature}");
        for message in [&text, &debug] {
            assert_redacted(message);
            assert!(!message.contains(signature.as_str()), "{message}");
        }
    }
}

#[test]
fn a_conditional_create_retried_while_the_first_try_is_stored_gets_past_the_conflict() {
    // The first try is stored but its answer lost; the second meets it in
    // flight (409 ConditionalRequestConflict); the third finds it (412).
    let objects: Objects = Arc::default();
    let (store, tries) = (objects.clone(), Arc::new(Mutex::new(0)));
    let endpoint = fake_s3(move |request| {
        let mut tries = tries.lock().unwrap();
        *tries += 1;
        match (request.method.as_str(), *tries) {
            ("PUT", 1) => {
                store.lock().unwrap().insert(request.path.clone(), request.body.clone());
                Answer::Close
            }
            ("PUT", 2) => Answer::Reply(409, error_body("ConditionalRequestConflict")),
            ("PUT", _) => Answer::Reply(412, error_body("PreconditionFailed")),
            _ => match store.lock().unwrap().get(&request.path) {
                Some(bytes) => Answer::Reply(200, bytes.clone()),
                None => Answer::Reply(404, error_body("NoSuchKey")),
            },
        }
    });
    let s3 = location(&endpoint, Duration::from_secs(5), 4);
    s3.write_new("snapshots/abcd", b"abcd\n", false).unwrap();
    assert_eq!(s3.retries(), 2);
    assert_eq!(objects.lock().unwrap()["/bucket/prefix/snapshots/abcd"], b"abcd\n");
    // An unconditional PUT's 409 is not retried.
    let conflict = fake_s3(|_| Answer::Reply(409, error_body("ConditionalRequestConflict")));
    let s3 = location(&conflict, Duration::from_secs(5), 4);
    let error = s3.write("index/x.idx", b"i", false).unwrap_err();
    assert!(error.to_string().contains("HTTP 409 ConditionalRequestConflict"), "{error}");
    assert_eq!(s3.retries(), 0);
}
