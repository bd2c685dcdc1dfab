//! String rules that several agent profiles share because their programs share a language:
//! [`js`] (Claude Code, Gemini CLI) and [`python`] (DeepAgents, skills-ref).

pub mod js;
pub mod python;
