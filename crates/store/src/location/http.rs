//! The S3 location's HTTP: one request and its whole answer, timeouts,
//! bounded retries with backoff, and error messages that never hold the
//! presigned URL.
//!
//! **Timeouts.** [`Network::connect_timeout`] bounds the TCP connect (over
//! all the endpoint's addresses). It does not bound the DNS lookup before
//! it: ureq 2 asks the system resolver without a deadline (a TODO in its
//! `stream.rs`), so a stalled lookup lasts as long as the resolver's own
//! timeouts (glibc: 5 s per try, 2 tries per server, by default).
//! [`Network::timeout`] bounds every single read and write of the socket,
//! the TLS handshake's included
//! (ureq's `timeout_read`/`timeout_write`), so a server that accepts and
//! never answers, or stops in the middle of a body, fails after that long
//! without data. There is no limit on a whole request: a 5 GiB part on a
//! slow link may take long as long as bytes keep moving.
//!
//! **Retries.** A try that fails in a way another try may not (a timeout, a
//! refused or reset connection, a body cut short, HTTP 408, 429, 500, 502,
//! 503 `SlowDown`, 504, and a conditional PUT's 409
//! `ConditionalRequestConflict`) is tried again, up to [`Network::tries`] in all,
//! after a random wait of up to [`FIRST_BACKOFF`] doubled at each try,
//! capped at [`MAX_BACKOFF`] ("full jitter", as in the AWS Architecture
//! Blog's "Exponential Backoff and Jitter", 2015: many clients retrying at
//! once spread out instead of coming back together). Every request the S3
//! location makes is safe to send twice (see `s3.rs` for the conditional
//! ones). A DNS failure, a TLS failure and every other 4xx are not retried:
//! they are configuration, not weather.
//!
//! **Redaction.** A request's URL is presigned: its query holds the
//! access key id (`X-Amz-Credential`), the signature and any session token.
//! ureq's transport errors begin with that URL, so none of them is ever
//! formatted here: messages are built from the method, the object's
//! `s3://` name and the kind of failure, and anything else that reaches a
//! message (ureq's own short message, the underlying I/O error) goes
//! through [`redact`] first. `redact` knows the secrets' names only: the
//! S3 location also removes their values (the access key id, secret,
//! session token and the request's signature) from every error, in case a
//! server's message echoes one bare (`scrub`).

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read};
use std::time::Duration;

/// The connect timeout unless another is set: long enough for a TCP
/// handshake across the world, short enough that a firewalled endpoint
/// fails before a user gives up (the DNS lookup is not under it: see the
/// module docs).
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The read and write timeout unless another is set: the longest a socket
/// may go without moving a byte. S3 sends the first byte of an answer in
/// well under a second; CompleteMultipartUpload may take minutes but sends
/// whitespace meanwhile (AWS's API reference), so 60 s of silence means a
/// dead connection, not a slow one.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Tries per request unless another count is set (1 = no retries): with the
/// backoff below, at most 0.2 + 0.4 + 0.8 + 1.6 = 3 s of waiting, which
/// rides out a dropped connection or a burst of 503 SlowDown.
pub const DEFAULT_TRIES: u32 = 5;

/// The longest wait before the second try; doubled for each later one.
pub const FIRST_BACKOFF: Duration = Duration::from_millis(200);

/// No wait between tries is longer than this, however many tries are set.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How the S3 location talks to its server: timeouts and tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Network {
    /// The longest a TCP connect may take ([`DEFAULT_CONNECT_TIMEOUT`]).
    pub connect_timeout: Duration,
    /// The longest a connection may go without a byte read or written
    /// ([`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
    /// Tries per request, the first included, at least 1 ([`DEFAULT_TRIES`]).
    pub tries: u32,
}

impl Default for Network {
    fn default() -> Network {
        Network { connect_timeout: DEFAULT_CONNECT_TIMEOUT, timeout: DEFAULT_TIMEOUT, tries: DEFAULT_TRIES }
    }
}

