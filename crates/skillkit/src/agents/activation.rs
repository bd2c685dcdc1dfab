//! How a profile's skill tools name the skill a call activates, shared by the profiles (the
//! registry in `mod.rs` is above them, so what they share lives here).

use crate::prompt::Prompt;

/// The skill a tool call's string argument `key` names (activation by name).
pub(crate) fn skill_named_by(prompt: &Prompt, arguments: &serde_json::Value, key: &str) -> Option<String> {
    let name = arguments.get(key)?.as_str()?;
    prompt.skill_named(name.trim()).map(|s| s.name.clone())
}

/// The skill whose `SKILL.md` a tool call's string argument `key` is the path of (activation by
/// reading the file).
pub(crate) fn skill_file_in(prompt: &Prompt, arguments: &serde_json::Value, key: &str) -> Option<String> {
    let path = arguments.get(key)?.as_str()?;
    prompt.skill_at_path(path.trim()).map(|s| s.name.clone())
}

/// The activation of a profile whose skill tool `$tool` names the skill in its string argument
/// `$arg` (`$rule` says so in words): the tools offered are its prompt's, and a call of `$tool`
/// invokes the skill it names.
macro_rules! by_skill_tool {
    ($tool:expr, $arg:literal, $rule:literal) => {
        crate::agent::Activation {
            rule: $rule,
            tools: |p| p.tools.clone(),
            call: |p, name, args| {
                let skill = if name == $tool { crate::agents::activation::skill_named_by(p, args, $arg) } else { None };
                skill.map(crate::agent::SkillCall::invoke)
            },
        }
    };
}
pub(crate) use by_skill_tool;
