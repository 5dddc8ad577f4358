//! Move notation of every game family, and variant ids: any text is a move, a move list, or an
//! error; a move that parses formats back to text that parses to the same move. Every family
//! of the registry is fuzzed through its example id (`oware` among them), beside the fixed ids
//! below.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rules::{FAMILIES, Game, Variant};

const VARIANTS: &[&str] = &[
    "tictactoe",
    "mnk-4x7k4-exact-center",
    "mnk-15x15k5-caro",
    "mnk-19x19k5",
    "mnk-1x1k1",
    "oanquan",
    "oanquan-mandarin5-stop-young5-end",
    "connect4",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The whole text, and its first word, as a variant id.
    if let Ok(variant) = text.parse::<Variant>() {
        assert_eq!(variant.to_string().parse::<Variant>(), Ok(variant));
    }
    if let Some(word) = text.split_whitespace().next()
        && let Ok(variant) = word.parse::<Variant>()
    {
        check_variant(&variant, text);
    }
    let examples = FAMILIES.iter().map(|family| family.example);
    for id in VARIANTS.iter().copied().chain(examples) {
        let variant: Variant = id.parse().expect("a fixed variant id");
        check_variant(&variant, text);
    }
});

fn check_variant(variant: &Variant, text: &str) {
    rules::with_game!(variant, |start| check(start, text))
}

fn check<G: Game>(start: G, text: &str) {
    let _ = start.play_line(text);
    let mut position = start;
    for word in text.split_whitespace() {
        let Ok(mv) = position.parse_move(word) else {
            break;
        };
        let written = position.format_move(mv);
        assert_eq!(
            position.parse_move(&written),
            Ok(mv),
            "`{word}` -> `{written}`"
        );
        position.play_unchecked(mv);
        if position.is_over() {
            break;
        }
    }
}
