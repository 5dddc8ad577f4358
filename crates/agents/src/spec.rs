//! Agent specs: `kind` or `kind:key=value,key=value`, the same text in experiment files and on
//! the command line (`mcts:iterations=10000,c=1.4`, `alphabeta:depth=6`).

use std::fmt;
use std::str::FromStr;

/// A parsed agent spec: a kind and its parameters, in the order given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    /// The agent kind, like `mcts`.
    pub kind: String,
    /// `key=value` parameters in the order given.
    pub params: Vec<(String, String)>,
}

/// Why an agent spec was refused. Every message lists what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecError {
    /// The text is not of the form `kind:key=value,...`.
    #[error("malformed agent spec `{spec}`: {reason}")]
    Malformed {
        /// The spec as given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// No agent has this kind.
    #[error("unknown agent kind `{kind}`; the kinds are: {known}")]
    UnknownKind {
        /// The kind as given.
        kind: String,
        /// The accepted kinds, comma-separated.
        known: String,
    },
    /// The kind exists but does not play this game.
    #[error("agent `{kind}` does not play {variant}; it plays {plays}")]
    Unsupported {
        /// The kind.
        kind: String,
        /// The variant id.
        variant: String,
        /// The games it plays.
        plays: String,
    },
    /// A parameter the kind does not take.
    #[error("agent `{kind}` has no parameter `{key}`; its parameters are: {known}")]
    UnknownParam {
        /// The kind.
        kind: String,
        /// The parameter as given.
        key: String,
        /// The accepted parameters, comma-separated.
        known: String,
    },
    /// A parameter value that does not parse or is out of range.
    #[error("agent `{kind}`: `{key}={value}` is invalid: {expected}")]
    BadValue {
        /// The kind.
        kind: String,
        /// The parameter.
        key: String,
        /// The value as given.
        value: String,
        /// What the parameter accepts.
        expected: String,
    },
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let malformed = |reason: &str| SpecError::Malformed {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        let (kind, rest) = match text.split_once(':') {
            Some((kind, rest)) => (kind.trim(), Some(rest)),
            None => (text, None),
        };
        if kind.is_empty() {
            return Err(malformed(
                "the kind is missing; a spec is `kind` or `kind:key=value,key=value`",
            ));
        }
        if !kind
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(malformed(
                "a kind is letters, digits and dashes; a spec is `kind` or `kind:key=value,key=value`",
            ));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            // `args` (an outside agent's command line) runs to the next key of the outside
            // kinds, commas included, so a spec can wrap another spec
            // (`engine:cmd=arena,args=engine --agent mcts:c=1,iterations=9`) and still stand
            // anywhere: `proc:args=agent.py,cmd=python3`.
            let starts_a_pair = |at: usize| {
                let before = rest[..at].trim_end();
                before.is_empty() || before.ends_with(',')
            };
            let (rest, args) = match rest
                .match_indices("args=")
                .map(|(at, _)| at)
                .find(|&at| starts_a_pair(at))
            {
                Some(at) => {
                    let value = &rest[at + "args=".len()..];
                    let end = args_end(value);
                    let after = value[end..].trim_start_matches(',');
                    (
                        format!("{}{}", &rest[..at], after),
                        Some(value[..end].trim()),
                    )
                }
                None => (rest.to_string(), None),
            };
            let pairs = rest
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|pair| {
                    pair.split_once('=').ok_or_else(|| {
                        malformed(&format!("`{pair}` is not of the form `key=value`"))
                    })
                })
                .chain(args.map(|a| Ok(("args", a))));
            for pair in pairs {
                let (key, value) = pair?;
                let (key, value) = (key.trim(), value.trim());
                if key.is_empty() {
                    return Err(malformed(&format!("`={value}` has no key")));
                }
                if params.iter().any(|(k, _)| k == key) {
                    return Err(malformed(&format!("parameter `{key}` is given twice")));
                }
                params.push((key.to_string(), value.to_string()));
            }
        }
        Ok(AgentSpec {
            kind: kind.to_string(),
            params,
        })
    }
}

/// The keys of the outside kinds (`proc`, `engine`) other than `args`: an `args` value runs up
/// to the first `,KEY=` of these outside single quotes (`protocol` documents the keys; a test
/// there holds this list to them).
pub const OUTSIDE_KEYS: &[&str] = &[
    "cmd",
    "timeout_ms",
    "margin_ms",
    "start_ms",
    "restart",
    "private",
    "log",
    "setup_ms",
    "max_memory_mb",
    "quiet_ms",
    "dir",
];

