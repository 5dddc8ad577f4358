//! Every error case of the experiment file names the file, the key (with its line and column)
//! and what is expected.

use arena::Experiment;

const GOOD: &str = r#"name = "good"
seed = 1
games_per_pair = 2
variants = ["mnk-3x3k3", "oanquan"]

[[agents]]
name = "a"
spec = "random"

[[agents]]
name = "b"
spec = "fault:after=100"
"#;

fn error(text: &str) -> String {
    Experiment::from_toml(text, "exp.toml")
        .expect_err("the experiment should be refused")
        .to_string()
}

fn assert_mentions(message: &str, needles: &[&str]) {
    for needle in needles {
        assert!(message.contains(needle), "`{needle}` not in: {message}");
    }
}

#[test]
fn the_good_experiment_parses() {
    let exp = Experiment::from_toml(GOOD, "exp.toml").unwrap();
    assert_eq!(exp.name, "good");
    assert_eq!(exp.agents.len(), 2);
    assert_eq!(exp.threads, 0);
}

#[test]
fn an_unknown_key_is_named_with_its_line() {
    let text = GOOD.replace("seed = 1", "seed = 1\ngames_per_pairs = 3");
    assert_mentions(
        &error(&text),
        &["exp.toml:3:1", "games_per_pairs", "games_per_pair"],
    );
    let text = GOOD.replace("spec = \"random\"", "spec = \"random\"\ncolour = \"red\"");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:9:1",
            "key `colour`",
            "expected one of `name`, `spec`, `variants`",
        ],
    );
}

#[test]
fn a_missing_key_is_named() {
    let text = GOOD.replace("seed = 1\n", "");
    assert_mentions(&error(&text), &["exp.toml", "seed"]);
    let text = GOOD.replace("spec = \"random\"\n", "");
    assert_mentions(&error(&text), &["exp.toml", "spec"]);
}

#[test]
fn a_wrong_type_is_named_with_what_is_expected() {
    let text = GOOD.replace("games_per_pair = 2", "games_per_pair = \"two\"");
    assert_mentions(
        &error(&text),
        &["exp.toml:3", "key `games_per_pair`", "integer"],
    );
    let text = GOOD.replace(
        "variants = [\"mnk-3x3k3\", \"oanquan\"]",
        "variants = \"oanquan\"",
    );
    assert_mentions(&error(&text), &["exp.toml:4", "sequence"]);
    let text = GOOD.replace("seed = 1", "seed = -1");
    assert_mentions(&error(&text), &["exp.toml:2", "key `seed`", "integer"]);
}

#[test]
fn duplicate_agent_names_are_refused() {
    let text = GOOD.replace("name = \"b\"", "name = \"a\"");
    assert_mentions(
        &error(&text),
        &["exp.toml:11:8", "agents[1].name", "unique"],
    );
}

#[test]
fn an_unknown_variant_is_named() {
    let text = GOOD.replace("\"oanquan\"]", "\"chess\"]");
    assert_mentions(
        &error(&text),
        &["exp.toml:4", "variants[1]", "unknown game"],
    );
    let text = GOOD.replace("\"oanquan\"]", "\"mnk-3x3k9\"]");
    assert_mentions(&error(&text), &["variants[1]", "k must be from 1 to 3"]);
    let text = GOOD.replace("\"oanquan\"]", "\"tictactoe\"]");
    assert_mentions(&error(&text), &["variants[1]", "listed twice"]);
}

#[test]
fn an_unknown_agent_kind_or_parameter_is_named() {
    let text = GOOD.replace("spec = \"random\"", "spec = \"alphabet\"");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:8:8",
            "agents[0].spec",
            "unknown agent kind",
            "random",
        ],
    );
    let text = GOOD.replace("fault:after=100", "fault:afters=100");
    assert_mentions(
        &error(&text),
        &["agents[1].spec", "no parameter `afters`", "mode, after, ms"],
    );
    let text = GOOD.replace("fault:after=100", "fault:after=lots");
    assert_mentions(
        &error(&text),
        &["agents[1].spec", "`after=lots` is invalid", "integer"],
    );
    let text = GOOD.replace("fault:after=100", "fault:after");
    assert_mentions(&error(&text), &["agents[1].spec", "key=value"]);
}

