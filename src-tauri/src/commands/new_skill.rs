//! New skills: checking and creating a skill folder inside an opened source.

use super::*;

#[derive(Clone, Debug, Deserialize, TS)]
pub struct NewSkill {
    /// One of the opened library's sources.
    pub source: String,
    pub name: String,
    pub description: String,
    /// Resource folders to create: `scripts`, `references`, `assets`.
    pub folders: Vec<String>,
}

/// A check's finding about the new skill, with the profiles that report it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct NewSkillProblem {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    /// The frontmatter field it is about (`name`, `description`), when it is one of them.
    pub field: Option<String>,
    pub agents: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct NewSkillCheck {
    /// Errors and warnings under every profile; empty when the skill can be created.
    pub problems: Vec<NewSkillProblem>,
    /// The skill file it would create.
    pub path: String,
    /// A file or folder is already there.
    pub exists: bool,
}

impl AppState {
    /// Where a new skill would go: `source/name`, when `source` is an opened source.
    pub(super) fn new_skill_dir(&self, args: &NewSkill) -> Result<PathBuf, AppError> {
        let source = resolve(std::slice::from_ref(&args.source)).remove(0);
        if !self.kept.sources().contains(&source) || !source.is_dir() {
            return Err(AppError::new(
                ErrorCode::InvalidNewSkill,
                format!("{} is not a folder of the opened library", args.source),
            ));
        }
        let plain = !args.name.is_empty()
            && !matches!(args.name.as_str(), "." | "..")
            && !args.name.contains(['/', '\\', '\0']);
        Ok(if plain { source.join(&args.name) } else { source.join("_") })
    }

    /// What every profile's checks say about the proposed skill.
    pub fn check_new_skill(&self, args: NewSkill) -> Result<NewSkillCheck, AppError> {
        let dir = self.new_skill_dir(&args)?;
        let text = skillkit::scaffold::skill_md(&args.name, &args.description, &[]);
        let skill = skillkit::Skill::parse(&dir, "SKILL.md", text.clone());
        let field_of = |span: skillkit::Span| {
            skill
                .frontmatter
                .fields
                .iter()
                .find(|f| f.key_span.start <= span.start && span.end <= f.value.span.end.max(f.key_span.end))
                .map(|f| f.key.clone())
        };
        let problems = skillkit::scaffold::check(&args.name, &args.description)
            .into_iter()
            .map(|(d, agents)| NewSkillProblem {
                code: d.code.to_string(),
                severity: d.severity,
                message: d.message.clone(),
                field: field_of(d.span),
                agents: agents.into_iter().map(str::to_string).collect(),
            })
            .collect();
        Ok(NewSkillCheck { problems, path: path_string(&dir.join("SKILL.md")), exists: dir.exists() })
    }

    /// Creates the skill folder with its `SKILL.md` (the engine's scaffold) and the chosen resource
    /// folders, inside an opened source, only when every profile's checks pass.
    pub fn create_skill(&self, args: NewSkill) -> Result<FileText, AppError> {
        let check = self.check_new_skill(args.clone())?;
        if !check.problems.is_empty() {
            let mut err = AppError::new(
                ErrorCode::InvalidNewSkill,
                format!("`{}` would not pass every profile's checks", args.name),
            );
            err.details = check
                .problems
                .iter()
                .map(|p| ErrorDetail { message: format!("{} {}", p.code, p.message), line: 0, column: 0 })
                .collect();
            return Err(err);
        }
        let unknown: Vec<&String> =
            args.folders.iter().filter(|f| !skillkit::scaffold::FOLDERS.contains(&f.as_str())).collect();
        if !unknown.is_empty() {
            return Err(AppError::new(ErrorCode::InvalidNewSkill, format!("unknown resource folders: {unknown:?}")));
        }
        let dir = self.new_skill_dir(&args)?;
        std::fs::create_dir(&dir).map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                AppError::new(ErrorCode::InvalidNewSkill, format!("{} already exists", dir.display()))
            }
            _ => AppError::io("cannot create", &dir, &e),
        })?;
        for f in &args.folders {
            std::fs::create_dir(dir.join(f)).map_err(|e| AppError::io("cannot create", &dir.join(f), &e))?;
        }
        let folders: Vec<&str> = args.folders.iter().map(String::as_str).collect();
        let text = skillkit::scaffold::skill_md(&args.name, &args.description, &folders);
        let path = dir.join("SKILL.md");
        let version = self.save_scoped(&path, &text, Some(None))?;
        Ok(FileText { path: path_string(&path), text, version })
    }
}
