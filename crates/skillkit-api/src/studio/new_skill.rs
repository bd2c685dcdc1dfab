//! New skills: checking and creating a skill folder inside an opened source.

use crate::error::ErrorDetail;
use crate::prelude::*;
use crate::studio::source_files::FileText;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NewSkill {
    /// One of the opened library's sources.
    pub source: String,
    pub name: String,
    pub description: String,
    /// Resource folders to create: `scripts`, `references`, `assets`.
    pub folders: Vec<String>,
}

pub use skillkit::scaffold::Problem as NewSkillProblem;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NewSkillCheck {
    /// Errors and warnings under every profile; empty when the skill can be created.
    pub problems: Vec<NewSkillProblem>,
    /// The skill file it would create.
    pub path: String,
    /// A file or folder is already there.
    pub exists: bool,
    /// When the name has a problem: a name close to it that every profile accepts (the engine's
    /// suggestion, offered as "Use my-skill").
    pub suggestion: Option<String>,
}

impl Studio {
    /// The opened source a new skill goes in.
    fn new_skill_source(&self, args: &NewSkill) -> Result<PathBuf, AppError> {
        let source = crate::resolve::real_paths(std::slice::from_ref(&args.source)).remove(0);
        if !self.library.sources().contains(&source) || !source.is_dir() {
            return Err(AppError::new(
                ErrorCode::InvalidNewSkill,
                format!("{} is not a folder of the opened library", args.source),
            ));
        }
        Ok(source)
    }

    /// What every profile's checks say about the proposed skill.
    pub fn check_new_skill(&self, args: NewSkill) -> Result<NewSkillCheck, AppError> {
        let dir = skillkit::scaffold::folder(&self.new_skill_source(&args)?, &args.name);
        let problems = skillkit::scaffold::problems(&args.name, &args.description);
        let suggestion = problems
            .iter()
            .any(|p| p.field.as_deref() == Some("name"))
            .then(|| skillkit::scaffold::suggest_name(&args.name))
            .flatten();
        Ok(NewSkillCheck { problems, path: path_string(&dir.join("SKILL.md")), exists: dir.exists(), suggestion })
    }

    /// Creates the skill folder with its `SKILL.md` and the chosen resource folders (the engine's
    /// scaffold), inside an opened source, only when every profile's checks pass.
    pub fn create_skill(&self, args: NewSkill) -> Result<FileText, AppError> {
        use skillkit::scaffold::CreateError;
        let source = self.new_skill_source(&args)?;
        let scope = self.scope();
        let _one_at_a_time = self.saving.lock().unwrap_or_else(|e| e.into_inner());
        let created = skillkit::scaffold::create(scope.engine(), &source, &args.name, &args.description, &args.folders)
            .map_err(|e| match e {
                CreateError::Save(e) => AppError::from(e),
                CreateError::Problems { ref problems, .. } => AppError {
                    details: problems
                        .iter()
                        .map(|p| ErrorDetail { message: format!("{} {}", p.code, p.message), line: 0, column: 0 })
                        .collect(),
                    ..AppError::new(ErrorCode::InvalidNewSkill, e.to_string())
                },
                CreateError::Io { .. } => AppError::new(ErrorCode::Io, e.to_string()),
                _ => AppError::new(ErrorCode::InvalidNewSkill, e.to_string()),
            })?;
        Ok(FileText { path: path_string(&created.path), text: created.text, version: created.version })
    }
}