#[test]
fn a_restriction_to_a_variant_not_in_the_list_is_refused() {
    let text = GOOD.replace(
        "spec = \"random\"",
        "spec = \"random\"\nvariants = [\"mnk-5x5k4\"]",
    );
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:9",
            "agents[0].variants[0]",
            "not in the experiment's `variants` list",
        ],
    );
    let text = GOOD.replace(
        "spec = \"random\"",
        "spec = \"random\"\nvariants = [\"mnk-3x3\"]",
    );
    assert_mentions(&error(&text), &["agents[0].variants[0]", "mnk-MxNkK"]);
}

#[test]
fn an_agent_restricted_to_a_game_it_does_not_play_is_refused() {
    let text = GOOD.replace(
        "spec = \"random\"",
        "spec = \"greedy\"\nvariants = [\"mnk-3x3k3\"]",
    );
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:9",
            "agents[0].variants[0]",
            "does not play `mnk-3x3k3`",
            "O An Quan only",
        ],
    );
    // An agent whose kind plays none of the variants is refused too.
    let text = GOOD
        .replace("\"mnk-3x3k3\", \"oanquan\"", "\"mnk-3x3k3\"")
        .replace("spec = \"random\"", "spec = \"greedy2\"");
    assert_mentions(
        &error(&text),
        &["agents[0].spec", "plays none of the experiment's variants"],
    );
    // Unrestricted, it simply sits out the games it does not play (here `b` and `c` play
    // tic-tac-toe without it: a variant nobody could play is refused, see below).
    let text = format!(
        "{}\n[[agents]]\nname = \"c\"\nspec = \"random\"\n",
        GOOD.replace("spec = \"random\"", "spec = \"greedy\"")
    );
    let exp = Experiment::from_toml(&text, "exp.toml").unwrap();
    // One pair on tic-tac-toe, three on O An Quan, two games each.
    assert_eq!(arena::Schedule::new(&exp).len(), 2 + 3 * 2);
}

#[test]
fn other_invalid_values_are_named() {
    // Zero and negative counts get one wording, the parser's type errors the same words.
    for (value, found) in [("0", "found 0"), ("-4", "found -4"), ("2.5", "float")] {
        let text = GOOD.replace("games_per_pair = 2", &format!("games_per_pair = {value}"));
        assert_mentions(
            &error(&text),
            &[
                "exp.toml:3:18",
                "key `games_per_pair`",
                "expected an integer number of games, 1 or more",
                found,
            ],
        );
    }
    // More than 2^32 games per pair is fine (the schedule is generated game by game); more
    // than 2^63 games in all is not.
    let big = GOOD.replace("games_per_pair = 2", "games_per_pair = 4294967296");
    let exp = Experiment::from_toml(&big, "exp.toml").unwrap();
    assert_eq!(exp.games_per_pair, 4_294_967_296);
    assert_eq!(arena::Schedule::new(&exp).len(), 4_294_967_296 * 2);
    let huge = GOOD.replace("games_per_pair = 2", "games_per_pair = 9223372036854775807");
    assert_mentions(
        &error(&huge),
        &[
            "games_per_pair",
            "make more than 2^63 games; give at most 4611686018427387903",
        ],
    );
    let text = GOOD.replace("name = \"good\"", "name = \"../up\"");
    assert_mentions(&error(&text), &["exp.toml:1", "key `name`"]);
    let text = GOOD.replace("variants = [\"mnk-3x3k3\", \"oanquan\"]", "variants = []");
    assert_mentions(&error(&text), &["key `variants`", "at least one"]);
    let one_agent = GOOD
        .split("[[agents]]")
        .take(2)
        .collect::<Vec<_>>()
        .join("[[agents]]");
    assert_mentions(&error(&one_agent), &["key `agents`", "at least two agents"]);
    let text = GOOD.replace("seed = 1", "seed = 1\nseed = 2");
    assert_mentions(&error(&text), &["exp.toml:3"]);
    assert_mentions(&error("this is not toml"), &["exp.toml:1"]);
}

#[test]
fn a_missing_file_is_named() {
    let error = Experiment::from_file("no/such/experiment.toml".as_ref())
        .unwrap_err()
        .to_string();
    assert_mentions(
        &error,
        &["no/such/experiment.toml", "read the experiment file"],
    );
}