impl Network {
    /// An `InvalidInput` error for a zero timeout or no tries.
    pub fn check(&self) -> io::Result<()> {
        let invalid = |why: &str| Err(io::Error::new(io::ErrorKind::InvalidInput, why.to_string()));
        if self.connect_timeout.is_zero() || self.timeout.is_zero() {
            return invalid("S3 timeouts must be longer than zero");
        }
        if self.tries == 0 {
            return invalid("S3 requests need at least one try");
        }
        Ok(())
    }

    pub(super) fn agent(&self) -> ureq::Agent {
        // With the `s3-tls` feature, ureq's rustls takes the platform's
        // trust store (its `native-certs` feature): see the crate's Cargo.toml.
        // No redirects: a followed 302 turns a PUT into a GET whose 200
        // would read as a stored object, and would send the signed URL's
        // request to another host. A 3xx is an error (`exchange`).
        ureq::AgentBuilder::new()
            .redirects(0)
            .timeout_connect(self.connect_timeout)
            .timeout_read(self.timeout)
            .timeout_write(self.timeout)
            .build()
    }
}

/// A whole answer: status, headers and body.
pub(super) struct Reply {
    headers: Vec<(String, String)>,
    pub(super) body: Vec<u8>,
}

impl Reply {
    /// A header's value (names are case-insensitive).
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(header, _)| header.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    }

    /// The body as text (S3's XML).
    pub(super) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A failed try: the error to report, and whether another try may succeed.
pub(super) struct Failed {
    error: io::Error,
    retry: bool,
}

