//! The one percent-codec of the engine and its front ends: paths as the path of a URI reference
//! (RFC 3986), the `%XX` escapes of Markdown link destinations and of `file:` URIs decoded, and
//! `file:` URIs of paths and back (the language server's, the SARIF report's).
//!
//! Decoding is lenient, as Markdown and browsers are: a `%` not followed by two hex digits stays
//! as it is, and bytes that are not UTF-8 become U+FFFD. `file:` URIs are the Unix form
//! (`file:///home/a/SKILL.md`); a Windows drive letter is not treated apart (`file:///C:/a`
//! names `/C:/a`).

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// `path` as the path of a URI reference (RFC 3986): unreserved characters (`A-Z a-z 0-9 - . _ ~`)
/// and `/` kept, every other byte of its UTF-8 (space, `#`, `?`, `%`, `:`, non-ASCII) as `%XX`.
/// Borrowed when nothing is encoded.
pub fn percent_encode_path(path: &str) -> Cow<'_, str> {
    let keep = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/');
    if path.bytes().all(keep) {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 8);
    for b in path.bytes() {
        if keep(b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Cow::Owned(out)
}

/// Decode `%XX` escapes (invalid UTF-8 becomes U+FFFD; a stray `%` stays).
pub fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' {
            if let (Some(h), Some(l)) = (b.get(i + 1).and_then(|&c| hex(c)), b.get(i + 2).and_then(|&c| hex(c))) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

/// The `file:` URI of `path`: `file://` and the path percent-encoded ([`percent_encode_path`]).
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", percent_encode_path(&path.to_string_lossy()))
}

/// The path a `file:` URI names, its escapes decoded ([`percent_decode`]); `None` for any other
/// URI.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let s = uri.strip_prefix("file://")?;
    Some(PathBuf::from(percent_decode(s).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded_as_uri_references() {
        assert_eq!(percent_encode_path("skills/my-skill_2.0~/SKILL.md"), "skills/my-skill_2.0~/SKILL.md");
        assert!(matches!(percent_encode_path("a/b"), Cow::Borrowed(_)));
        assert_eq!(percent_encode_path("my skill#1/SKILL.md"), "my%20skill%231/SKILL.md");
        assert_eq!(percent_encode_path("a?b%c:d/é\u{1b}"), "a%3Fb%25c%3Ad/%C3%A9%1B");
        for p in ["my skill#1/SKILL.md", "a?b%c:d/é\u{1b}", "%%41"] {
            assert_eq!(percent_decode(&percent_encode_path(p)), p);
        }
    }

    #[test]
    fn file_uris_round_trip_spaces_non_ascii_and_the_percent_sign() {
        for p in ["/a b/SKILL.md", "/é/ü 😀/SKILL.md", "/100%/50%25/SKILL.md", "/a#b?c/SKILL.md", "/C:/skills/x"] {
            let uri = file_uri(Path::new(p));
            assert!(uri.starts_with("file:///"), "{uri}");
            assert!(!uri[7..].contains([' ', '#', '?']) && uri.is_ascii(), "{uri} holds what a URI cannot");
            assert_eq!(file_path(&uri), Some(PathBuf::from(p)), "{uri}");
        }
        assert_eq!(file_uri(Path::new("/a b/é/SKILL.md")), "file:///a%20b/%C3%A9/SKILL.md");
        assert_eq!(file_uri(Path::new("/100%")), "file:///100%25");
        assert_eq!(file_path("file:///a%20b/SKILL.md"), Some(PathBuf::from("/a b/SKILL.md")));
        // A drive letter is a path segment like any other.
        assert_eq!(file_path("file:///C:/a"), Some(PathBuf::from("/C:/a")));
        assert_eq!(file_path("https://example.com/a"), None);
        assert_eq!(file_path("untitled:Untitled-1"), None);
    }

    #[test]
    fn a_stray_percent_and_bytes_that_are_not_utf8_decode_leniently() {
        assert_eq!(percent_decode("50%"), "50%");
        assert_eq!(percent_decode("a%zzb%4"), "a%zzb%4");
        assert_eq!(percent_decode("%41%2f"), "A/");
        assert_eq!(percent_decode("%FF.md"), "\u{FFFD}.md");
        assert!(matches!(percent_decode("plain"), Cow::Borrowed(_)));
    }
}