/// Where the value of `args=` ends in `value` (the text after `args=`): at the first `,KEY=`
/// of [`OUTSIDE_KEYS`] outside single quotes, or at the end.
fn args_end(value: &str) -> usize {
    let mut quoted = false;
    for (at, c) in value.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            ',' if !quoted => {
                let next = value[at + 1..].trim_start();
                if OUTSIDE_KEYS
                    .iter()
                    .any(|key| next.strip_prefix(key).is_some_and(|r| r.starts_with('=')))
                {
                    return at;
                }
            }
            _ => {}
        }
    }
    value.len()
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kind)?;
        for (i, (key, value)) in self.params.iter().enumerate() {
            write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Documentation of one parameter of an agent kind, for `arena list` and error messages.
#[derive(Clone, Copy, Debug)]
pub struct ParamDoc {
    /// The key.
    pub name: &'static str,
    /// The default value, as text.
    pub default: &'static str,
    /// What it does, in a line.
    pub doc: &'static str,
}

/// Reads the parameters of one spec against the kind's documented list: [`Params::new`] refuses
/// any key the kind does not document, and each typed getter ([`Params::u64`], [`Params::f64`],
/// [`Params::choice`], ...) checks its value and names what it accepts.
pub struct Params<'a> {
    kind: &'a str,
    docs: &'static [ParamDoc],
    params: Vec<(&'a str, &'a str)>,
}

impl<'a> Params<'a> {
    /// Starts reading `spec` for a kind whose parameters are `docs`.
    pub fn new(spec: &'a AgentSpec, docs: &'static [ParamDoc]) -> Result<Self, SpecError> {
        for (key, _) in &spec.params {
            if !docs.iter().any(|d| d.name == key) {
                return Err(SpecError::UnknownParam {
                    kind: spec.kind.clone(),
                    key: key.clone(),
                    known: known_params(docs),
                });
            }
        }
        Ok(Params {
            kind: &spec.kind,
            docs,
            params: spec
                .params
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect(),
        })
    }

    fn raw(&self, key: &str) -> Option<&'a str> {
        debug_assert!(
            self.docs.iter().any(|d| d.name == key),
            "parameter `{key}` of `{}` is not documented",
            self.kind
        );
        self.params.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn bad(&self, key: &str, value: &str, expected: &str) -> SpecError {
        bad_value(self.kind, key, value, expected)
    }

    /// An integer parameter in `range`, or `auto` (`None`), which is also the default.
    pub fn u64_or_auto(
        &self,
        key: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<Option<u64>, SpecError> {
        match self.raw(key) {
            None | Some("auto") => Ok(None),
            Some(text) => {
                let expected = format!(
                    "`auto` or an integer from {} to {}",
                    range.start(),
                    range.end()
                );
                parse_integer(text)
                    .filter(|value| range.contains(value))
                    .map(Some)
                    .ok_or_else(|| self.bad(key, text, &expected))
            }
        }
    }

    /// An integer parameter in `range`, or `default` when absent.
    pub fn u64(
        &self,
        key: &str,
        default: u64,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<u64, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(text) => {
                let expected = format!("an integer from {} to {}", range.start(), range.end());
                let value = parse_integer(text).ok_or_else(|| self.bad(key, text, &expected))?;
                if range.contains(&value) {
                    Ok(value)
                } else {
                    Err(self.bad(key, text, &expected))
                }
            }
        }
    }

    /// A real parameter in `range`, or `default` when absent.
    pub fn f64(
        &self,
        key: &str,
        default: f64,
        range: std::ops::RangeInclusive<f64>,
    ) -> Result<f64, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(text) => {
                let expected = format!("a number from {} to {}", range.start(), range.end());
                match text.parse::<f64>() {
                    Ok(value) if range.contains(&value) => Ok(value),
                    _ => Err(self.bad(key, text, &expected)),
                }
            }
        }
    }

    /// A parameter that takes one of `choices`, or `default` when absent.
    pub fn choice(
        &self,
        key: &str,
        default: &'static str,
        choices: &[&'static str],
    ) -> Result<&'static str, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(text) => choices
                .iter()
                .copied()
                .find(|c| *c == text)
                .ok_or_else(|| self.bad(key, text, &format!("one of {}", choices.join(", ")))),
        }
    }

    /// A free-text parameter, or `None` when absent.
    pub fn text(&self, key: &str) -> Option<&'a str> {
        self.raw(key)
    }

    /// A boolean parameter (`true`/`false`, `yes`/`no`, `1`/`0`), or `default` when absent.
    pub fn bool(&self, key: &str, default: bool) -> Result<bool, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some("true" | "yes" | "1" | "on") => Ok(true),
            Some("false" | "no" | "0" | "off") => Ok(false),
            Some(text) => Err(self.bad(key, text, "true or false")),
        }
    }
}

