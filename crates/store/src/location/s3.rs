//! A store on S3-compatible object storage: `s3://BUCKET/PREFIX`.
//!
//! Every object but the staged open pack is written whole and never
//! changed, so S3's whole-object PUT is the atomic write the store needs.
//! Each upload carries `x-amz-checksum-crc64nvme`: for packs, the value the
//! pack writer computed while it wrote the records; for the small files,
//! computed on the spot. The server checks it (a wrong value is rejected
//! with `BadDigest`, so nothing damaged in transit is ever stored). Each
//! download asks for the stored checksum (`x-amz-checksum-mode: ENABLED`)
//! and compares it with the CRC of the bytes received; a difference is
//! reported as corruption naming the object.
//!
//! **No writer lock.** S3 has no lock that outlives a crashed process
//! safely, and this format needs none: packs and index files are named by
//! their content (two writers that write the same name write the same
//! bytes), each process stages its open pack in a local directory of its
//! own, and the manifest and snapshot pointers are written with
//! `If-None-Match: *`, so no writer ever replaces what another wrote. A
//! second `init` of the same prefix gets a clear error; two writers making
//! the same snapshot (same tree, same second) find it already made.
//! A killed put leaves its sealed packs (indexed by the next open) and loses
//! only its staged open pack, which was local.
//!
//! **Why `rusty-s3` and `ureq`.** The store needs three things of a client:
//! to send its own checksum header (no SDK-side checksum), a conditional
//! PUT, and a small compile. `rusty-s3` only signs requests (SigV4,
//! sans-IO): any header given to it is signed and sent as is, and it has no
//! async runtime; `ureq` (blocking, default features off) sends them. The
//! alternatives: `aws-sdk-s3` computes its own checksums and pulls in the
//! Smithy runtime, tokio and hyper (hundreds of crates); `object_store`
//! (Apache Arrow) supports `PutMode::Create` but is async (tokio, reqwest)
//! and sets checksums itself. HTTPS needs the `s3-tls` feature (rustls).

use super::{Location, WriterLock};
use rusty_s3::actions::ListObjectsV2;
use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};
use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The header carrying an upload's CRC64NVME, and the stored one on reads.
pub const CHECKSUM_HEADER: &str = "x-amz-checksum-crc64nvme";

/// How long a signed request stays valid.
const SIGNATURE_LIFETIME: Duration = Duration::from_secs(3600);

/// Whole objects kept after a ranged read, so reading the records of a pack
/// one by one downloads (and checks) it once.
const CACHED_OBJECTS: usize = 4;

/// A store under a prefix of an S3 bucket.
pub struct S3 {
    bucket: Bucket,
    credentials: Option<Credentials>,
    /// `""` or ending in `/`.
    prefix: String,
    agent: ureq::Agent,
    staging: PathBuf,
    checksums: bool,
    cache: Mutex<HashMap<String, Arc<Vec<u8>>>>,
}

impl std::fmt::Debug for S3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3").field("url", &self.describe("")).field("endpoint", self.bucket.base_url()).finish()
    }
}

/// Splits `s3://BUCKET/PREFIX` into the bucket and the prefix (`""` or
/// ending in `/`).
pub fn parse_url(url: &str) -> io::Result<(String, String)> {
    let invalid = |why: &str| io::Error::new(io::ErrorKind::InvalidInput, format!("{url}: {why}"));
    let rest = url.strip_prefix("s3://").ok_or_else(|| invalid("not an s3://BUCKET/PREFIX address"))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    if bucket.is_empty() {
        return Err(invalid("no bucket"));
    }
    let prefix = prefix.trim_matches('/');
    Ok((bucket.to_string(), if prefix.is_empty() { String::new() } else { format!("{prefix}/") }))
}

static STAGING_DIRS: AtomicU64 = AtomicU64::new(0);

