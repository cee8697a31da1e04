//! Algorithm names and ids, and backend names, on any input: a name that
//! parses names that algorithm under every spelling the registry gives it,
//! ids round-trip, and errors quote the input (cut on a character
//! boundary) without panicking.

#![no_main]

use chunkhash::blake3::Backend;
use chunkhash::Algorithm;
use libfuzzer_sys::fuzz_target;

/// The case- and `_`-insensitive form `Algorithm`'s `FromStr` compares.
fn folded(name: &str) -> String {
    name.to_ascii_lowercase().replace('_', "-")
}

fuzz_target!(|input: (u8, &str)| {
    let (id, name) = input;
    match Algorithm::from_id(id) {
        Ok(algorithm) => {
            assert_eq!(algorithm.id(), id);
            assert_eq!(Algorithm::all()[id as usize - 1], algorithm);
            assert_eq!(u8::from(algorithm), id);
        }
        Err(error) => {
            assert!(id == 0 || id as usize > Algorithm::all().len(), "id {id}");
            assert_eq!(error.id(), id);
            assert!(error.to_string().contains(&format!("id {id} ")), "{error}");
        }
    }
    match name.parse::<Algorithm>() {
        Ok(algorithm) => {
            // Every spelling of the one it names parses back to it.
            for spelling in [algorithm.name(), algorithm.bsd_tag()] {
                assert_eq!(spelling.parse::<Algorithm>(), Ok(algorithm), "{spelling}");
                assert_eq!(folded(spelling).to_uppercase().parse::<Algorithm>(), Ok(algorithm), "{spelling}");
            }
            // No other algorithm answers to the same name.
            let same = |a: &Algorithm| folded(a.name()) == folded(name) || folded(a.bsd_tag()) == folded(name);
            assert!(Algorithm::all().iter().filter(|a| same(a)).all(|a| *a == algorithm), "{name:?}");
            assert!(!name.starts_with(char::is_whitespace) && !name.ends_with(char::is_whitespace));
        }
        Err(error) => {
            let message = error.to_string();
            assert!(message.starts_with("unknown algorithm \""), "{message}");
            // The quoted name is the input's start, whole characters only.
            let quoted: String = format!("{name:?}");
            let shown_end = message.find("\", expected").or_else(|| message.find("\"..., expected")).unwrap();
            let shown = &message["unknown algorithm ".len()..shown_end + 1];
            assert!(quoted.starts_with(&shown[..shown.len() - 1]), "{name:?}: {message}");
            for algorithm in Algorithm::all() {
                assert_ne!(folded(algorithm.name()), folded(name), "{name:?} rejected");
            }
        }
    }
    match name.parse::<Backend>() {
        Ok(backend) => assert!(backend.name().eq_ignore_ascii_case(name)),
        Err(error) => {
            let message = error.to_string();
            assert!(message.starts_with("unknown backend \""), "{message}");
            assert!(Backend::all().iter().all(|b| !b.name().eq_ignore_ascii_case(name)));
        }
    }
});
