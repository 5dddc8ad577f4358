//! What no name in a record may hold ([`hidden_in_name`]): the names of people
//! (`played::check_name`) and of an experiment's agents.

/// The first character of `name` that no name may hold, described (`U+202E (format
/// characters: ...)`): a control character (Unicode's category Cc: an escape sequence would reach
/// the terminal), a format character (Cf: U+202E turns the rest of a line round, U+200B and
/// U+FEFF are invisible), a line or paragraph separator (Zl, Zp), or a space other than the
/// ASCII one (Zs). Names of people and of an experiment's agents are checked with it.
pub fn hidden_in_name(name: &str) -> Option<String> {
    name.chars().find_map(|c| {
        let what = if c.is_control() {
            "control characters: tabs, newlines, escapes"
        } else if in_ranges(c, FORMAT) {
            "format characters: they reorder or hide text"
        } else if c == '\u{2028}' || c == '\u{2029}' {
            "line and paragraph separators"
        } else if c != ' ' && in_ranges(c, SPACES) {
            "spaces other than ` `"
        } else {
            return None;
        };
        Some(format!("U+{:04X} ({what})", u32::from(c)))
    })
}

fn in_ranges(c: char, ranges: &[(u32, u32)]) -> bool {
    let c = u32::from(c);
    ranges.iter().any(|&(low, high)| (low..=high).contains(&c))
}

/// Unicode's format characters (category Cf), as of Unicode 15.1.
const FORMAT: &[(u32, u32)] = &[
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
];

/// Unicode's space separators (category Zs), the ASCII space among them.
const SPACES: &[(u32, u32)] = &[
    (0x0020, 0x0020),
    (0x00A0, 0x00A0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
];