impl S3 {
    /// The store at `url` (`s3://BUCKET/PREFIX`). `endpoint` (for example
    /// `http://127.0.0.1:8333`) defaults to `$AWS_ENDPOINT_URL_S3`, then
    /// `$AWS_ENDPOINT_URL`, then AWS's endpoint for `$AWS_REGION` (or
    /// `$AWS_DEFAULT_REGION`, or us-east-1). Credentials come from
    /// `$AWS_ACCESS_KEY_ID`, `$AWS_SECRET_ACCESS_KEY` and
    /// `$AWS_SESSION_TOKEN`; without them requests are anonymous.
    pub fn new(url: &str, endpoint: Option<&str>) -> io::Result<S3> {
        let (bucket, prefix) = parse_url(url)?;
        let env = |name: &str| std::env::var(name).ok().filter(|value| !value.is_empty());
        let region = env("AWS_REGION").or_else(|| env("AWS_DEFAULT_REGION")).unwrap_or_else(|| "us-east-1".into());
        let endpoint =
            endpoint.map(str::to_string).or_else(|| env("AWS_ENDPOINT_URL_S3")).or_else(|| env("AWS_ENDPOINT_URL"));
        // A custom endpoint (MinIO, SeaweedFS, ...) is addressed by path;
        // AWS itself by virtual host.
        let (endpoint, style) = match endpoint {
            Some(endpoint) => (endpoint, UrlStyle::Path),
            None => (format!("https://s3.{region}.amazonaws.com"), UrlStyle::VirtualHost),
        };
        let parsed = endpoint
            .parse()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("S3 endpoint {endpoint}: {e}")))?;
        let bucket = Bucket::new(parsed, style, bucket, region)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("S3 endpoint {endpoint}: {e}")))?;
        let staging = std::env::temp_dir().join(format!(
            "chunkhash-s3-staging-{}-{}",
            std::process::id(),
            STAGING_DIRS.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&staging)?;
        Ok(S3 {
            bucket,
            credentials: Credentials::from_env(),
            prefix,
            agent: ureq::AgentBuilder::new().timeout_connect(Duration::from_secs(30)).build(),
            staging,
            checksums: true,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// Whether uploads carry the checksum header (on by default; off only
    /// to measure what it costs, or to test that the server checks it).
    pub fn set_checksums(&mut self, on: bool) {
        self.checksums = on;
    }

    fn key(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Sends a signed request; `headers` are signed and sent.
    fn send(
        &self,
        action: &mut dyn S3ActionDyn,
        name: &str,
        headers: &[(&'static str, String)],
        body: Option<&[u8]>,
    ) -> io::Result<ureq::Response> {
        let (method, url) = action.signed(headers);
        let mut request = self.agent.request(method, &url);
        for (header, value) in headers {
            request = request.set(header, value);
        }
        let result = match body {
            Some(body) => request.send_bytes(body),
            None => request.call(),
        };
        match result {
            Ok(response) => Ok(response),
            Err(ureq::Error::Status(status, response)) => {
                let text = response.into_string().unwrap_or_default();
                let code = xml_field(&text, "Code").unwrap_or_default();
                let message = xml_field(&text, "Message").unwrap_or_default();
                let what = format!("{method} {}: HTTP {status} {code} {message}", self.describe(name));
                let kind = match status {
                    404 => io::ErrorKind::NotFound,
                    412 => io::ErrorKind::AlreadyExists,
                    _ if code == "BadDigest" => io::ErrorKind::InvalidData,
                    _ => io::ErrorKind::Other,
                };
                Err(io::Error::new(kind, what.trim_end().to_string()))
            }
            Err(error) => Err(io::Error::other(format!("{method} {}: {error}", self.describe(name)))),
        }
    }

    fn put(&self, name: &str, bytes: &[u8], crc64nvme: Option<u64>, only_new: bool) -> io::Result<()> {
        let key = self.key(name);
        let mut headers = Vec::new();
        if self.checksums {
            let crc = crc64nvme.unwrap_or_else(|| chunkhash::crc::crc64_nvme(bytes));
            headers.push((CHECKSUM_HEADER, chunkhash::s3::base64(&crc.to_be_bytes())));
        }
        if only_new {
            headers.push(("if-none-match", "*".to_string()));
        }
        let mut action = self.bucket.put_object(self.credentials.as_ref(), &key);
        crate::faults::step("upload");
        self.send(&mut action, name, &headers, Some(bytes))?;
        Ok(())
    }

    /// A whole object, its checksum compared with the stored one.
    fn get(&self, name: &str) -> io::Result<Vec<u8>> {
        let key = self.key(name);
        let mut action = self.bucket.get_object(self.credentials.as_ref(), &key);
        let response = self.send(&mut action, name, &[("x-amz-checksum-mode", "ENABLED".to_string())], None)?;
        let stored = response.header(CHECKSUM_HEADER).map(str::to_string);
        let mut bytes = Vec::new();
        response
            .into_reader()
            .read_to_end(&mut bytes)
            .map_err(|e| io::Error::new(e.kind(), format!("GET {}: {e}", self.describe(name))))?;
        if let Some(stored) = stored {
            check_download(&self.describe(name), &stored, &bytes)?;
        }
        Ok(bytes)
    }

    fn cached(&self, name: &str) -> io::Result<Arc<Vec<u8>>> {
        if let Some(bytes) = self.cache.lock().unwrap_or_else(|p| p.into_inner()).get(name) {
            return Ok(bytes.clone());
        }
        let bytes = Arc::new(self.get(name)?);
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if cache.len() >= CACHED_OBJECTS {
            cache.clear();
        }
        cache.insert(name.to_string(), bytes.clone());
        Ok(bytes)
    }

    fn forget(&self, name: &str) {
        self.cache.lock().unwrap_or_else(|p| p.into_inner()).remove(name);
    }
}

/// Compares the checksum the server stored (base64 CRC64NVME) with the
/// downloaded bytes' own: `InvalidData` naming the object when they differ.
pub fn check_download(object: &str, stored: &str, bytes: &[u8]) -> io::Result<()> {
    let computed = chunkhash::s3::base64(&chunkhash::crc::crc64_nvme(bytes).to_be_bytes());
    if computed == stored {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{object}: corrupt: the server's stored CRC64NVME is {stored}, the {} bytes downloaded have {computed}",
            bytes.len()
        ),
    ))
}

/// The text of the first `<field>` element (S3 error bodies are this simple).
fn xml_field(text: &str, field: &str) -> Option<String> {
    let start = text.find(&format!("<{field}>"))? + field.len() + 2;
    let end = text[start..].find("</")? + start;
    Some(text[start..end].to_string())
}

/// Signing, over `rusty-s3`'s actions (its trait is generic over the lifetime
/// of the headers, so one object-safe wrapper serves every call above).
trait S3ActionDyn {
    fn signed(&mut self, headers: &[(&'static str, String)]) -> (&'static str, String);
}

impl<'a, A: S3Action<'a>> S3ActionDyn for A {
    fn signed(&mut self, headers: &[(&'static str, String)]) -> (&'static str, String) {
        for (header, value) in headers {
            self.headers_mut().insert(*header, value.clone());
        }
        let method = match A::METHOD {
            rusty_s3::Method::Head => "HEAD",
            rusty_s3::Method::Get => "GET",
            rusty_s3::Method::Post => "POST",
            rusty_s3::Method::Put => "PUT",
            rusty_s3::Method::Delete => "DELETE",
        };
        (method, self.sign(SIGNATURE_LIFETIME).to_string())
    }
}

impl Drop for S3 {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.staging);
    }
}

impl Location for S3 {
    fn describe(&self, name: &str) -> String {
        format!("s3://{}/{}{name}", self.bucket.name(), self.prefix)
    }

    fn read(&self, name: &str) -> io::Result<Vec<u8>> {
        self.get(name)
    }

    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let bytes = self.cached(name)?;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start.checked_add(buf.len()).and_then(|end| bytes.get(start..end)) {
            Some(slice) => {
                buf.copy_from_slice(slice);
                Ok(())
            }
            None => Err(io::Error::new(io::ErrorKind::UnexpectedEof, format!("{}: shorter", self.describe(name)))),
        }
    }

    fn len(&self, name: &str) -> io::Result<u64> {
        let key = self.key(name);
        let mut action = self.bucket.head_object(self.credentials.as_ref(), &key);
        let response = self.send(&mut action, name, &[], None)?;
        response
            .header("content-length")
            .and_then(|len| len.parse().ok())
            .ok_or_else(|| io::Error::other(format!("HEAD {}: no Content-Length", self.describe(name))))
    }

    fn list(&self, folder: &str) -> io::Result<Vec<String>> {
        let folder_prefix = format!("{}{folder}/", self.prefix);
        let mut names = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut action = self.bucket.list_objects_v2(self.credentials.as_ref());
            action.with_prefix(folder_prefix.as_str());
            if let Some(token) = &token {
                action.with_continuation_token(token.as_str());
            }
            let text = self.send(&mut action, folder, &[], None)?.into_string()?;
            let listed = ListObjectsV2::parse_response(&text).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidData, format!("listing {}: {e}", self.describe(folder)))
            })?;
            for object in listed.contents {
                if let Some(name) = object.key.strip_prefix(&folder_prefix) {
                    if !name.contains('/') && !super::directory::is_temporary(name) {
                        names.push(name.to_string());
                    }
                }
            }
            match listed.next_continuation_token {
                Some(next) => token = Some(next),
                None => break,
            }
        }
        names.sort();
        Ok(names)
    }

    fn write(&self, name: &str, bytes: &[u8], _fsync: bool) -> io::Result<()> {
        self.forget(name);
        self.put(name, bytes, None, false)
    }

    fn write_new(&self, name: &str, bytes: &[u8], _fsync: bool) -> io::Result<()> {
        self.put(name, bytes, None, true)
    }

    fn wants_checksum(&self) -> bool {
        self.checksums
    }

    fn publish(&self, staged: &Path, name: &str, crc64nvme: Option<u64>, _fsync: bool) -> io::Result<()> {
        let bytes = std::fs::read(staged)?;
        self.forget(name);
        self.put(name, &bytes, crc64nvme, false)?;
        crate::faults::step("removal");
        std::fs::remove_file(staged)
    }

    fn remove(&self, name: &str) -> io::Result<()> {
        self.forget(name);
        let key = self.key(name);
        let mut action = self.bucket.delete_object(self.credentials.as_ref(), &key);
        match self.send(&mut action, name, &[], None) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    fn remove_temporaries(&self) -> io::Result<()> {
        // Nothing is written under a temporary name: a PUT is atomic.
        Ok(())
    }

    fn staging(&self) -> &Path {
        &self.staging
    }

    fn try_lock(&self) -> io::Result<Result<WriterLock, String>> {
        // No lock: see the module docs for why none is needed.
        Ok(Ok(Box::new("S3: no writer lock (content names, conditional pointers)")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_bucket_and_prefix() {
        assert_eq!(parse_url("s3://b").unwrap(), ("b".into(), "".into()));
        assert_eq!(parse_url("s3://b/").unwrap(), ("b".into(), "".into()));
        assert_eq!(parse_url("s3://b/p/q/").unwrap(), ("b".into(), "p/q/".into()));
        assert!(parse_url("s3:///p").is_err());
        assert!(parse_url("/tmp/store").is_err());
    }

    #[test]
    fn a_download_whose_crc_differs_from_the_stored_one_is_corrupt() {
        let bytes = b"pack bytes".to_vec();
        let stored = chunkhash::s3::base64(&chunkhash::crc::crc64_nvme(&bytes).to_be_bytes());
        check_download("s3://b/packs/x.pack", &stored, &bytes).unwrap();
        let mut flipped = bytes.clone();
        flipped[3] ^= 1;
        let error = check_download("s3://b/packs/x.pack", &stored, &flipped).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert!(error.to_string().contains("s3://b/packs/x.pack: corrupt"), "{error}");
    }

    #[test]
    fn error_bodies_give_their_code() {
        let body = "<?xml version=\"1.0\"?><Error><Code>BadDigest</Code><Message>no</Message></Error>";
        assert_eq!(xml_field(body, "Code").as_deref(), Some("BadDigest"));
        assert_eq!(xml_field(body, "Message").as_deref(), Some("no"));
        assert_eq!(xml_field(body, "Key"), None);
    }
}