#[test]
fn one_bracket_for_agents_is_named_as_such() {
    let text = GOOD
        .replace("[[agents]]\nname = \"b\"\nspec = \"fault:after=100\"\n", "")
        .replace("[[agents]]", "[agents]");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml",
            "written `[[agents]]` (two brackets), one per agent",
        ],
    );
    assert!(
        !error(&text).contains("invalid type: map"),
        "{}",
        error(&text)
    );
}

#[test]
fn a_bare_word_for_a_value_says_how_values_are_written() {
    let text = GOOD.replace("games_per_pair = 2", "games_per_pair = twenty");
    let message = error(&text);
    assert_mentions(
        &message,
        &[
            "exp.toml:3",
            "`twenty` is not a value: write a number in digits (`games_per_pair = 20`)",
        ],
    );
    assert!(!message.contains("boolean"), "{message}");
}

#[test]
fn a_variant_no_two_agents_play_is_refused() {
    // `easy` plays m,n,k games only: O An Quan would be listed and never played.
    let text = GOOD
        .replace("spec = \"random\"", "spec = \"easy\"")
        .replace("spec = \"fault:after=100\"", "spec = \"easy:mistake=0\"");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:4",
            "variants[1]",
            "`oanquan` would have no games: a game seats 2 agents and none of the experiment's \
             agents plays it",
        ],
    );
    let text = GOOD.replace("spec = \"random\"", "spec = \"easy\"");
    assert_mentions(&error(&text), &["only `b` plays it"]);
}

#[test]
fn a_variant_with_fewer_agents_than_seats_is_refused() {
    // Two agents cannot fill a table of three.
    let text = GOOD.replace(
        "variants = [\"mnk-3x3k3\", \"oanquan\"]",
        "variants = [\"mnk-3x3k3\", \"oanquan-3p\"]",
    );
    let text = text.replace("spec = \"fault:after=100\"", "spec = \"random\"");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:4:26",
            "key `variants[1]`",
            "`oanquan-3p` would have no games: a game seats 3 agents and only a, b play it",
        ],
    );
    // Nor can one agent, its partner kept to another variant, fill a pair.
    let text = GOOD.replace(
        "spec = \"fault:after=100\"",
        "spec = \"random\"\nvariants = [\"oanquan\"]",
    );
    let text = text.replace(
        "name = \"a\"\nspec = \"random\"",
        "name = \"a\"\nspec = \"random\"\nvariants = [\"oanquan\"]",
    );
    assert_mentions(
        &error(&text),
        &[
            "key `variants[0]`",
            "`mnk-3x3k3` would have no games: a game seats 2 agents and none of the experiment's \
             agents plays it",
        ],
    );
}

#[test]
fn threads_beyond_the_bound_are_refused() {
    let text = GOOD.replace("seed = 1", "seed = 1\nthreads = 100000");
    assert_mentions(
        &error(&text),
        &["key `threads`", "100000 worker threads: give at most 256"],
    );
    assert_eq!(arena::run::parse_threads("256"), Ok(256));
    for bad in ["0", "257", "100000", "-1", "x"] {
        assert!(arena::run::parse_threads(bad).is_err(), "{bad}");
    }
}

#[test]
fn a_time_control_is_read_as_cutechess_writes_it_and_its_errors_are_named() {
    let with = |lines: &str| GOOD.replace("seed = 1\n", &format!("seed = 1\n{lines}\n"));
    let exp = Experiment::from_toml(&with("tc = \"40/60+0.6\""), "exp.toml").unwrap();
    assert_eq!(exp.time_control.unwrap().to_string(), "tc=40/60+0.6");
    assert_eq!((exp.move_time_ms, exp.csv_schema()), (0, 3));
    assert!(exp.depends_on_timing());
    let exp = Experiment::from_toml(&with("st = 0.5\ntc = \"180\""), "exp.toml").unwrap();
    assert_eq!(exp.time_control.unwrap().to_string(), "tc=180 st=0.5");
    assert_eq!(exp.move_time_ms, 500);
    // `st` is `move_time_ms` with the time control recorded: the same games, schema 3.
    let st = Experiment::from_toml(&with("st = 1"), "exp.toml").unwrap();
    let ms = Experiment::from_toml(&with("move_time_ms = 1000"), "exp.toml").unwrap();
    assert_eq!(st.games_time_control(), ms.games_time_control());
    assert_eq!((st.csv_schema(), ms.csv_schema()), (3, 1));
    // Without a time control nothing of the experiment's identity changes.
    let plain = Experiment::from_toml(GOOD, "exp.toml").unwrap();
    assert!(!plain.normalised().contains("time_control"));
    assert!(st.normalised().contains("time_control = st=1"));

    assert_mentions(
        &error(&with("tc = \"60+x\"")),
        &["exp.toml:3:6", "tc", "`x` is not a time"],
    );
    assert_mentions(&error(&with("tc = \"0/60\"")), &["tc", "moves per period"]);
    assert_mentions(&error(&with("tc = \"inf\"")), &["tc", "leave `tc` out"]);
    assert_mentions(
        &error(&with("st = 0")),
        &["exp.toml:3:6", "st", "more than 0"],
    );
    assert_mentions(&error(&with("st = true")), &["st", "seconds a move"]);
    assert_mentions(
        &error(&with("st = 1\nmove_time_ms = 1000")),
        &["move_time_ms", "not both"],
    );
}