/// One try of a request: sent, and its whole answer read. `what` names it
/// in messages (`PUT s3://bucket/key`); `url` never appears in one. With
/// `expected_root`, a 2xx answer whose XML root element is any other (or
/// that is no XML) is a failed try.
pub(super) fn exchange(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    headers: &[(&'static str, String)],
    body: Option<&[u8]>,
    what: &str,
    expected_root: Option<&str>,
) -> Result<Reply, Failed> {
    let mut request = agent.request(method, url);
    for (header, value) in headers {
        request = request.set(header, value);
    }
    let result = match body {
        Some(body) => request.send_bytes(body),
        None => request.call(),
    };
    let response = match result {
        Ok(response) => response,
        Err(ureq::Error::Status(status, response)) => {
            // A body cut short here only shortens the message.
            let mut text = String::new();
            let _ = response.into_reader().take(64 << 10).read_to_string(&mut text);
            let conditional = headers.iter().any(|(header, _)| header.eq_ignore_ascii_case("if-none-match"));
            return Err(status_failure(what, status, &text, conditional));
        }
        Err(ureq::Error::Transport(transport)) => return Err(transport_failure(what, url, &transport)),
    };
    let status = response.status();
    if !(200..=299).contains(&status) {
        // ureq errs only from 400 up: a 3xx (not followed, see
        // `Network::agent`) or a 1xx here is no answer to the request.
        // Its `Location` is not shown: it may repeat the signed query.
        let why = match status {
            300..=399 => "the endpoint redirects (wrong region or http->https?)",
            _ => "not a success status",
        };
        let error = io::Error::other(format!("{what}: HTTP {status}: {why}"));
        return Err(Failed { error, retry: false });
    }
    let headers = response
        .headers_names()
        .into_iter()
        .filter_map(|name| response.header(&name).map(|value| (name.clone(), value.to_string())))
        .collect();
    let mut bytes = Vec::new();
    if let Err(error) = response.into_reader().read_to_end(&mut bytes) {
        // Cut short or stalled midway: another try reads it whole. A body
        // that does not decode (InvalidData) would not decode again.
        let retry = error.kind() != io::ErrorKind::InvalidData;
        let message = format!("{what}: reading the answer: {}", redact(&error.to_string()));
        return Err(Failed { error: io::Error::new(transport_kind(error.kind()), message), retry });
    }
    if method != "POST" && expected_root.is_none() {
        return Ok(Reply { headers, body: bytes });
    }
    // S3 may answer a POST with 200 and an error in the body: it sends
    // the status at once, then (CompleteMultipartUpload) whitespace while
    // it works, then the result or an <Error> (AWS's API reference).
    let root = root_element(&bytes);
    if root == Some("Error") {
        return Err(status_failure(what, status, &String::from_utf8_lossy(&bytes), false));
    }
    if let Some(expected) = expected_root.filter(|expected| root != Some(*expected)) {
        // Not the answer of a request that succeeded (an empty body, a
        // proxy's page): tried again, and a later try completes it or
        // finds it done (see `s3.rs`).
        let message = format!("{what}: HTTP {status} but the answer ({} bytes) is not a {expected}", bytes.len());
        return Err(Failed { error: io::Error::new(io::ErrorKind::InvalidData, message), retry: true });
    }
    Ok(Reply { headers, body: bytes })
}

/// Runs `attempt` until it succeeds, fails for good, or has had
/// `network.tries` tries, waiting between tries as the module docs say.
/// Gives the result and the number of tries made.
pub(super) fn with_retries<T>(
    network: &Network,
    mut attempt: impl FnMut() -> Result<T, Failed>,
) -> (io::Result<T>, u32) {
    let mut tries = 0;
    loop {
        tries += 1;
        match attempt() {
            Ok(value) => return (Ok(value), tries),
            Err(failed) if failed.retry && tries < network.tries => std::thread::sleep(backoff(tries)),
            Err(failed) if tries > 1 => {
                let message = format!("{} (after {tries} tries)", failed.error);
                return (Err(io::Error::new(failed.error.kind(), message)), tries);
            }
            Err(failed) => return (Err(failed.error), tries),
        }
    }
}

/// The wait after try `tries` failed: uniform in zero to
/// `FIRST_BACKOFF * 2^(tries - 1)`, at most `MAX_BACKOFF`.
pub(super) fn backoff(tries: u32) -> Duration {
    let ceiling = FIRST_BACKOFF.saturating_mul(1 << tries.saturating_sub(1).min(20)).min(MAX_BACKOFF);
    // Randomness without a dependency: std's per-process random hash keys.
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(tries);
    let fraction = (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64;
    ceiling.mul_f64(fraction)
}

/// An HTTP error status: S3's `Code` and `Message` from the body; the
/// statuses and codes that a later try may not get are retried. For a
/// `conditional` request (`If-None-Match`), 409 `ConditionalRequestConflict`
/// too: S3 gives it to a retry while the first try is still being stored;
/// a later try gets 412, and the caller reads the object back.
fn status_failure(what: &str, status: u16, body: &str, conditional: bool) -> Failed {
    let code = xml_field(body, "Code").unwrap_or_default();
    let message = xml_field(body, "Message").unwrap_or_default();
    let text = format!("{what}: HTTP {status} {code} {}", redact(&message));
    let kind = match status {
        404 => io::ErrorKind::NotFound,
        412 => io::ErrorKind::AlreadyExists,
        _ if code == "BadDigest" => io::ErrorKind::InvalidData,
        _ => io::ErrorKind::Other,
    };
    let retry = matches!(status, 408 | 429 | 500 | 502 | 503 | 504)
        || matches!(code.as_str(), "InternalError" | "SlowDown" | "ServiceUnavailable" | "RequestTimeout")
        || (conditional && status == 409 && code == "ConditionalRequestConflict");
    Failed { error: io::Error::new(kind, text.trim_end().to_string()), retry }
}

/// A transport error, described without its URL.
fn transport_failure(what: &str, url: &str, transport: &ureq::Transport) -> Failed {
    use ureq::ErrorKind as Kind;
    let source = std::error::Error::source(transport)
        .and_then(|source| source.downcast_ref::<io::Error>())
        .map(|error| error.kind());
    // rustls reports a failed handshake or a bad record as InvalidData.
    let tls = url.starts_with("https://") && source == Some(io::ErrorKind::InvalidData);
    let (description, retry) = match transport.kind() {
        _ if tls => ("TLS failed (handshake or stream)", false),
        Kind::Dns => ("DNS lookup failed", false),
        Kind::ConnectionFailed => ("could not connect", true),
        Kind::Io if matches!(source, Some(io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock)) => ("timed out", true),
        Kind::Io => ("network error", source != Some(io::ErrorKind::InvalidData)),
        Kind::BadStatus | Kind::BadHeader => ("the server's answer is not HTTP", true),
        Kind::InvalidUrl | Kind::UnknownScheme => ("the endpoint URL is not usable", false),
        _ => ("request failed", false),
    };
    let mut message = format!("{what}: {description}");
    if let Some(detail) = transport.message() {
        message.push_str(&format!(": {}", redact(detail)));
    }
    // The innermost cause says what happened ("Connection refused", "timed
    // out reading response"); the layers between repeat ureq's wording.
    let mut cause = std::error::Error::source(transport);
    while let Some(inner) = cause.and_then(|error| error.source()) {
        cause = Some(inner);
    }
    if let Some(cause) = cause.filter(|cause| !(description == "timed out" && cause.to_string().contains("timed out")))
    {
        message.push_str(&format!(": {}", redact(&cause.to_string())));
    }
    Failed { error: io::Error::new(source.map_or(io::ErrorKind::Other, transport_kind), message), retry }
}

/// The kind an I/O failure is reported as: the network's own kinds are
/// kept; anything else is `Other`, so that no transport failure can read
/// as a missing object (`NotFound`) or an existing one (`AlreadyExists`).
fn transport_kind(kind: io::ErrorKind) -> io::ErrorKind {
    use io::ErrorKind as K;
    match kind {
        K::TimedOut | K::WouldBlock => K::TimedOut,
        K::ConnectionRefused
        | K::ConnectionReset
        | K::ConnectionAborted
        | K::BrokenPipe
        | K::UnexpectedEof
        | K::InvalidData => kind,
        _ => K::Other,
    }
}

/// `text` with the query cut from every URL in it, and any word naming a
/// presigned URL's secret parts (`X-Amz-Credential`, `X-Amz-Signature`,
/// `X-Amz-Security-Token`) replaced: nothing a server or a library puts in
/// a message can carry them out.
pub fn redact(text: &str) -> String {
    const SECRET_PARTS: [&str; 4] = ["x-amz-credential", "x-amz-signature", "x-amz-security-token", "signature="];
    let mut out = String::with_capacity(text.len());
    for word in text.split_inclusive(char::is_whitespace) {
        let trailing = word.len() - word.trim_end().len();
        let (word, space) = word.split_at(word.len() - trailing);
        let (word, query) = match (word.contains("://"), word.find('?')) {
            (true, Some(at)) => (&word[..at], "?[redacted]"),
            _ => (word, ""),
        };
        let lower = word.to_ascii_lowercase();
        if SECRET_PARTS.iter().any(|part| lower.contains(part)) {
            out.push_str("[redacted]");
        } else {
            out.push_str(word);
            out.push_str(query);
        }
        out.push_str(space);
    }
    out
}

/// `text` with each of `secrets` (the empty one aside) replaced by
/// `[redacted]`, as it is and as a URL's query encodes it: for a value a
/// server echoes bare (an access key id, a session token, a signature),
/// which no name marks for [`redact`].
pub(super) fn scrub(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|secret| !secret.is_empty()) {
        for form in [secret.to_string(), query_encoded(secret)] {
            out = out.replace(&form, "[redacted]");
        }
    }
    out
}

/// `text` as SigV4 encodes a query value: all but `A-Za-z0-9-_.~` as `%XX`.
fn query_encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The value of the query parameter `name` in `url` (as encoded there).
pub(super) fn query_value<'a>(url: &'a str, name: &str) -> Option<&'a str> {
    let (_, query) = url.split_once('?')?;
    query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
}

