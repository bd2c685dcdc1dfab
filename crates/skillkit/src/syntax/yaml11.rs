//! How different loaders type a plain (unquoted) YAML scalar. PyYAML (DeepAgents,
//! quick_validate.py) follows YAML 1.1: `no` is false, `1_000` an int, `2024-01-31` a date, `1:30`
//! sexagesimal. YAML 1.2 core-schema readers (Claude Code, Codex, Gemini CLI, saphyr) type fewer
//! things. strictyaml (skills-ref) reads every scalar as a string.

/// The type a loader gives a plain scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typed {
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
    Str,
}

impl Typed {
    pub fn name(self) -> &'static str {
        match self {
            Typed::Null => "null",
            Typed::Bool => "boolean",
            Typed::Int => "integer",
            Typed::Float => "number",
            Typed::Timestamp => "date",
            Typed::Str => "string",
        }
    }
}

fn all(s: &str, f: impl Fn(u8) -> bool) -> bool {
    !s.is_empty() && s.bytes().all(f)
}
fn digit_(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}
fn sign(s: &str) -> &str {
    s.strip_prefix(['-', '+']).unwrap_or(s)
}

/// PyYAML's implicit resolvers (resolver.py), in its order.
pub fn resolve_yaml11(s: &str) -> Typed {
    const BOOLS: [&str; 18] = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
        "off", "Off", "OFF",
    ];
    if BOOLS.contains(&s) {
        return Typed::Bool;
    }
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Typed::Null;
    }
    if is_int11(s) {
        return Typed::Int;
    }
    if is_float11(s) {
        return Typed::Float;
    }
    if is_timestamp11(s) {
        return Typed::Timestamp;
    }
    Typed::Str
}

fn is_sexagesimal_tail(s: &str) -> bool {
    // (?::[0-5]?[0-9])+
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(r) = rest.strip_prefix(':') else {
            return false;
        };
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 || n > 2 || (n == 2 && r.as_bytes()[0] > b'5') {
            return false;
        }
        rest = &r[n..];
    }
    true
}

fn is_int11(s: &str) -> bool {
    let u = sign(s);
    if let Some(b) = u.strip_prefix("0b") {
        return all(b, |c| c == b'0' || c == b'1' || c == b'_');
    }
    if let Some(x) = u.strip_prefix("0x") {
        return all(x, |c| c.is_ascii_hexdigit() || c == b'_');
    }
    if let Some(o) = u.strip_prefix('0') {
        return o.is_empty() || all(o, |c| (b'0'..=b'7').contains(&c) || c == b'_');
    }
    if u.starts_with(|c: char| c.is_ascii_digit()) {
        if all(u, digit_) {
            return true;
        }
        // sexagesimal: [1-9][0-9_]*(:[0-5]?[0-9])+
        if let Some(i) = u.find(':') {
            return all(&u[..i], digit_) && is_sexagesimal_tail(&u[i..]);
        }
    }
    false
}