#[test]
fn a_per_move_limit_written_inside_tc_is_refused_and_pointed_at_st() {
    // `arena play --tc` and the web refuse this text; an experiment used to keep `tc=60` and
    // drop the per-move limit without a word.
    let with = |lines: &str| GOOD.replace("seed = 1\n", &format!("seed = 1\n{lines}\n"));
    assert_mentions(
        &error(&with("tc = \"60 st=0.001\"")),
        &[
            "exp.toml:3:6",
            "key `tc`",
            "`st=0.001` is a time per move",
            "`st`",
        ],
    );
    assert_mentions(
        &error(&with("tc = \"tc=60 st=1\"")),
        &["key `tc`", "`st=1` is a time per move"],
    );
    // `tc=` in front, once, is the same clock; twice is not a clock.
    let exp = Experiment::from_toml(&with("tc = \"tc=60\""), "exp.toml").unwrap();
    assert_eq!(exp.time_control.unwrap().to_string(), "tc=60");
    assert_mentions(
        &error(&with("tc = \"tc=tc=5\"")),
        &["key `tc`", "not a time"],
    );
}

#[test]
fn odd_values_get_messages_that_say_what_is_expected() {
    let with = |lines: &str| GOOD.replace("seed = 1\n", &format!("seed = 1\n{lines}\n"));
    let message = error(&with("openings = 1"));
    assert_mentions(
        &message,
        &["exp.toml:3:12", "key `openings`", "a file name in quotes"],
    );
    assert!(!message.contains("untagged"), "{message}");
    let message = error(&with("openings = [\"a.txt\", 2]"));
    assert_mentions(&message, &["key `openings`", "a file name in quotes"]);

    let text = GOOD.replace("variants = [\"mnk-3x3k3\", \"oanquan\"]", "variants = {}");
    let message = error(&text);
    assert_mentions(
        &message,
        &["exp.toml:4", "key `variants`", "a list in brackets"],
    );
    assert!(!message.contains("[[agents]]"), "{message}");
    // An inline table for the agents: the agents' own words, not the variants' example.
    let text =
        "name = \"t\"\nvariants = [\"mnk-3x3k3\"]\nagents = { name = \"a\", spec = \"random\" }\n";
    let message = error(text);
    assert_mentions(&message, &["[[agents]]"]);
    assert!(!message.contains("mnk-3x3k3\"]`"), "{message}");

    let message = error(&with("st = true"));
    assert_mentions(&message, &["key `st`", "`true` is not a time"]);
    assert!(!message.contains("``"), "{message}");

    let message = error(&with("tc = 180"));
    assert_mentions(&message, &["exp.toml:3:6", "key `tc`", "tc = \"180\""]);
    assert!(!message.contains("invalid type"), "{message}");

    // A sign in front: refused alike, whatever follows it.
    for text in ["+1:30", "+40/60", "40/+60"] {
        assert_mentions(
            &error(&with(&format!("tc = \"{text}\""))),
            &["key `tc`", "`+` only comes before the increment"],
        );
    }
}