/// The name of the root element of an XML document: after any whitespace
/// (however much: S3 pads a slow answer with it) and an XML declaration.
fn root_element(body: &[u8]) -> Option<&str> {
    let skip_space = |bytes: &[u8]| -> usize { bytes.iter().take_while(|b| b.is_ascii_whitespace()).count() };
    let mut rest = &body[skip_space(body)..];
    if rest.starts_with(b"<?") {
        let end = rest.windows(2).position(|pair| pair == b"?>")? + 2;
        rest = &rest[end..];
        rest = &rest[skip_space(rest)..];
    }
    let rest = rest.strip_prefix(b"<")?;
    let end = rest.iter().position(|&b| b == b'>' || b == b'/' || b.is_ascii_whitespace())?;
    std::str::from_utf8(&rest[..end]).ok().filter(|name| !name.is_empty())
}

/// The text of the first `<field>` element (S3 error bodies are this simple).
pub(super) fn xml_field(text: &str, field: &str) -> Option<String> {
    let start = text.find(&format!("<{field}>"))? + field.len() + 2;
    let end = text[start..].find("</")? + start;
    Some(text[start..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_cuts_queries_and_secret_words() {
        let url = "http://127.0.0.1:9/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIDEXAMPLE%2F2026&X-Amz-Signature=abc";
        let text = format!("{url}: Connection Failed: Connect error: refused");
        let redacted = redact(&text);
        assert_eq!(redacted, "http://127.0.0.1:9/b/k?[redacted] Connection Failed: Connect error: refused");
        assert_eq!(redact("see X-Amz-Signature=1234 here"), "see [redacted] here");
        assert_eq!(redact("/b/k?x-amz-security-token=TOKEN"), "[redacted]");
        // Ordinary text is kept as it was, spacing included.
        assert_eq!(redact("is it  there?\tno\n"), "is it  there?\tno\n");
    }

    #[test]
    fn scrubbing_removes_bare_secrets_plain_and_encoded() {
        let token = "IQoJb3JpZ2luX2Vj/+token==";
        let text = format!("key AKIDEXAMPLE, token {token}, as sent IQoJb3JpZ2luX2Vj%2F%2Btoken%3D%3D; sig abc123.");
        assert_eq!(
            scrub(&text, &["AKIDEXAMPLE", token, "abc123", ""]),
            "key [redacted], token [redacted], as sent [redacted]; sig [redacted]."
        );
        let url = "http://h/b/k?X-Amz-Date=1&X-Amz-Signature=5f3e&x=y";
        assert_eq!(query_value(url, "X-Amz-Signature"), Some("5f3e"));
        assert_eq!(query_value(url, "X-Amz-Sig"), None);
        assert_eq!(query_value("http://h/b/k", "X-Amz-Signature"), None);
    }

    #[test]
    fn backoff_is_full_jitter_under_a_doubling_cap() {
        for tries in 1..40 {
            let ceiling = FIRST_BACKOFF.saturating_mul(1 << (tries - 1).min(20)).min(MAX_BACKOFF);
            let waits: Vec<Duration> = (0..50).map(|_| backoff(tries)).collect();
            assert!(waits.iter().all(|wait| *wait <= ceiling), "{tries}: {waits:?}");
            // Random, not fixed: 50 draws are not all equal.
            assert!(waits.iter().any(|wait| *wait != waits[0]), "{tries}: {waits:?}");
        }
        assert!(backoff(1) <= FIRST_BACKOFF && backoff(30) <= MAX_BACKOFF);
    }

    fn error_with(code: &str) -> String {
        format!("<Error><Code>{code}</Code></Error>")
    }

    #[test]
    fn statuses_worth_another_try() {
        for status in [408, 429, 500, 502, 503, 504] {
            assert!(status_failure("GET s3://b/k", status, "", false).retry, "{status}");
        }
        for status in [400, 403, 404, 409, 412, 501] {
            assert!(!status_failure("GET s3://b/k", status, "", false).retry, "{status}");
        }
        let conflict = "<Error><Code>ConditionalRequestConflict</Code></Error>";
        assert!(status_failure("PUT s3://b/k", 409, conflict, true).retry);
        assert!(!status_failure("PUT s3://b/k", 409, conflict, false).retry);
        assert!(!status_failure("PUT s3://b/k", 409, &error_with("OperationAborted"), true).retry);
        let slow =
            status_failure("PUT s3://b/k", 503, "<Error><Code>SlowDown</Code><Message>m</Message></Error>", false);
        assert!(slow.retry);
        assert_eq!(slow.error.to_string(), "PUT s3://b/k: HTTP 503 SlowDown m");
        assert_eq!(status_failure("GET s3://b/k", 404, "", false).error.kind(), io::ErrorKind::NotFound);
        assert_eq!(status_failure("PUT s3://b/k", 412, "", false).error.kind(), io::ErrorKind::AlreadyExists);
    }

    #[test]
    fn root_elements() {
        assert_eq!(root_element(b"<?xml version=\"1.0\"?>\n<Error><Code>x</Code></Error>"), Some("Error"));
        assert_eq!(
            root_element(b"  \n <CompleteMultipartUploadResult xmlns=\"x\">"),
            Some("CompleteMultipartUploadResult")
        );
        assert_eq!(root_element(b"PACK\x00\x01"), None);
        // AWS's keep-alive padding, however long, then an error.
        let mut padded = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".to_vec();
        padded.extend([b' '; 300]);
        padded.extend(b"\n<Error><Code>InternalError</Code></Error>");
        assert_eq!(root_element(&padded), Some("Error"));
        padded.extend([b' '; 1 << 20]);
        assert_eq!(root_element(&padded[..padded.len() - 50]), Some("Error"));
        let mut padded = vec![b' '; 5000];
        padded.extend(b"<CompleteMultipartUploadResult/>");
        assert_eq!(root_element(&padded), Some("CompleteMultipartUploadResult"));
        // No root element at all.
        assert_eq!(root_element(b""), None);
        assert_eq!(root_element(b"   \n  "), None);
        assert_eq!(root_element(b"<?xml version=\"1.0\"?>   "), None);
        assert_eq!(root_element(b"<?xml version=\"1.0\""), None);
    }

    #[test]
    fn network_settings_are_checked() {
        Network::default().check().unwrap();
        assert!(Network { tries: 0, ..Network::default() }.check().is_err());
        assert!(Network { timeout: Duration::ZERO, ..Network::default() }.check().is_err());
    }

    #[test]
    fn retries_stop_at_the_count_and_on_final_errors() {
        let network = Network { tries: 3, ..Network::default() };
        let mut calls = 0;
        let (result, tries) = with_retries(&network, || -> Result<(), Failed> {
            calls += 1;
            Err(status_failure("GET s3://b/k", 503, "", false))
        });
        assert_eq!((calls, tries), (3, 3));
        assert!(result.unwrap_err().to_string().ends_with("(after 3 tries)"));
        let (result, tries) =
            with_retries(&network, || -> Result<(), Failed> { Err(status_failure("GET s3://b/k", 403, "", false)) });
        assert_eq!(tries, 1);
        assert_eq!(result.unwrap_err().to_string(), "GET s3://b/k: HTTP 403");
        let mut calls = 0;
        let (result, tries) = with_retries(&network, || {
            calls += 1;
            if calls < 3 {
                Err(status_failure("GET s3://b/k", 500, "", false))
            } else {
                Ok(calls)
            }
        });
        assert_eq!((result.unwrap(), tries), (3, 3));
    }
}