fn is_float11(s: &str) -> bool {
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let u = sign(s);
    if matches!(u, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let exp_ok = |e: &str| {
        e.is_empty()
            || e.strip_prefix(['e', 'E'])
                .and_then(|e| e.strip_prefix(['-', '+']))
                .is_some_and(|d| all(d, |c| c.is_ascii_digit()))
    };
    // [0-9][0-9_]*\.[0-9_]*(exp)?  and  \.[0-9][0-9_]*(exp)? (the latter without sign)
    if let Some(dot) = u.find('.') {
        let (int, rest) = (&u[..dot], &u[dot + 1..]);
        let frac_len = rest.bytes().take_while(|&c| digit_(c)).count();
        let (frac, exp) = rest.split_at(frac_len);
        if !int.is_empty() {
            if int.as_bytes()[0].is_ascii_digit() && all(int, digit_) && exp_ok(exp) {
                return true;
            }
            // sexagesimal float: [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
            if let Some(c) = int.find(':') {
                return all(&int[..c], digit_) && is_sexagesimal_tail(&int[c..]) && exp.is_empty();
            }
            return false;
        }
        return u.len() == s.len() && frac.as_bytes().first().is_some_and(u8::is_ascii_digit) && exp_ok(exp);
    }
    false
}

fn is_timestamp11(s: &str) -> bool {
    let b = s.as_bytes();
    let d = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    if b.len() < 8 || !(d(0) && d(1) && d(2) && d(3) && b[4] == b'-') {
        return false;
    }
    // Date only: YYYY-MM-DD exactly.
    if b.len() == 10 && d(5) && d(6) && b[7] == b'-' && d(8) && d(9) {
        return true;
    }
    // Date and time: YYYY-M(M)-D(D)(T|t|spaces)H(H):MM:SS...
    let mut i = 5;
    let digits = |i: &mut usize, max: usize| {
        let st = *i;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - st < max {
            *i += 1;
        }
        *i - st
    };
    if digits(&mut i, 2) == 0 || b.get(i) != Some(&b'-') {
        return false;
    }
    i += 1;
    if digits(&mut i, 2) == 0 {
        return false;
    }
    match b.get(i) {
        Some(b'T' | b't') => i += 1,
        Some(b' ' | b'\t') => {
            while matches!(b.get(i), Some(b' ' | b'\t')) {
                i += 1
            }
        }
        _ => return false,
    }
    digits(&mut i, 2) > 0
        && b.get(i) == Some(&b':')
        && {
            i += 1;
            digits(&mut i, 2) == 2
        }
        && b.get(i) == Some(&b':')
        && {
            i += 1;
            digits(&mut i, 2) == 2
        }
}

/// The YAML 1.2 core schema.
pub fn resolve_core(s: &str) -> Typed {
    if matches!(s, "" | "~" | "null" | "Null" | "NULL") {
        return Typed::Null;
    }
    if matches!(s, "true" | "True" | "TRUE" | "false" | "False" | "FALSE") {
        return Typed::Bool;
    }
    let u = sign(s);
    if all(u, |c| c.is_ascii_digit())
        || s.strip_prefix("0o").is_some_and(|o| all(o, |c| (b'0'..=b'7').contains(&c)))
        || s.strip_prefix("0x").is_some_and(|x| all(x, |c| c.is_ascii_hexdigit()))
    {
        return Typed::Int;
    }
    if matches!(u, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return Typed::Float;
    }
    // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
    let (mant, exp) = match u.find(['e', 'E']) {
        Some(i) => (&u[..i], Some(&u[i + 1..])),
        None => (u, None),
    };
    let mant_ok = match mant.find('.') {
        Some(0) => all(&mant[1..], |c| c.is_ascii_digit()),
        Some(i) => all(&mant[..i], |c| c.is_ascii_digit()) && mant[i + 1..].bytes().all(|c| c.is_ascii_digit()),
        None => false,
    } || (exp.is_some() && all(mant, |c| c.is_ascii_digit()));
    let exp_ok = exp.is_none_or(|e| all(sign(e), |c| c.is_ascii_digit()));
    if mant_ok && exp_ok {
        return Typed::Float;
    }
    Typed::Str
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pyyaml_types_yaml11_scalars() {
        for (s, t) in [
            ("no", Typed::Bool),
            ("On", Typed::Bool),
            ("y", Typed::Str),
            ("1.0", Typed::Float),
            ("1e3", Typed::Str),
            ("1.0e+3", Typed::Float),
            ("1_000", Typed::Int),
            ("0777", Typed::Int),
            ("0x1F", Typed::Int),
            ("1:30", Typed::Int),
            ("1:30.5", Typed::Float),
            ("2024-01-31", Typed::Timestamp),
            ("2024-1-3 10:00:00", Typed::Timestamp),
            ("2024-1-3", Typed::Str),
            ("~", Typed::Null),
            (".inf", Typed::Float),
            ("my-skill", Typed::Str),
            ("Apache-2.0", Typed::Str),
        ] {
            assert_eq!(resolve_yaml11(s), t, "{s}");
        }
    }

    #[test]
    fn core_schema_types_fewer_scalars() {
        for (s, t) in [
            ("no", Typed::Str),
            ("true", Typed::Bool),
            ("1.0", Typed::Float),
            ("1e3", Typed::Float),
            ("1_000", Typed::Str),
            ("2024-01-31", Typed::Str),
            ("123", Typed::Int),
            ("0o17", Typed::Int),
            ("", Typed::Null),
            ("1.2.3", Typed::Str),
        ] {
            assert_eq!(resolve_core(s), t, "{s}");
        }
    }
}
