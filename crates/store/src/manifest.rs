//! The manifest: the store's format version, algorithms and chunker
//! settings, written once at `init` and never changed.

use crate::address::check_address_algorithm;
use crate::error::{Error, Result};
use chunkhash::Algorithm;
use std::path::Path;

/// The on-disk format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The first line of every manifest.
const MAGIC_LINE: &str = "chunkhash-store manifest";

/// Content-defined chunking settings (FastCDC 2020, normalisation level 1):
/// no chunk is shorter than `min` bytes (except a file's last) or longer
/// than `max`; chunks average about `avg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkerSettings {
    /// Smallest chunk, bytes.
    pub min: u32,
    /// Target average, bytes.
    pub avg: u32,
    /// Largest chunk, bytes.
    pub max: u32,
}

impl ChunkerSettings {
    /// 16 KiB / 64 KiB / 256 KiB.
    pub const DEFAULT: ChunkerSettings = ChunkerSettings { min: 16 << 10, avg: 64 << 10, max: 256 << 10 };

    /// Checks the settings against FastCDC's bounds (min 64 B to 1 MiB, avg
    /// 256 B to 4 MiB, max 1 KiB to 16 MiB) and their order.
    pub fn check(&self) -> Result<()> {
        use fastcdc::v2020::{AVERAGE_MAX, AVERAGE_MIN, MAXIMUM_MAX, MAXIMUM_MIN, MINIMUM_MAX, MINIMUM_MIN};
        let in_range = |name: &str, value: u32, low: usize, high: usize| {
            if (low..=high).contains(&(value as usize)) {
                Ok(())
            } else {
                Err(Error::BadSettings(format!("{name} {value} is outside {low}..={high}")))
            }
        };
        in_range("minimum chunk size", self.min, MINIMUM_MIN, MINIMUM_MAX)?;
        in_range("average chunk size", self.avg, AVERAGE_MIN, AVERAGE_MAX)?;
        in_range("maximum chunk size", self.max, MAXIMUM_MIN, MAXIMUM_MAX)?;
        if !(self.min <= self.avg && self.avg <= self.max) {
            return Err(Error::BadSettings(format!(
                "need minimum <= average <= maximum, got {} / {} / {}",
                self.min, self.avg, self.max
            )));
        }
        Ok(())
    }
}

impl Default for ChunkerSettings {
    fn default() -> Self {
        ChunkerSettings::DEFAULT
    }
}

/// What a store is: see the crate docs for the file's exact layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// Always [`FORMAT_VERSION`] once parsed.
    pub format_version: u32,
    /// The address algorithm.
    pub address: Algorithm,
    /// The algorithm of record and index trailers.
    pub trailer: Algorithm,
    /// The chunker.
    pub chunker: ChunkerSettings,
}

impl Manifest {
    /// The manifest text.
    pub fn encode(&self) -> String {
        let body = format!(
            "{MAGIC_LINE}\nformat-version: {}\naddress-algorithm: {} {}\ntrailer-algorithm: {} {}\nchunker: fastcdc-2020 {} {} {}\n",
            self.format_version,
            self.address.id(),
            self.address.name(),
            self.trailer.id(),
            self.trailer.name(),
            self.chunker.min,
            self.chunker.avg,
            self.chunker.max,
        );
        let crc = chunkhash::digest(Algorithm::Crc32c, body.as_bytes());
        format!("{body}crc32c: {}\n", crc.to_hex())
    }

