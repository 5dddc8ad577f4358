//! Agent families: the same agent kind and settings at several search budgets.
//!
//! A spec reads `kind:key=value,key=value` (`mcts:iterations=1000,c=1.4`) or just `kind`.
//! Agents belong to one family when their kind and every parameter except one budget
//! parameter agree; the family is charted when it has at least two different budgets.

use std::collections::BTreeMap;

/// Parameters that measure how much an agent may compute.
const BUDGET_KEYS: [&str; 6] = ["iterations", "rollouts", "depth", "nodes", "time_ms", "ms"];

/// Agents sharing a kind and settings, at different values of one budget parameter.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Family {
    /// Kind and the fixed settings, e.g. `mcts c=1.4`.
    pub label: String,
    /// The parameter that varies, e.g. `iterations`.
    pub budget: String,
    /// `(budget value, agent)`, smallest budget first.
    pub members: Vec<(f64, String)>,
}

impl Family {
    /// The legend text: `mcts c=1.4 (iterations)`.
    pub fn legend(&self) -> String {
        format!("{} ({})", self.label, self.budget)
    }
}

/// Families with at least two budgets among `agents` (name and spec text).
pub(crate) fn families<'a>(agents: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<Family> {
    let mut grouped: BTreeMap<(String, String), Vec<(f64, String)>> = BTreeMap::new();
    for (agent, spec) in agents {
        let (kind, params) = match spec.split_once(':') {
            Some((kind, params)) => (kind.trim(), params),
            None => (spec.trim(), ""),
        };
        let params: BTreeMap<&str, &str> = params
            .split(',')
            .filter_map(|pair| pair.split_once('='))
            .map(|(key, value)| (key.trim(), value.trim()))
            .collect();
        for budget in BUDGET_KEYS {
            let Some(value) = params.get(budget).and_then(|v| v.parse::<f64>().ok()) else {
                continue;
            };
            // A log axis cannot show 0 or a negative budget.
            if !(value.is_finite() && value > 0.0) {
                continue;
            }
            let fixed: Vec<String> = params
                .iter()
                .filter(|(key, _)| **key != budget)
                .map(|(key, value)| format!("{key}={value}"))
                .collect();
            let label = if fixed.is_empty() {
                kind.to_owned()
            } else {
                format!("{kind} {}", fixed.join(","))
            };
            grouped
                .entry((label, budget.to_owned()))
                .or_default()
                .push((value, agent.to_owned()));
        }
    }
    grouped
        .into_iter()
        .filter_map(|((label, budget), mut members)| {
            members.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
            let distinct = members.windows(2).filter(|w| w[0].0 != w[1].0).count() + 1;
            (distinct >= 2).then_some(Family {
                label,
                budget,
                members,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_differing_in_one_budget_form_a_family() {
        let agents = [
            ("mcts-100", "mcts:iterations=100,c=1.4"),
            ("mcts-1000", "mcts:iterations=1000,c=1.4"),
            ("mcts-wide", "mcts:iterations=1000,c=2"),
            ("ab2", "alphabeta:depth=2"),
            ("ab4", "alphabeta:depth=4"),
            ("random", "random"),
        ];
        let families = families(agents.iter().copied());
        assert_eq!(families.len(), 2);
        assert_eq!(families[0].legend(), "alphabeta (depth)");
        assert_eq!(families[0].members[1], (4.0, "ab4".to_owned()));
        assert_eq!(families[1].legend(), "mcts c=1.4 (iterations)");
        assert_eq!(families[1].members.len(), 2);
    }

    #[test]
    fn one_budget_is_no_family() {
        let agents = [("a", "mcts:iterations=100"), ("b", "mcts:iterations=100")];
        assert!(families(agents.iter().copied()).is_empty());
    }
}
