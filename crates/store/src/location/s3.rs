//! A store on S3-compatible object storage: `s3://BUCKET/PREFIX`.
//!
//! Every object but the staged open pack is written whole and never
//! changed, so S3's whole-object PUT is the atomic write the store needs.
//!
//! **Upload checksums.** Each upload carries a checksum header of one kind
//! ([`set_checksum`](S3::set_checksum), [`upload::UPLOAD_KINDS`]):
//! `x-amz-checksum-crc64nvme` by default, or `-crc32c`, `-crc32`, `-sha256`
//! or `-xxhash3`. For packs chunkhash computes it in the loop that writes
//! and seals the records ([`Location::upload_checksum`]); for the small
//! files (index, manifest, snapshot pointers), over their bytes before the
//! PUT. The server checks it and rejects a wrong value with `BadDigest`, so
//! nothing damaged in transit is stored. SeaweedFS (and S3) check and keep
//! CRC32, CRC32C, CRC64NVME and SHA-256; SeaweedFS 4.48 accepts XXHASH3
//! without checking or keeping it.
//!
//! **Multipart packs.** A pack longer than the part size
//! ([`set_part_size`](S3::set_part_size), default [`DEFAULT_PART_SIZE`],
//! at least S3's minimum [`MIN_PART_SIZE`]) goes up with
//! CreateMultipartUpload, one UploadPart per part (each with its own
//! checksum header) and CompleteMultipartUpload, which lists every part's
//! value. For the CRCs the upload is of type `FULL_OBJECT`: the complete
//! request carries the whole object's CRC, made from the parts' CRCs with
//! `crc_combine`, and the server keeps that value, the same one a single PUT
//! gives. For SHA-256 it is `COMPOSITE` (the hash of the parts' digests,
//! `-N`); the part size goes into the object's metadata
//! (`x-amz-meta-chunkhash-part-size`) so a reader can recompute it.
//! XXHASH3 packs always go up in one PUT: SeaweedFS 4.48 refuses XXHASH3 as
//! a multipart checksum algorithm (`InvalidRequest` at
//! CreateMultipartUpload). Without a checksum header packs still go up in
//! parts, so the two compare like with like. Any
//! failure after CreateMultipartUpload aborts the upload
//! (AbortMultipartUpload), so no parts are left behind on the server unless
//! the abort itself fails or the process dies (S3's lifecycle rule
//! `AbortIncompleteMultipartUpload` cleans those up).
//!
//! **Downloads.** Each GET asks for the stored checksum
//! (`x-amz-checksum-mode: ENABLED`). The response names the kind the
//! object carries by its header (`x-amz-checksum-<kind>`; the value ends in
//! `-N` when composite), whatever kind this reader would upload with; the
//! reader recomputes that kind over the bytes received and a difference is
//! reported as corruption naming the object (`InvalidData`). When the
//! server returns no checksum (an XXHASH3 object on SeaweedFS, or one
//! uploaded without a header), no object-level check is possible: what is
//! verified then is what is verified on disk, every record's trailer and
//! every chunk's address.
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
//! only its staged open pack, which was local (left in the temporary
//! directory; a later process that gets the same process id empties it
//! rather than taking it for its own).
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
//!
//! **Logging.** ureq logs each request's URL, which is presigned (it holds
//! the access key id, the signature and any session token), at `debug`
//! level through the `log` crate. A program that embeds this store and
//! turns on debug logging for ureq gets them in its log; the `chunkhash`
//! CLI compiles those calls out (the `log` crate's `max_level_info`).
//! Error messages from here never hold them (see the `http` module).
//!
//! **The network.** Timeouts, bounded retries with backoff and redacted
//! error messages are in the `http` module ([`Network`], [`S3::set_network`]).
//! Every request is safe to send again: GET, HEAD, LIST and DELETE change
//! nothing or end in the same state; packs and index files are named by
//! their content, so a PUT sent twice writes the same bytes; an UploadPart
//! sent again replaces the part with the same bytes and checksum; a second
//! CreateMultipartUpload starts another upload (the first, if it was made,
//! stays empty until S3's `AbortIncompleteMultipartUpload` lifecycle rule
//! removes it). Two need care. A CompleteMultipartUpload whose answer was
//! lost may have completed: its retry may then get `NoSuchUpload`, and the
//! object is read back and accepted if it holds the bytes sent. Its 200
//! counts only with a `CompleteMultipartUploadResult` body: S3 sends the
//! status first and whitespace while it works, then the result or an
//! `<Error>`; an error there, or any other body, is a failed try. A
//! conditional PUT (`If-None-Match: *`, the manifest and the snapshot
//! pointers) whose answer was lost may have been stored: a retry then gets
//! 412 (or, while the first is still being stored, 409
//! `ConditionalRequestConflict`, which is tried again), and the object is read back and accepted if it holds the same
//! bytes, else the error is `AlreadyExists` as on a first try.

