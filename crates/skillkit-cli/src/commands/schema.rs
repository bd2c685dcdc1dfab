//! `skillkit schema`: the JSON Schema of the SKILL.md frontmatter or of skillkit.toml.

use crate::cli::SchemaKind;
use std::io::Write;

pub(crate) fn schema(which: SchemaKind, out: &mut dyn Write) -> std::io::Result<i32> {
    out.write_all(match which {
        SchemaKind::Frontmatter => skillkit::syntax::schema::SCHEMA_JSON.as_bytes(),
        SchemaKind::Config => skillkit::config::SCHEMA_JSON.as_bytes(),
    })
    .map(|_| 0)
}
