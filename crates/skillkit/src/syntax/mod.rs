//! The first stage: a skill file's text as the engine reads it, without the disk and without
//! judgement. Positions ([`text`]), the split into frontmatter and body ([`split`]), YAML with
//! spans ([`yaml`], and the YAML 1.1 reading [`yaml11`]), the frontmatter's fields ([`fields`],
//! [`frontmatter`]), Markdown and its references ([`markdown`]), the JSON Schema ([`schema`]),
//! token counts ([`tokens`]), the one percent-codec of paths and `file:` URIs ([`uri`]), and
//! untrusted text as it may be shown to a person ([`shown`]).

mod bpe;
mod bpe_hash;
pub mod fields;
pub mod frontmatter;
pub mod markdown;
mod o200k_split;
pub mod schema;
pub mod shown;
pub mod split;
pub mod text;
pub mod tokens;
pub mod uri;
pub mod yaml;
pub mod yaml11;