pub use super::http::Network;
use super::http::{self, Reply};
use super::upload::{self, ObjectSums, PartSums, S3Checksum, UploadChecksum};
use super::{Location, WriterLock};
use rusty_s3::actions::{CreateMultipartUpload, ListObjectsV2};
use rusty_s3::{Bucket, Credentials, S3Action, UrlStyle};
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The upload checksum unless another is chosen.
pub const DEFAULT_CHECKSUM: S3Checksum = S3Checksum::Crc64Nvme;

/// S3's smallest part (all but the last part of an upload).
pub const MIN_PART_SIZE: u64 = 5 << 20;

/// S3's largest part.
pub const MAX_PART_SIZE: u64 = 5 << 30;

/// Packs longer than this go up in parts of this size: 8 MiB, the part
/// size and multipart threshold of the AWS CLI and boto3, so a full pack
/// (32 MiB) goes up as four parts with the same part values, ETag and
/// checksums those tools would give it (`chunkhash s3sum --part-size 8M`
/// recomputes them), while index files, manifests and pointers stay single
/// PUTs. What it costs against one PUT per pack: BENCHMARKS.md.
pub const DEFAULT_PART_SIZE: u64 = 8 << 20;

/// The most parts of one multipart upload S3 accepts.
pub const MAX_PARTS: u64 = 10_000;

/// The object metadata naming the part size of a composite checksum.
pub const PART_SIZE_HEADER: &str = "x-amz-meta-chunkhash-part-size";

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
    network: Network,
    /// Tries beyond the first, over all requests (see [`S3::retries`]).
    retries: AtomicU64,
    staging: PathBuf,
    checksum: Option<S3Checksum>,
    part_size: u64,
    cache: Mutex<HashMap<String, Arc<Vec<u8>>>>,
}