#[test]
fn a_ply_cap_beyond_the_bound_is_refused() {
    // A cycling game between random agents at 2^32 - 1 plies never ends while memory grows.
    let text = GOOD.replace("seed = 1", "seed = 1\nmax_plies = 4294967295");
    assert_mentions(
        &error(&text),
        &["exp.toml:3:13", "key `max_plies`", "give at most 10000"],
    );
    let text = GOOD.replace("seed = 1", "seed = 1\nmax_plies = 10000");
    assert_eq!(
        Experiment::from_toml(&text, "exp.toml").unwrap().max_plies,
        10_000
    );
}

#[test]
fn a_random_opening_may_take_at_most_half_of_what_the_game_can_last() {
    let game = |variant: &str, extra: &str| {
        // A third agent, for O An Quan's three seats.
        GOOD.replace("\"mnk-3x3k3\", \"oanquan\"", &format!("\"{variant}\""))
            .replace(
                "games_per_pair = 2",
                &format!("games_per_pair = 2\n{extra}"),
            )
            + "\n[[agents]]\nname = \"c\"\nspec = \"random\"\n"
    };
    // The board bounds Connect Four's games whatever the ply cap.
    assert_mentions(
        &error(&game("connect4", "max_plies = 200\nopening_plies = 99")),
        &[
            "key `opening_plies`",
            "`connect4` lasts at most 42 plies (the longest game its rules allow)",
            "give at most 21",
        ],
    );
    assert!(
        Experiment::from_toml(
            &game("connect4", "max_plies = 200\nopening_plies = 21"),
            "e"
        )
        .is_ok()
    );
    assert!(Experiment::from_toml(&game("connect4", "opening_plies = 22"), "e").is_err());
    // The cap less one decided every game: no longer accepted.
    assert_mentions(
        &error(&game("mnk-3x3k3", "opening_plies = 8")),
        &["`mnk-3x3k3` lasts at most 9 plies", "give at most 4"],
    );
    assert!(Experiment::from_toml(&game("mnk-3x3k3", "opening_plies = 4"), "e").is_ok());
    assert_mentions(
        &error(&game("mnk-5x5k4", "max_plies = 6\nopening_plies = 4")),
        &[
            "`mnk-5x5k4` lasts at most 6 plies (its ply cap)",
            "give at most 3",
        ],
    );
    // Games that can go round in cycles: their ply cap bounds them.
    for variant in ["oanquan", "oanquan-3p", "oware"] {
        assert_mentions(
            &error(&game(variant, "opening_plies = 501")),
            &[
                &format!("`{variant}` lasts at most 1000 plies (its ply cap)"),
                "give at most 500",
            ],
        );
        assert!(Experiment::from_toml(&game(variant, "opening_plies = 500"), "e").is_ok());
    }
}

#[test]
fn a_time_per_move_beyond_a_day_is_refused_as_st_and_tc_are() {
    let text = GOOD.replace("seed = 1", "seed = 1\nmove_time_ms = 18446744073709551615");
    assert_mentions(
        &error(&text),
        &[
            "exp.toml:3:16",
            "key `move_time_ms`",
            "at most a day (86400000 ms)",
        ],
    );
    let text = GOOD.replace("seed = 1", "seed = 1\nmove_time_ms = 86400001");
    assert_mentions(&error(&text), &["key `move_time_ms`", "at most a day"]);
    let text = GOOD.replace("seed = 1", "seed = 1\nmove_time_ms = 86400000");
    assert_eq!(
        Experiment::from_toml(&text, "exp.toml")
            .unwrap()
            .move_time_ms,
        86_400_000
    );
}

#[test]
fn names_with_format_or_separator_characters_are_refused() {
    // U+202E turns the rest of a terminal's line round; the others are invisible or break it.
    for (escape, shown) in [
        ("\\u202E", "U+202E"),
        ("\\u200B", "U+200B"),
        ("\\uFEFF", "U+FEFF"),
        ("\\u2028", "U+2028"),
        ("\\u2029", "U+2029"),
        ("\\u00A0", "U+00A0"),
        ("\\u3000", "U+3000"),
    ] {
        let text = GOOD.replace("name = \"a\"", &format!("name = \"a{escape}b\""));
        assert_mentions(
            &error(&text),
            &["exp.toml:7:8", "key `agents[0].name`", shown],
        );
    }
    let text = GOOD.replace("name = \"a\"", "name = \"Nguyễn Văn An\"");
    assert!(Experiment::from_toml(&text, "exp.toml").is_ok());
}

