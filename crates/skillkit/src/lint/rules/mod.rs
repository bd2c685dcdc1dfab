//! The lint rules: one file per rule, each declared with `declare_rule!` so that its doc
//! comment is its documentation (what it does, why, example, fix, sources). This module holds
//! the rule table; `rule.rs` the rule type, `declare_rule!` and the context rules report into;
//! `shared.rs` the helpers several rules share. Both are below the rule files.

mod shared;
pub(crate) use shared::*;

// The rule type, its context and `declare_rule!` (textually before the rule files, which use it).
#[macro_use]
mod rule;
pub use rule::*;

macro_rules! rules {
    ($($group:ident { $($module:ident :: $ty:ident),* $(,)? })*) => {
        $(pub(crate) mod $group { $(pub(crate) mod $module;)* })*
        $($(impl Rule for $group::$module::$ty {
            fn meta(&self) -> &'static RuleMeta { &$group::$module::$ty::META }
            fn check(&self, cx: &mut Context<'_>) { $group::$module::check(cx) }
        })*)*
        /// Every rule, in code order.
        pub static RULES: &[&dyn Rule] = &[$($(&$group::$module::$ty),*),*];
    };
}

rules! {
    file {
        skill_file_missing::SkillFileMissing,
        skill_file_not_regular::SkillFileNotRegular,
        skill_file_unreadable::SkillFileUnreadable,
        skill_file_too_large::SkillFileTooLarge,
        invalid_utf8::InvalidUtf8,
        binary_file::BinaryFile,
        lowercase_skill_file::LowercaseSkillFile,
        utf8_bom::Utf8Bom,
        too_many_findings::TooManyFindings,
    }
    frontmatter {
        frontmatter_missing::FrontmatterMissing,
        frontmatter_not_at_start::FrontmatterNotAtStart,
        frontmatter_unclosed::FrontmatterUnclosed,
        delimiter_trailing_whitespace::DelimiterTrailingWhitespace,
        closing_delimiter_at_eof::ClosingDelimiterAtEof,
        yaml_syntax::YamlSyntax,
        frontmatter_not_mapping::FrontmatterNotMapping,
        dashes_in_frontmatter::DashesInFrontmatter,
    }
    spec {
        name_missing::NameMissing,
        name_empty::NameEmpty,
        name_too_long::NameTooLong,
        name_format::NameFormat,
        name_folder_mismatch::NameFolderMismatch,
        name_non_ascii::NameNonAscii,
        description_missing::DescriptionMissing,
        description_empty::DescriptionEmpty,
        description_too_long::DescriptionTooLong,
        compatibility_invalid::CompatibilityInvalid,
        frontmatter_schema::FrontmatterSchema,
        allowed_tools_list::AllowedToolsList,
    }
    parity {
        unquoted_colon::UnquotedColon,
        flow_style::FlowStyle,
        duplicate_key::DuplicateKey,
        yaml_anchor::YamlAnchor,
        yaml_tag::YamlTag,
        tab_indentation::TabIndentation,
        yaml_implicit_type::YamlImplicitType,
        block_scalar_cut::BlockScalarCut,
        description_angle_brackets::DescriptionAngleBrackets,
        description_listing_truncated::DescriptionListingTruncated,
    }
    keys {
        misspelled_key::MisspelledKey,
        extension_key::ExtensionKey,
        unknown_key::UnknownKey,
    }
    body {
        body_too_long::BodyTooLong,
        body_too_many_tokens::BodyTooManyTokens,
        body_empty::BodyEmpty,
        reference_missing::ReferenceMissing,
        reference_outside_skill::ReferenceOutsideSkill,
        reference_too_deep::ReferenceTooDeep,
        resource_unreferenced::ResourceUnreferenced,
    }
    library {
        duplicate_skill_name::DuplicateSkillName,
        agent_skips_skill::AgentSkipsSkill,
        nested_skill::NestedSkill,
        shadowed_skill::ShadowedSkill,
        competing_descriptions::CompetingDescriptions,
        bundled_skill_name::BundledSkillName,
    }
    package {
        upload_skill_count::UploadSkillCount,
        upload_too_many_files::UploadTooManyFiles,
        upload_too_large::UploadTooLarge,
        upload_top_level_folder::UploadTopLevelFolder,
        upload_plugin_manifest::UploadPluginManifest,
        upload_skill_file_nested::UploadSkillFileNested,
        upload_nested_archive::UploadNestedArchive,
        upload_invalid_zip::UploadInvalidZip,
        archive_unsafe_path::ArchiveUnsafePath,
        manifest_invalid_json::ManifestInvalidJson,
        manifest_field_missing::ManifestFieldMissing,
        manifest_field_type::ManifestFieldType,
        manifest_unknown_field::ManifestUnknownField,
        plugin_name_format::PluginNameFormat,
        component_path_not_relative::ComponentPathNotRelative,
        component_path_outside::ComponentPathOutside,
        plugin_skill_too_deep::PluginSkillTooDeep,
        plugin_skill_alias_taken::PluginSkillAliasTaken,
        plugin_skill_name_clash::PluginSkillNameClash,
        marketplace_source_missing::MarketplaceSourceMissing,
        component_path_missing::ComponentPathMissing,
        marketplace_duplicate_plugin::MarketplaceDuplicatePlugin,
        marketplace_version_mismatch::MarketplaceVersionMismatch,
        package_manifest_missing::PackageManifestMissing,
        plugin_skill_frontmatter::PluginSkillFrontmatter,
        manifest_field_recommended::ManifestFieldRecommended,
        codex_skill_metadata::CodexSkillMetadata,
    }
}

/// Look a rule up by code (`SK201`) or name (`name-missing`).
pub fn find_rule(code_or_name: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|r| r.meta().code.eq_ignore_ascii_case(code_or_name) || r.meta().name == code_or_name)
}