/// The error for a parameter value a kind does not accept; `expected` says what it accepts.
pub fn bad_value(
    kind: &str,
    key: &str,
    value: impl std::fmt::Display,
    expected: &str,
) -> SpecError {
    SpecError::BadValue {
        kind: kind.to_string(),
        key: key.to_string(),
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// The documented parameter names, comma-separated, or "none".
pub fn known_params(docs: &[ParamDoc]) -> String {
    if docs.is_empty() {
        "none".into()
    } else {
        docs.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
    }
}

/// Reads `1000`, `10k`, `2m` and `1_000` style integers.
fn parse_integer(text: &str) -> Option<u64> {
    let cleaned: String = text.chars().filter(|&c| c != '_').collect();
    let (digits, scale) = match cleaned.chars().last()? {
        'k' | 'K' => (&cleaned[..cleaned.len() - 1], 1_000),
        'm' | 'M' => (&cleaned[..cleaned.len() - 1], 1_000_000),
        _ => (cleaned.as_str(), 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips() {
        for text in ["random", "mcts:iterations=10000,c=1.4", "alphabeta:depth=6"] {
            let spec: AgentSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        let spec: AgentSpec = " mcts : iterations = 10 , c=2 ".parse().unwrap();
        assert_eq!(spec.to_string(), "mcts:iterations=10,c=2");
    }

    #[test]
    fn args_take_the_rest_of_the_spec() {
        let spec: AgentSpec =
            "engine:cmd=arena,timeout_ms=100,args=engine --agent mcts:c=1,iterations=9"
                .parse()
                .unwrap();
        assert_eq!(spec.params.len(), 3);
        assert_eq!(
            spec.params[2],
            ("args".into(), "engine --agent mcts:c=1,iterations=9".into())
        );
        assert_eq!(
            spec.to_string(),
            "engine:cmd=arena,timeout_ms=100,args=engine --agent mcts:c=1,iterations=9"
        );
        let spec: AgentSpec = "engine:args=a,b".parse().unwrap();
        assert_eq!(spec.params, vec![("args".into(), "a,b".into())]);
        // `args=` inside another value is not the args parameter.
        let spec: AgentSpec = "engine:cmd=xargs=1".parse().unwrap();
        assert_eq!(spec.params, vec![("cmd".into(), "xargs=1".into())]);
    }

    #[test]
    fn args_may_stand_anywhere_and_end_at_the_next_key_of_the_outside_kinds() {
        let spec: AgentSpec = "proc:args=mine/agent.py,cmd=python3".parse().unwrap();
        assert_eq!(
            spec.params,
            vec![
                ("cmd".into(), "python3".into()),
                ("args".into(), "mine/agent.py".into())
            ]
        );
        // A wrapped spec keeps its own keys; the outer ones end it.
        let spec: AgentSpec =
            "engine:args=engine --agent mcts:c=1,iterations=9,timeout_ms=100,cmd=arena"
                .parse()
                .unwrap();
        assert_eq!(
            spec.to_string(),
            "engine:timeout_ms=100,cmd=arena,args=engine --agent mcts:c=1,iterations=9"
        );
        // Quoted, an outer key stays in the arguments.
        let spec: AgentSpec = "proc:cmd=arena,args='serve-agent --agent proc:cmd=x,log=y'"
            .parse()
            .unwrap();
        assert_eq!(
            spec.params[1],
            (
                "args".into(),
                "'serve-agent --agent proc:cmd=x,log=y'".into()
            )
        );
    }

    #[test]
    fn malformed_specs_are_refused() {
        for text in [
            "",
            ":depth=3",
            "mcts:iterations",
            "mcts:=3",
            "mcts:c=1,c=2",
            "m cts",
        ] {
            assert!(
                matches!(text.parse::<AgentSpec>(), Err(SpecError::Malformed { .. })),
                "{text:?} was accepted"
            );
        }
    }

    #[test]
    fn integers_take_suffixes() {
        assert_eq!(parse_integer("10k"), Some(10_000));
        assert_eq!(parse_integer("1_000"), Some(1_000));
        assert_eq!(parse_integer("2M"), Some(2_000_000));
        assert_eq!(parse_integer("x"), None);
        assert_eq!(parse_integer("-1"), None);
    }
}