    /// Parses a manifest read from `path` (named in errors).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Manifest> {
        let bad = |reason: String| Error::BadManifest { path: path.to_path_buf(), reason };
        let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".into()))?;
        let mut lines = text.split_inclusive('\n');
        if lines.next().map(str::trim_end) != Some(MAGIC_LINE) {
            return Err(bad(format!("the first line is not {MAGIC_LINE:?}")));
        }
        // The version comes before the checksum: a newer format may check
        // itself differently, and deserves the clearer error.
        let version_line = lines.next().unwrap_or_default();
        let version = field(version_line, "format-version").ok_or_else(|| bad("no format-version line".into()))?;
        let version: u64 = version.parse().map_err(|_| bad(format!("format-version {version:?} is not a number")))?;
        if version != u64::from(FORMAT_VERSION) {
            return Err(Error::UnknownFormatVersion { found: version, supported: FORMAT_VERSION });
        }
        let Some(crc_at) = text.rfind("crc32c: ") else {
            return Err(bad("no crc32c line".into()));
        };
        let (body, crc_line) = text.split_at(crc_at);
        let stored = field(crc_line, "crc32c").unwrap_or_default();
        if chunkhash::digest(Algorithm::Crc32c, body.as_bytes()).to_hex() != stored {
            return Err(bad("its crc32c does not match its contents (damaged or edited)".into()));
        }
        let mut address = None;
        let mut trailer = None;
        let mut chunker = None;
        for line in body.split_inclusive('\n').skip(2) {
            let (key, value) = line.trim_end().split_once(": ").ok_or_else(|| bad(format!("bad line {line:?}")))?;
            match key {
                "address-algorithm" => address = Some(algorithm(value).map_err(bad)?),
                "trailer-algorithm" => trailer = Some(algorithm(value).map_err(bad)?),
                "chunker" => chunker = Some(chunker_settings(value).map_err(bad)?),
                _ => return Err(bad(format!("unknown field {key:?}"))),
            }
        }
        let manifest = Manifest {
            format_version: FORMAT_VERSION,
            address: address.ok_or_else(|| bad("no address-algorithm line".into()))?,
            trailer: trailer.ok_or_else(|| bad("no trailer-algorithm line".into()))?,
            chunker: chunker.ok_or_else(|| bad("no chunker line".into()))?,
        };
        check_address_algorithm(manifest.address).map_err(|e| bad(e.to_string()))?;
        if !manifest.trailer.is_available() {
            return Err(bad(format!("trailer algorithm {} is not in this build", manifest.trailer)));
        }
        manifest.chunker.check().map_err(|e| bad(e.to_string()))?;
        Ok(manifest)
    }
}

/// The value of a `key: value` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.trim_end().strip_prefix(key)?.strip_prefix(": ")
}

/// `ID NAME`: the id decides; the name must agree (it is there for people).
fn algorithm(value: &str) -> Result<Algorithm, String> {
    let (id, name) = value.split_once(' ').ok_or_else(|| format!("algorithm {value:?} is not `ID NAME`"))?;
    let id: u8 = id.parse().map_err(|_| format!("algorithm id {id:?} is not a number"))?;
    let algorithm = Algorithm::from_id(id).map_err(|e| e.to_string())?;
    if algorithm.name() != name {
        return Err(format!("algorithm id {id} is {}, not {name}", algorithm.name()));
    }
    Ok(algorithm)
}

fn chunker_settings(value: &str) -> Result<ChunkerSettings, String> {
    let parts: Vec<&str> = value.split(' ').collect();
    let [kind, min, avg, max] = parts[..] else {
        return Err(format!("chunker {value:?} is not `fastcdc-2020 MIN AVG MAX`"));
    };
    if kind != "fastcdc-2020" {
        return Err(format!("unknown chunker {kind:?}"));
    }
    let number = |text: &str| text.parse::<u32>().map_err(|_| format!("chunk size {text:?} is not a number"));
    Ok(ChunkerSettings { min: number(min)?, avg: number(avg)?, max: number(max)? })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            address: Algorithm::Blake3_160,
            trailer: Algorithm::Crc32c,
            chunker: ChunkerSettings::DEFAULT,
        }
    }

    #[test]
    fn round_trips() {
        let text = manifest().encode();
        assert!(text.contains("address-algorithm: 2 BLAKE3-160\n"), "{text}");
        assert_eq!(Manifest::parse(text.as_bytes(), Path::new("m")).unwrap(), manifest());
    }

    #[test]
    fn every_damage_is_a_typed_error() {
        let path = Path::new("m");
        let text = manifest().encode();
        let newer = text.replace("format-version: 1", "format-version: 7");
        assert!(matches!(
            Manifest::parse(newer.as_bytes(), path),
            Err(Error::UnknownFormatVersion { found: 7, supported: 1 })
        ));
        let edited = text.replace("65536", "65538");
        let error = Manifest::parse(edited.as_bytes(), path).unwrap_err().to_string();
        assert!(error.contains("crc32c does not match"), "{error}");
        for garbage in [&b""[..], b"\xff\xfe", b"hello\n", &text.as_bytes()[..40]] {
            assert!(matches!(Manifest::parse(garbage, path), Err(Error::BadManifest { .. })), "{garbage:?}");
        }
    }

    #[test]
    fn chunker_bounds_are_checked() {
        assert!(ChunkerSettings::DEFAULT.check().is_ok());
        assert!(ChunkerSettings { min: 10, avg: 256, max: 1024 }.check().is_err());
        assert!(ChunkerSettings { min: 4096, avg: 1024, max: 8192 }.check().is_err());
        assert!(ChunkerSettings { min: 64, avg: 256, max: 1 << 30 }.check().is_err());
    }
}