#[test]
fn the_sandbox_keys_are_read_with_their_defaults_and_bad_values_named() {
    use protocol::sandbox::{Limits, Mode};
    let exp = Experiment::from_toml(GOOD, "exp.toml").unwrap();
    assert_eq!(exp.sandbox.mode, Mode::BestEffort);
    assert_eq!(exp.sandbox.limits, Limits::default());
    assert_eq!(exp.sandbox.limits.memory_mb, 1024);
    let with = |keys: &str| {
        GOOD.replacen(
            "games_per_pair = 2\n",
            &format!("games_per_pair = 2\n{keys}\n"),
            1,
        )
    };
    let exp = Experiment::from_toml(
        &with("sandbox = \"required\"\nsandbox_memory_mb = 350\nsandbox_cpu_s = 10"),
        "exp.toml",
    )
    .unwrap();
    assert_eq!(exp.sandbox.mode, Mode::Required);
    assert_eq!(
        (exp.sandbox.limits.memory_mb, exp.sandbox.limits.cpu_s),
        (350, 10)
    );
    assert_mentions(
        &error(&with("sandbox = \"on\"")),
        &[
            "exp.toml:4",
            "key `sandbox`",
            "`\"on\"` is not a sandbox mode",
            "best-effort",
        ],
    );
    assert_mentions(
        &error(&with("sandbox = true")),
        &["key `sandbox`", "not a sandbox mode"],
    );
    assert_mentions(
        &error(&with("sandbox_memory_mb = 8")),
        &["key `sandbox_memory_mb`", "8 is out of range: give 16 to"],
    );
    assert_mentions(
        &error(&with("sandbox_read = [\"/no/such/folder\"]")),
        &[
            "key `sandbox_read[0]`",
            "no such file or folder `/no/such/folder`",
        ],
    );
}

const GAUNTLET: &str = r#"name = "g"
seed = 1
games_per_pair = 2
variants = ["mnk-3x3k3", "oanquan"]
format = "gauntlet"

[[agents]]
name = "entrant"
spec = "random"

[[agents]]
name = "reference"
spec = "random"
field = true
"#;

#[test]
fn a_gauntlet_is_read_and_its_format_and_field_are_in_the_hash() {
    let gauntlet = Experiment::from_toml(GAUNTLET, "exp.toml").unwrap();
    assert_eq!(gauntlet.format, arena::experiment::Format::Gauntlet);
    assert_eq!(
        gauntlet.agents.iter().map(|a| a.field).collect::<Vec<_>>(),
        [false, true]
    );
    // The same agents as a round-robin: another experiment, another hash.
    let round_robin = GAUNTLET
        .replace("format = \"gauntlet\"\n", "")
        .replace("field = true\n", "");
    let round_robin = Experiment::from_toml(&round_robin, "exp.toml").unwrap();
    assert_eq!(round_robin.format, arena::experiment::Format::RoundRobin);
    assert_ne!(gauntlet.hash(), round_robin.hash());
    // Another field, another hash.
    let moved = GAUNTLET.replace("field = true\n", "").replace(
        "spec = \"random\"\n\n",
        "spec = \"random\"\nfield = true\n\n",
    );
    let moved = Experiment::from_toml(&moved, "exp.toml").unwrap();
    assert_eq!(
        moved.agents.iter().map(|a| a.field).collect::<Vec<_>>(),
        [true, false]
    );
    assert_ne!(gauntlet.hash(), moved.hash());
    // Writing the default format changes nothing.
    let written = GOOD.replacen("[[agents]]", "format = \"round-robin\"\n[[agents]]", 1);
    assert_eq!(
        Experiment::from_toml(&written, "exp.toml").unwrap().hash(),
        Experiment::from_toml(GOOD, "exp.toml").unwrap().hash()
    );
}

