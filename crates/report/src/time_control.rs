//! The texts schema 3's `time_control` column may hold: a time control exactly as the arena
//! writes it (`agents::clock::TimeControl`'s `Display`: `tc=40/60+0.6`, `st=1`,
//! `tc=180 st=30`), the rule `arena verify` applies to a play record's rows.
//!
//! The report depends on no crate of the arena's (ARCHITECTURE.md), so the written form is
//! recognised here rather than parsed by `agents::clock`; the `cli` test
//! `report_reads_exactly_the_time_controls_the_arena_writes` holds the two to one rule.

/// The longest time a control may give, in milliseconds: a day, as `agents::clock` allows.
const MAX_MS: u64 = 86_400_000;

/// The most moves in a period of a game clock (`40/` of `tc=40/60`), as `agents::clock` allows.
const MAX_MOVES: u64 = 10_000;

/// What the column must hold, for the error message.
pub(crate) const EXPECTED: &str = "expected a time control as the arena writes it: \
     `tc=[moves/]seconds[+increment]`, `st=seconds` or both, like `tc=40/60+0.6`, `st=1`, \
     `tc=180 st=30` (seconds more than 0 and at most a day, without trailing zeros), or nothing \
     for no time limit";

/// Whether `text` is a time control as the arena writes it.
pub(crate) fn is_written(text: &str) -> bool {
    let parts: Vec<&str> = text.split(' ').collect();
    match parts.as_slice() {
        [clock, per_move] => match (clock.strip_prefix("tc="), per_move.strip_prefix("st=")) {
            (Some(clock), Some(per_move)) => {
                is_written_clock(clock) && positive_seconds(per_move).is_some()
            }
            _ => false,
        },
        [one] => match (one.strip_prefix("tc="), one.strip_prefix("st=")) {
            (Some(clock), _) => is_written_clock(clock),
            (_, Some(per_move)) => positive_seconds(per_move).is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// `[moves/]time[+increment]`: an increment of 0 is not written.
fn is_written_clock(text: &str) -> bool {
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => (Some(moves), rest),
        None => (None, text),
    };
    let moves_ok = moves.is_none_or(|m| whole(m).is_some_and(|m| (1..=MAX_MOVES).contains(&m)));
    let (time, increment) = match rest.split_once('+') {
        Some((time, increment)) => (time, Some(increment)),
        None => (rest, None),
    };
    moves_ok
        && positive_seconds(time).is_some()
        && increment.is_none_or(|i| positive_seconds(i).is_some())
}

/// Seconds as the arena writes them, the shortest decimal that says them (`60`, `0.6`,
/// `1.25`), more than 0 and at most a day: the milliseconds.
fn positive_seconds(text: &str) -> Option<u64> {
    let (whole_part, fraction) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    let seconds = whole(whole_part)?;
    let thousandths = match fraction {
        None => 0,
        Some(f)
            if (1..=3).contains(&f.len())
                && !f.ends_with('0')
                && f.bytes().all(|b| b.is_ascii_digit()) =>
        {
            f.parse::<u64>().ok()? * 10u64.pow(3 - f.len() as u32)
        }
        Some(_) => return None,
    };
    let ms = seconds.checked_mul(1000)?.checked_add(thousandths)?;
    (1..=MAX_MS).contains(&ms).then_some(ms)
}

/// A whole number as the arena writes it: digits, no sign, no leading zero.
fn whole(text: &str) -> Option<u64> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let leading_zero = text.len() > 1 && text.starts_with('0');
    if digits && !leading_zero {
        text.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_form_of_each_kind_of_time_control() {
        for text in [
            "tc=60",
            "tc=40/60+0.6",
            "tc=0.5",
            "tc=10000/86400+86400",
            "st=1",
            "st=0.001",
            "st=1.25",
            "tc=180 st=30",
            "tc=40/60+0.6 st=0.1",
        ] {
            assert!(is_written(text), "{text}");
        }
        for text in [
            "",
            "garbage here",
            "inf",
            "tc=inf",
            "tc=60 ",
            " tc=60",
            "tc=60  st=1",
            "st=1 tc=60",
            "tc=60 tc=60",
            "tc=60 st=1 st=1",
            "tc=",
            "tc=0",
            "tc=60.0",
            "tc=60.50",
            "tc=060",
            "tc=1:30",
            "tc=+1",
            "tc=60+0",
            "tc=60+",
            "tc=0/60",
            "tc=10001/60",
            "tc=/60",
            "tc=86400.001",
            "tc=0.0001",
            "tc=-5",
            "tc=NaN",
            "st=inf",
            "st=0",
            "st=1e3",
            "st=.5",
            "st=5.",
            "st=99999999999999999999",
            "TC=60",
        ] {
            assert!(!is_written(text), "{text:?}");
        }
    }
}