impl std::fmt::Debug for S3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the credentials themselves (rusty-s3's Debug of them shows
        // the access key id): only whether there are any.
        f.debug_struct("S3")
            .field("url", &self.describe(""))
            .field("endpoint", &http::redact(&without_userinfo(self.bucket.base_url().as_str())))
            .field("signed", &self.credentials.is_some())
            .field("network", &self.network)
            .finish()
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
        // Messages name the endpoint without any `user:password@` in it.
        let invalid = |e: &dyn std::fmt::Display| {
            let shown = http::redact(&without_userinfo(&endpoint));
            io::Error::new(io::ErrorKind::InvalidInput, format!("S3 endpoint {shown}: {e}"))
        };
        let parsed = endpoint.parse().map_err(|e| invalid(&e))?;
        let bucket = Bucket::new(parsed, style, bucket, region).map_err(|e| invalid(&e))?;
        let staging = std::env::temp_dir().join(format!(
            "chunkhash-s3-staging-{}-{}",
            std::process::id(),
            STAGING_DIRS.fetch_add(1, Ordering::Relaxed)
        ));
        fresh_directory(&staging)?;
        Ok(S3 {
            bucket,
            credentials: Credentials::from_env(),
            prefix,
            agent: Network::default().agent(),
            network: Network::default(),
            retries: AtomicU64::new(0),
            staging,
            checksum: Some(DEFAULT_CHECKSUM),
            part_size: DEFAULT_PART_SIZE,
            cache: Mutex::new(HashMap::new()),
        })
    }

    /// The checksum every upload carries ([`upload::UPLOAD_KINDS`],
    /// [`DEFAULT_CHECKSUM`] unless set), or `None` for no checksum header
    /// (only to measure what it costs, or to test that the server checks
    /// it). An `InvalidInput` error for a kind not in `UPLOAD_KINDS`.
    pub fn set_checksum(&mut self, kind: Option<S3Checksum>) -> io::Result<()> {
        if let Some(kind) = kind {
            upload::parse_kind(kind.name())?;
        }
        self.checksum = kind;
        Ok(())
    }

    /// The part size of multipart pack uploads (see [`DEFAULT_PART_SIZE`]);
    /// an `InvalidInput` error outside [`MIN_PART_SIZE`]..=[`MAX_PART_SIZE`].
    pub fn set_part_size(&mut self, part_size: u64) -> io::Result<()> {
        if !(MIN_PART_SIZE..=MAX_PART_SIZE).contains(&part_size) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("part size {part_size}: S3 takes parts of 5 MiB (5242880 bytes) to 5 GiB"),
            ));
        }
        self.part_size = part_size;
        Ok(())
    }

    /// Timeouts and tries (see [`Network`]); an `InvalidInput` error for a
    /// zero timeout or no tries.
    pub fn set_network(&mut self, network: Network) -> io::Result<()> {
        network.check()?;
        self.agent = network.agent();
        self.network = network;
        Ok(())
    }

    /// The timeouts and tries in use.
    pub fn network(&self) -> Network {
        self.network
    }

    /// Signs requests with these credentials instead of those from the
    /// environment.
    pub fn set_credentials(&mut self, access_key_id: &str, secret_access_key: &str, session_token: Option<&str>) {
        self.credentials = Some(match session_token {
            Some(token) => Credentials::new_with_token(access_key_id, secret_access_key, token),
            None => Credentials::new(access_key_id, secret_access_key),
        });
    }

    /// How many tries beyond the first all requests so far took (each a
    /// timeout, a dropped connection or a 5xx that a later try got past,
    /// or a request that failed after all its tries).
    pub fn retries(&self) -> u64 {
        self.retries.load(Ordering::Relaxed)
    }

    fn key(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    /// Sends a signed request and reads its whole answer, with the
    /// network's timeouts and retries; `headers` are signed and sent.
    fn send(
        &self,
        action: &mut dyn S3ActionDyn,
        name: &str,
        headers: &[(&'static str, String)],
        body: Option<&[u8]>,
    ) -> io::Result<Reply> {
        self.send_counted(action, name, headers, body, None).0
    }

    /// [`send`](S3::send), and how many tries it took; with
    /// `expected_root`, a 2xx answer must be XML with that root element.
    fn send_counted(
        &self,
        action: &mut dyn S3ActionDyn,
        name: &str,
        headers: &[(&'static str, String)],
        body: Option<&[u8]>,
        expected_root: Option<&str>,
    ) -> (io::Result<Reply>, u32) {
        // Signed once: the signature lives an hour, far longer than the
        // tries can take.
        let (method, url) = action.signed(headers);
        let what = format!("{method} {}", self.describe(name));
        let (result, tries) = http::with_retries(&self.network, || {
            http::exchange(&self.agent, method, &url, headers, body, &what, expected_root)
        });
        self.retries.fetch_add(u64::from(tries - 1), Ordering::Relaxed);
        let signature = http::query_value(&url, "X-Amz-Signature");
        (result.map_err(|error| self.scrubbed(error, signature)), tries)
    }

    /// `error` without the credentials or `signature`, in case a server's
    /// message echoed one (see `http::scrub`).
    fn scrubbed(&self, error: io::Error, signature: Option<&str>) -> io::Error {
        let mut secrets = vec![signature.unwrap_or_default()];
        if let Some(credentials) = &self.credentials {
            secrets.extend([credentials.key(), credentials.secret(), credentials.token().unwrap_or_default()]);
        }
        io::Error::new(error.kind(), http::scrub(&error.to_string(), &secrets))
    }

    /// Packs longer than this go up in parts: the part size, but for
    /// XXHASH3, which SeaweedFS 4.48 refuses as a multipart checksum
    /// (`InvalidRequest` at CreateMultipartUpload), one PUT per pack.
    fn pack_part_size(&self) -> u64 {
        match self.checksum {
            Some(S3Checksum::Xxhash3) => u64::MAX,
            _ => self.part_size,
        }
    }

    fn checksum_of(&self, bytes: &[u8]) -> Option<ObjectSums> {
        self.upload_checksum().map(|checksum| PartSums::of(checksum, bytes))
    }

    /// One PUT of a whole object; `sums` of one part, when uploads carry a
    /// checksum.
    fn put(&self, name: &str, bytes: &[u8], sums: Option<&ObjectSums>, only_new: bool) -> io::Result<()> {
        self.put_counted(name, bytes, sums, only_new).0
    }

    /// [`put`](S3::put), and how many tries it took.
    fn put_counted(
        &self,
        name: &str,
        bytes: &[u8],
        sums: Option<&ObjectSums>,
        only_new: bool,
    ) -> (io::Result<()>, u32) {
        let key = self.key(name);
        let mut headers = Vec::new();
        if let Some(sums) = sums {
            headers.push((header_name(sums.kind()), sums.object_value()));
        }
        if only_new {
            headers.push(("if-none-match", "*".to_string()));
        }
        let mut action = self.bucket.put_object(self.credentials.as_ref(), &key);
        crate::faults::step("upload");
        let (result, tries) = self.send_counted(&mut action, name, &headers, Some(bytes), None);
        (result.map(drop), tries)
    }

    /// A multipart upload of `bytes` in parts of `self.part_size`, each with
    /// its value from `sums`; aborted on any failure.
    fn put_multipart(&self, name: &str, bytes: &[u8], sums: Option<&ObjectSums>) -> io::Result<()> {
        let key = self.key(name);
        let mut headers = Vec::new();
        if let Some(sums) = sums {
            headers.push(("x-amz-checksum-algorithm", sums.kind().name().to_string()));
            headers.push(("x-amz-checksum-type", sums.checksum_type().to_string()));
            headers.push((PART_SIZE_HEADER, sums.part_size().to_string()));
        }
        let mut create = self.bucket.create_multipart_upload(self.credentials.as_ref(), &key);
        crate::faults::step("upload");
        let text = self.send(&mut create, name, &headers, Some(b""))?.text();
        let created = CreateMultipartUpload::parse_response(&text).map_err(|e| {
            let error = io::Error::new(
                io::ErrorKind::InvalidData,
                format!("POST {}: CreateMultipartUpload: {e}", self.describe(name)),
            );
            self.scrubbed(error, None)
        })?;
        let upload_id = created.upload_id();
        let result = self.upload_parts(name, &key, upload_id, bytes, sums);
        if result.is_err() {
            // Best effort: the error that made us abort is the one to report.
            let mut abort = self.bucket.abort_multipart_upload(self.credentials.as_ref(), &key, upload_id);
            let _ = self.send(&mut abort, name, &[], None);
        }
        result
    }

    fn upload_parts(
        &self,
        name: &str,
        key: &str,
        upload_id: &str,
        bytes: &[u8],
        sums: Option<&ObjectSums>,
    ) -> io::Result<()> {
        let checksum_field = sums.map(|sums| sums.kind().field());
        let mut listing = String::from("<CompleteMultipartUpload>");
        for (index, part) in bytes.chunks(usize::try_from(self.part_size).unwrap_or(usize::MAX)).enumerate() {
            let number = u16::try_from(index + 1)
                .map_err(|_| io::Error::other(format!("{}: more than 65535 parts", self.describe(name))))?;
            let mut headers = Vec::new();
            let value = sums.map(|sums| sums.part_value(index));
            if let (Some(sums), Some(value)) = (sums, &value) {
                headers.push((header_name(sums.kind()), value.clone()));
            }
            let mut action = self.bucket.upload_part(self.credentials.as_ref(), key, number, upload_id);
            crate::faults::step("upload");
            let response = self.send(&mut action, name, &headers, Some(part))?;
            let etag = response.header("etag").unwrap_or_default().to_string();
            listing.push_str(&format!("<Part><ETag>{}</ETag><PartNumber>{number}</PartNumber>", xml_escape(&etag)));
            if let (Some(field), Some(value)) = (&checksum_field, &value) {
                listing.push_str(&format!("<{field}>{value}</{field}>"));
            }
            listing.push_str("</Part>");
        }
        listing.push_str("</CompleteMultipartUpload>");
        let mut headers = Vec::new();
        if let Some(sums) = sums {
            headers.push(("x-amz-checksum-type", sums.checksum_type().to_string()));
            if sums.kind().is_full_object() {
                headers.push((header_name(sums.kind()), sums.object_value()));
            }
        }
        let mut complete =
            self.bucket.complete_multipart_upload(self.credentials.as_ref(), key, upload_id, std::iter::empty());
        crate::faults::step("upload");
        // Only a `CompleteMultipartUploadResult` is success: a 200 with an
        // error, or with anything else, in the body is a failed try.
        let expected = Some("CompleteMultipartUploadResult");
        match self.send_counted(&mut complete, name, &headers, Some(listing.as_bytes()), expected) {
            // An earlier try may have completed the upload before its answer
            // was lost: S3 then no longer knows the upload id (NoSuchUpload).
            (Err(error), tries) if tries > 1 && error.kind() == io::ErrorKind::NotFound => match self.get(name) {
                Ok(stored) if stored == bytes => Ok(()),
                _ => Err(error),
            },
            (result, _) => result.map(drop),
        }
    }

    /// A whole object, its checksum compared with the stored one.
    fn get(&self, name: &str) -> io::Result<Vec<u8>> {
        let key = self.key(name);
        let mut action = self.bucket.get_object(self.credentials.as_ref(), &key);
        // The body is read inside the tries: one cut short is fetched again.
        let response = self.send(&mut action, name, &[("x-amz-checksum-mode", "ENABLED".to_string())], None)?;
        let stored = stored_checksum(&response);
        let part_size = response.header(PART_SIZE_HEADER).and_then(|size| size.parse().ok());
        let bytes = response.body;
        if let Some((kind, stored)) = stored {
            let part_size = part_size.unwrap_or(self.part_size);
            check_download(&self.describe(name), kind, part_size, &stored, &bytes)?;
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

/// Creates `dir` empty. A staging directory named by this process's id can
/// only be left over from a killed process that had the same id: its open
/// pack belongs to that process (and maybe to another store), so it must
/// not be taken for an interrupted put of this one.
fn fresh_directory(dir: &Path) -> io::Result<()> {
    match std::fs::remove_dir_all(dir) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    std::fs::create_dir_all(dir)
}

/// `endpoint` without the `user:password@` of its authority, if any.
fn without_userinfo(endpoint: &str) -> String {
    let (scheme, rest) = match endpoint.split_once("://") {
        Some((scheme, rest)) => (format!("{scheme}://"), rest),
        None => (String::new(), endpoint),
    };
    let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    match authority.rfind('@') {
        Some(at) => format!("{scheme}{}", &rest[at + 1..]),
        None => endpoint.to_string(),
    }
}

/// `x-amz-checksum-<kind>`.
fn header_name(kind: S3Checksum) -> &'static str {
    match kind {
        S3Checksum::Crc32 => "x-amz-checksum-crc32",
        S3Checksum::Crc32c => "x-amz-checksum-crc32c",
        S3Checksum::Crc64Nvme => "x-amz-checksum-crc64nvme",
        S3Checksum::Sha1 => "x-amz-checksum-sha1",
        S3Checksum::Sha256 => "x-amz-checksum-sha256",
        S3Checksum::Sha512 => "x-amz-checksum-sha512",
        S3Checksum::Md5 => "x-amz-checksum-md5",
        S3Checksum::Xxhash64 => "x-amz-checksum-xxhash64",
        S3Checksum::Xxhash3 => "x-amz-checksum-xxhash3",
        _ => "x-amz-checksum-xxhash128",
    }
}

/// The stored checksum a response names: its kind (by the header's name)
/// and value.
fn stored_checksum(response: &Reply) -> Option<(S3Checksum, String)> {
    S3Checksum::ALL
        .into_iter()
        .find_map(|kind| response.header(header_name(kind)).map(|value| (kind, value.trim().to_string())))
}

/// Compares the checksum of `kind` the server stored (`-N` when composite,
/// from parts of `part_size`) with the downloaded bytes' own:
/// `InvalidData` naming the object when they differ.
pub fn check_download(object: &str, kind: S3Checksum, part_size: u64, stored: &str, bytes: &[u8]) -> io::Result<()> {
    // A composite value was made from parts; a full-object one is the same
    // however the object went up, so it is recomputed in one part.
    let part_size = if stored.contains('-') { part_size.max(1) } else { u64::MAX };
    // The part size comes from the server's reply: one that would make
    // more parts than S3 allows is refused before any part is hashed (a
    // size of 1 would ask for a digest per byte).
    let parts = (bytes.len() as u64).div_ceil(part_size);
    if parts > MAX_PARTS {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{object}: the reply's part size {part_size} makes {parts} parts of its {} bytes, more than S3's {MAX_PARTS}",
                bytes.len()
            ),
        ));
    }
    let computed = PartSums::of(UploadChecksum { kind, part_size }, bytes).object_value();
    if computed == stored {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{object}: corrupt: the server's stored {kind} is {stored}, the {} bytes downloaded have {computed}",
            bytes.len()
        ),
    ))
}

/// `text` with XML's special characters escaped (ETags are quoted).
fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
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
            let text = self.send(&mut action, folder, &[], None)?.text();
            let listed = ListObjectsV2::parse_response(&text).map_err(|e| {
                let error =
                    io::Error::new(io::ErrorKind::InvalidData, format!("listing {}: {e}", self.describe(folder)));
                self.scrubbed(error, None)
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
        let sums = self.checksum.map(|kind| PartSums::of(UploadChecksum { kind, part_size: u64::MAX }, bytes));
        self.put(name, bytes, sums.as_ref(), false)
    }

    fn write_new(&self, name: &str, bytes: &[u8], _fsync: bool) -> io::Result<()> {
        let sums = self.checksum.map(|kind| PartSums::of(UploadChecksum { kind, part_size: u64::MAX }, bytes));
        match self.put_counted(name, bytes, sums.as_ref(), true) {
            // An earlier try may have been stored before its answer was
            // lost: then the object holds these very bytes.
            (Err(error), tries) if tries > 1 && error.kind() == io::ErrorKind::AlreadyExists => match self.get(name) {
                Ok(stored) if stored == bytes => Ok(()),
                _ => Err(error),
            },
            (result, _) => result,
        }
    }

    fn upload_checksum(&self) -> Option<UploadChecksum> {
        self.checksum.map(|kind| UploadChecksum { kind, part_size: self.pack_part_size() })
    }

    fn publish(&self, staged: &Path, name: &str, sums: Option<ObjectSums>, _fsync: bool) -> io::Result<()> {
        let bytes = std::fs::read(staged)?;
        self.forget(name);
        // A pack recovered from an interrupted put comes without sums.
        let sums = match sums {
            Some(sums) if Some(sums.kind()) == self.checksum && sums.part_size() == self.pack_part_size() => Some(sums),
            _ => self.checksum_of(&bytes),
        };
        if bytes.len() as u64 > self.pack_part_size() {
            self.put_multipart(name, &bytes, sums.as_ref())?;
        } else {
            self.put(name, &bytes, sums.as_ref(), false)?;
        }
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
    fn a_download_whose_checksum_differs_from_the_stored_one_is_corrupt() {
        let bytes: Vec<u8> = (0..100u8).collect();
        for kind in upload::UPLOAD_KINDS {
            // Stored whole, and in parts of 30 bytes (full-object or composite).
            for part_size in [u64::MAX, 30] {
                let stored = PartSums::of(UploadChecksum { kind, part_size }, &bytes).object_value();
                check_download("s3://b/packs/x.pack", kind, 30, &stored, &bytes).unwrap();
                let mut flipped = bytes.clone();
                flipped[3] ^= 1;
                let error = check_download("s3://b/packs/x.pack", kind, 30, &stored, &flipped).unwrap_err();
                assert_eq!(error.kind(), io::ErrorKind::InvalidData);
                assert!(error
                    .to_string()
                    .contains(&format!("s3://b/packs/x.pack: corrupt: the server's stored {kind}")));
            }
        }
        // A composite value checked with the wrong part size does not match.
        let kind = S3Checksum::Sha256;
        let stored = PartSums::of(UploadChecksum { kind, part_size: 30 }, &bytes).object_value();
        assert!(check_download("s3://b/x", kind, 40, &stored, &bytes).is_err());
        // A part size that makes more parts than S3 allows (from a reply's
        // header) is refused before any part is hashed.
        let many = vec![0u8; MAX_PARTS as usize + 1];
        let stored = PartSums::of(UploadChecksum { kind, part_size: 5000 }, &many).object_value();
        assert!(stored.contains('-'), "{stored}");
        let error = check_download("s3://b/x", kind, 1, &stored, &many).unwrap_err();
        assert!(error.to_string().contains("makes 10001 parts of its 10001 bytes"), "{error}");
        check_download("s3://b/x", kind, 5000, &stored, &many).unwrap();
    }

    #[test]
    fn a_staging_directory_left_by_a_killed_process_is_emptied() {
        let dir = std::env::temp_dir().join(format!("chunkhash-s3-staging-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(crate::pack::OPEN_PACK), b"another process's records").unwrap();
        fresh_directory(&dir).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
        fresh_directory(&dir).unwrap();
        assert!(dir.is_dir());
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn endpoints_are_shown_without_user_and_password() {
        assert_eq!(without_userinfo("http://user:pass@127.0.0.1:9/x?a@b"), "http://127.0.0.1:9/x?a@b");
        assert_eq!(without_userinfo("user:p@ss@host:9"), "host:9");
        assert_eq!(without_userinfo("https://host/p@q"), "https://host/p@q");
        let s3 = S3::new("s3://b/p", Some("http://user:pass@127.0.0.1:9")).unwrap();
        let debug = format!("{s3:?}");
        assert!(debug.contains("127.0.0.1:9") && !debug.contains("user") && !debug.contains("pass"), "{debug}");
        let error = S3::new("s3://b/p", Some("http://user:pass@[::bad")).unwrap_err().to_string();
        assert!(error.contains("S3 endpoint http://[::bad") && !error.contains("pass"), "{error}");
    }

    #[test]
    fn header_names_are_s3s() {
        for kind in S3Checksum::ALL {
            assert_eq!(header_name(kind), kind.header());
        }
    }

    #[test]
    fn error_bodies_give_their_code() {
        use crate::location::http::xml_field;
        let body = "<?xml version=\"1.0\"?><Error><Code>BadDigest</Code><Message>no</Message></Error>";
        assert_eq!(xml_field(body, "Code").as_deref(), Some("BadDigest"));
        assert_eq!(xml_field(body, "Message").as_deref(), Some("no"));
        assert_eq!(xml_field(body, "Key"), None);
    }
}