#[test]
fn a_gauntlet_without_a_field_or_an_entrant_and_other_bad_formats_are_named() {
    let no_field = error(&GAUNTLET.replace("field = true\n", ""));
    assert_mentions(
        &no_field,
        &[
            "exp.toml",
            "`format`",
            "exp.toml:5:",
            "needs a field",
            "`field = true`",
        ],
    );
    let no_entrant = error(&GAUNTLET.replace(
        "spec = \"random\"\n\n",
        "spec = \"random\"\nfield = true\n\n",
    ));
    assert_mentions(
        &no_entrant,
        &["`format`", "at least one entrant", "`field = true`"],
    );
    let round_robin = error(&GAUNTLET.replace("format = \"gauntlet\"\n", ""));
    assert_mentions(
        &round_robin,
        &["`agents[1].field`", "round-robin", "format = \"gauntlet\""],
    );
    let unknown = error(&GAUNTLET.replace("\"gauntlet\"", "\"swiss\""));
    assert_mentions(
        &unknown,
        &[
            "`format`",
            "\"swiss\" is not a format",
            "round-robin",
            "gauntlet",
        ],
    );
    let number = error(&GAUNTLET.replace("\"gauntlet\"", "2"));
    assert_mentions(&number, &["`format`", "2 is not a format"]);
    let not_bool = error(&GAUNTLET.replace("field = true", "field = \"yes\""));
    assert_mentions(&not_bool, &["field", "exp.toml:14:"]);
    let three = error(&GAUNTLET.replace("\"oanquan\"]", "\"oanquan-3p\"]"));
    assert_mentions(&three, &["`variants[1]`", "seats 3 players", "gauntlet"]);
    // A variant only entrants play has no games in a gauntlet.
    let only_entrants =
        error(&GAUNTLET.replace("field = true\n", "field = true\nvariants = [\"oanquan\"]\n"));
    assert_mentions(
        &only_entrants,
        &[
            "`variants[0]`",
            "`mnk-3x3k3` would have no games",
            "no field agent",
        ],
    );
}

/// A class's folder of submissions (`submissions = "DIR"`): each plain sub-folder is an agent
/// after the listed ones, in name order, running in its own folder; in a gauntlet the listed
/// agents are the field without `field = true`. Hostile names are refused with their reason,
/// never made into a spec.
#[test]
fn submissions_are_agents_after_the_listed_ones_and_the_listed_are_a_gauntlet_s_field() {
    let dir = crate::common::scratch("submissions");
    let subs = dir.join("subs");
    for folder in ["zoe", "amy", "a b", "x,cmd=sh", ".git", "named"] {
        std::fs::create_dir_all(subs.join(folder)).unwrap();
        std::fs::write(subs.join(folder).join("main.py"), "").unwrap();
    }
    std::fs::write(
        subs.join("named/submission.toml"),
        "name = \"Amy's rival\"\n",
    )
    .unwrap();
    std::fs::write(subs.join("notes.txt"), "a file beside the folders").unwrap();
    let file = dir.join("class.toml");
    std::fs::write(
        &file,
        "name = \"c\"\nseed = 1\ngames_per_pair = 2\nvariants = [\"tictactoe\"]\n\
         format = \"gauntlet\"\nsubmissions = \"subs\"\n\n\
         [[agents]]\nname = \"random\"\nspec = \"random\"\n\n\
         [[agents]]\nname = \"easy\"\nspec = \"easy\"\n",
    )
    .unwrap();
    let experiment = Experiment::from_file(&file).unwrap();
    let agents: Vec<(&str, String, bool)> = experiment
        .agents
        .iter()
        .map(|a| (a.name.as_str(), a.spec.to_string(), a.field))
        .collect();
    assert_eq!(
        agents,
        [
            ("random", "random".to_string(), true),
            ("easy", "easy".to_string(), true),
            (
                "amy",
                "proc:cmd=python3,dir=subs/amy,args=main.py".to_string(),
                false
            ),
            (
                "Amy's rival",
                "proc:cmd=python3,dir=subs/named,args=main.py".to_string(),
                false
            ),
            (
                "zoe",
                "proc:cmd=python3,dir=subs/zoe,args=main.py".to_string(),
                false
            ),
        ]
    );
    let submissions = experiment.submissions.as_ref().unwrap();
    let refused: Vec<(&str, bool)> = submissions
        .entries
        .iter()
        .map(|s| (s.folder.as_str(), s.refused.is_some()))
        .collect();
    assert_eq!(
        refused,
        [
            ("a b", true),
            ("amy", false),
            ("named", false),
            ("x,cmd=sh", true),
            ("zoe", false)
        ]
    );
    // Not yet admitted: a run refuses it until `arena::admission::admit` builds and checks.
    let error = arena::run(
        &experiment,
        &crate::common::options(&dir.join("out"), 1, arena::Shard::WHOLE),
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("built and checked before the run"),
        "{error}"
    );
}
