//! Variant ids: every id prints back to its canonical form, aliases resolve, bad ids say why.

use rules::{Variant, VariantError};

#[test]
fn ids_round_trip_to_their_canonical_form() {
    let cases = [
        ("mnk-3x3k3", "mnk-3x3k3"),
        ("tictactoe", "mnk-3x3k3"),
        ("gomoku", "mnk-15x15k5"),
        ("caro", "mnk-15x15k5-caro"),
        ("mnk-5x5k4", "mnk-5x5k4"),
        ("mnk-15x15k5-caro", "mnk-15x15k5-caro"),
        ("mnk-15x15k5-exact-center", "mnk-15x15k5-exact-center"),
        ("mnk-15x15k5-freestyle", "mnk-15x15k5"),
        ("mnk-4x7k4-center", "mnk-4x7k4-center"),
        ("MNK-3x3K3", "mnk-3x3k3"),
        ("oanquan", "oanquan"),
        ("oanquan-end-stop", "oanquan-stop-end"),
        ("oanquan-young5-mandarin5", "oanquan-mandarin5-young5"),
        ("oanquan-mandarin10-gap-borrow-young0", "oanquan"),
        (
            "oanquan-mandarin5-stop-young5-end",
            "oanquan-mandarin5-stop-young5-end",
        ),
    ];
    for (id, canonical) in cases {
        let variant: Variant = id.parse().unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(variant.to_string(), canonical, "{id}");
        let again: Variant = canonical.parse().unwrap();
        assert_eq!(again, variant);
    }
}

#[test]
fn bad_ids_say_what_is_wrong() {
    let cases: [(&str, &str); 16] = [
        ("chess", "unknown game"),
        ("", "unknown game"),
        ("mnk", "unknown game"),
        ("mnk-", "`mnk-MxNkK`"),
        ("mnk-3x3", "`mnk-MxNkK`"),
        ("mnk-3by3k3", "`mnk-MxNkK`"),
        ("mnk-0x3k3", "1 to 19 rows"),
        ("mnk-20x20k5", "1 to 19 rows"),
        ("mnk-3x30k3", "1 to 19 columns"),
        ("mnk-3x3k4", "k must be from 1 to 3"),
        ("mnk-3x3k0", "k must be from 1 to 3"),
        ("mnk-3x3k3-renju", "unknown suffix `-renju`"),
        ("mnk-3x3k3-center-caro", "out of order"),
        ("mnk-999x3k3", "far too large"),
        ("oanquan-young", "needs a number"),
        ("oanquan-stop-gap", "given twice"),
    ];
    for (id, needle) in cases {
        let error: VariantError = id.parse::<Variant>().unwrap_err();
        let message = error.to_string();
        assert!(message.contains(needle), "{id:?}: {message}");
    }
    let message = "oanquan-mandarin0"
        .parse::<Variant>()
        .unwrap_err()
        .to_string();
    assert!(message.contains("from 1 to 100"), "{message}");
    let message = "oanquan-x".parse::<Variant>().unwrap_err().to_string();
    assert!(message.contains("-mandarinN"), "{message}");
}
