//! The ready clients of `clients/`: the Python client and its examples (the TD4 exercise's
//! algo1, the tutorial's minimax, the greedy Oware player), the C++ header and its greedy O An Quan example (built here
//! with the machine's g++), each playing through the arena.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use arena::{Experiment, Progress, RunOptions, Shard, run};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn client(path: &str) -> String {
    repo().join("clients").join(path).display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "arena-clients-{name}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ));
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(out: &Path) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        threads: Some(2),
        fresh: false,
        shard: Shard::WHOLE,
        progress: Progress::Quiet,
    }
}

/// `arena analyze ARGS`, which must succeed: its standard output.
fn analyze(args: &[&str]) -> String {
    let output = Command::new(ARENA)
        .arg("analyze")
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

fn rows(csv: &Path) -> Vec<arena::Row> {
    csv::Reader::from_path(csv)
        .unwrap()
        .deserialize()
        .map(Result::unwrap)
        .collect()
}

/// The score of `agent` over `rows` (1 a win, 1/2 a draw).
fn score(rows: &[arena::Row], agent: &str) -> f64 {
    rows.iter()
        .map(|r| match (r.result.as_str(), r.first == agent) {
            ("1-0", true) | ("0-1", false) => 1.0,
            ("1/2-1/2", _) => 0.5,
            _ => 0.0,
        })
        .sum()
}

#[test]
fn the_python_algo1_finds_a_winning_move_on_the_td4_position() {
    // The winning moves of the TD4 position (crates/agents/tests/it/td4.rs, as names).
    let winning = ["d2", "e2", "b4"];
    let mut found = 0;
    for seed in 1..=5 {
        let stdout = analyze(&[
            "mnk-5x5k4",
            "--moves",
            "b3 c3 c2 d1 b2 a2",
            "--seed",
            &seed.to_string(),
            "--agent",
            &format!(
                "proc:cmd=python3,timeout_ms=120000,args={} 1000",
                client("python/examples/algo1.py")
            ),
        ]);
        let mv = stdout
            .lines()
            .find_map(|l| l.strip_prefix("move: "))
            .unwrap_or_else(|| panic!("no move: {stdout}"));
        // Its info line reaches the nodes count: 19 candidates of 1,000 playouts.
        assert!(stdout.contains("nodes: 19000"), "{stdout}");
        found += usize::from(winning.contains(&mv));
    }
    assert!(found >= 4, "a winning move for {found} of 5 seeds");
}

#[test]
fn the_python_minimax_plays_perfect_tic_tac_toe_and_refuses_other_games() {
    let exp = Experiment::from_toml(
        &format!(
            // The example imports the client from the folder above its own: readable by
            // `sandbox_read`, as a library elsewhere is.
            "name = \"minimax\"\nseed = 4\ngames_per_pair = 4\nvariants = [\"tictactoe\", \"mnk-5x5k4\"]\n\
             sandbox_read = [\"{}\"]\n\
             [[agents]]\nname = \"minimax-py\"\nvariants = [\"tictactoe\"]\n\
             spec = \"proc:cmd=python3,timeout_ms=60000,args={}\"\n\
             [[agents]]\nname = \"alphabeta\"\nspec = \"alphabeta:depth=9\"\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n",
            client("python"),
            client("python/examples/minimax.py")
        ),
        "minimax.toml",
    )
    .unwrap();
    let out = scratch("minimax");
    let summary = run(&exp, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let games = rows(&out.join("games.csv"));
    for row in games
        .iter()
        .filter(|r| r.first == "minimax-py" || r.second == "minimax-py")
    {
        if row.first == "alphabeta" || row.second == "alphabeta" {
            assert_eq!(
                row.result, "1/2-1/2",
                "perfect play on both sides draws: {row:?}"
            );
        } else {
            let lost = (row.first == "minimax-py" && row.result == "0-1")
                || (row.second == "minimax-py" && row.result == "1-0");
            assert!(!lost, "minimax lost to random: {row:?}");
        }
    }
    // On a board it does not play, the pre-flight check names it.
    let refused = Experiment::from_toml(
        &format!(
            "name = \"minimax5\"\nseed = 4\ngames_per_pair = 2\nvariants = [\"mnk-5x5k4\"]\n\
             sandbox_read = [\"{}\"]\n\
             [[agents]]\nname = \"minimax-py\"\nspec = \"proc:cmd=python3,args={}\"\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n",
            client("python"),
            client("python/examples/minimax.py")
        ),
        "minimax5.toml",
    )
    .unwrap();
    let error = run(&refused, &options(&scratch("minimax5")))
        .unwrap_err()
        .to_string();
    assert!(error.contains("does not play `mnk-5x5k4`"), "{error}");
}

#[test]
fn the_python_client_sees_the_positions_the_arena_plays() {
    // An agent that checks the client's view of each position against the move list and the
    // game's invariant, and fails (an `error`: a crash) if they disagree.
    let dir = scratch("view");
    let agent = dir.join("checker.py");
    fs::write(
        &agent,
        format!(
            "import sys\nsys.path.insert(0, {:?})\nimport arena_agent\n\n\
             def choose(p):\n\
             \x20   assert set(p.legal) and len(p.moves) >= 2, (p.moves, p.legal)\n\
             \x20   if p.family == 'mnk':\n\
             \x20       xs = sum(row.count('X') for row in p.board)\n\
             \x20       os = sum(row.count('O') for row in p.board)\n\
             \x20       assert (xs, os) == ((len(p.moves) + 1) // 2, len(p.moves) // 2), p.board\n\
             \x20       for i, m in enumerate(p.moves):\n\
             \x20           r, c = p.cell(m)\n\
             \x20           assert p.board[r][c] == 'XO'[i % 2] and p.name(r, c) == m\n\
             \x20       assert all(p.board[r][c] == '.' for r, c in map(p.cell, p.legal))\n\
             \x20       assert p.me == 'XO'[len(p.moves) % 2]\n\
             \x20   elif p.family == 'connect4':\n\
             \x20       cells = ''.join(''.join(row) for row in p.board)\n\
             \x20       assert (cells.count('X'), cells.count('O')) == ((len(p.moves) + 1) // 2, len(p.moves) // 2)\n\
             \x20       assert (len(p.board), len(p.board[0])) == (p.rows, p.cols) == (6, 7)\n\
             \x20       for c in range(p.cols):\n\
             \x20           column = ''.join(p.board[r][c] for r in range(p.rows))\n\
             \x20           assert '.' not in column.lstrip('.'), p.board\n\
             \x20           assert (column[0] == '.') == ('abcdefg'[c] in p.legal), (p.board, p.legal)\n\
             \x20       for c in 'abcdefg':\n\
             \x20           assert p.moves.count(c) == sum(row['abcdefg'.index(c)] != '.' for row in p.board)\n\
             \x20       assert p.me == 'XO'[len(p.moves) % 2]\n\
             \x20   elif p.family == 'breakthrough':\n\
             \x20       assert (len(p.board), len(p.board[0]), p.rows, p.cols) == (8, 8, 8, 8)\n\
             \x20       for r in range(8):\n\
             \x20           for c in range(8):\n\
             \x20               assert (p.board[r][c] == '.') == (p.kinds[r][c] == '.'), p.kinds\n\
             \x20               assert p.kinds[r][c] in 'p.', p.kinds\n\
             \x20       for m in p.legal:\n\
             \x20           r, c = p.cell(m[:2])\n\
             \x20           assert p.board[r][c] == p.me, (m, p.board)\n\
             \x20       assert p.me == 'XO'[len(p.moves) % 2]\n\
             \x20   else:\n\
             \x20       total = sum(p.seeds) + sum(p.captures) + p.mandarin * sum(p.pieces)\n\
             \x20       n = p.players\n\
             \x20       assert total == 25 * n + n * p.mandarin, (p.seeds, p.pieces, p.captures)\n\
             \x20       assert (len(p.seeds), len(p.pieces), len(p.captures)) == (6 * n, n, n)\n\
             \x20       assert len(p.my_squares) == 5\n\
             \x20       mine = [int(m[:-1]) for m in p.legal]\n\
             \x20       assert all(p.index(l) in p.my_squares for l in mine), p.legal\n\
             \x20   assert 0 < p.time_left() <= p.time_ms / 1000\n\
             \x20   return p.rng.choice(p.legal)\n\n\
             arena_agent.play(choose, name='checker')\n",
            client("python")
        ),
    )
    .unwrap();
    let exp = Experiment::from_toml(
        &format!(
            "name = \"view\"\nseed = 6\ngames_per_pair = 6\nopening_plies = 2\n\
             variants = [\"mnk-4x6k3\", \"mnk-7x7k5-caro\", \"oanquan\", \"oanquan-mandarin5\", \
             \"oanquan-3p\", \"oanquan-4p\", \"connect4\", \"breakthrough\"]\n\
             sandbox_read = [\"{}\"]\n\
             [[agents]]\nname = \"checker\"\nspec = \"proc:cmd=python3,args={}\"\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n\
             [[agents]]\nname = \"greedy\"\nspec = \"greedy\"\n\
             [[agents]]\nname = \"flat\"\nspec = \"mc-flat:rollouts=3\"\n",
            client("python"),
            agent.display()
        ),
        "view.toml",
    )
    .unwrap();
    let out = dir.join("out");
    let summary = run(&exp, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    // m,n,k: the 3 pairs of checker, random and flat (greedy plays O An Quan only) on two
    // boards, and Connect Four and Breakthrough on one each; O An Quan for 2: the 6 pairs of
    // four agents on two rule sets; for 3: 4 groups x 3 seat orders; for 4: 1 group x 4; 6
    // games each.
    assert_eq!(summary.played, (3 * 4 + 2 * 6 + 4 * 3 + 4) * 6);
}

/// The Python greedy Oware example plays the biggest capture the rules give, on positions of
/// random games where one move captures more than every other (found here with the rules).
#[test]
fn the_python_oware_greedy_takes_the_biggest_capture() {
    use rand::{RngExt, SeedableRng};
    use rules::Game;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut checked = 0;
    while checked < 3 {
        let mut game = rules::oware::Oware::start();
        let mut played = Vec::new();
        let mut moves = rules::MoveList::new();
        while !game.is_over() && checked < 3 {
            game.legal_moves(&mut moves);
            let me = game.side_to_move();
            let gains: Vec<u8> = moves
                .iter()
                .map(|&mv| game.child(mv).store(me) - game.store(me))
                .collect();
            let best = *gains.iter().max().unwrap();
            let unique = gains.iter().filter(|&&g| g == best).count() == 1;
            if best > 0 && unique {
                let expected =
                    game.format_move(moves[gains.iter().position(|&g| g == best).unwrap()]);
                let stdout = analyze(&[
                    "oware",
                    "--moves",
                    &played.join(" "),
                    "--agent",
                    &format!(
                        "proc:cmd=python3,args={}",
                        client("python/examples/oware_greedy.py")
                    ),
                ]);
                let mv = stdout.lines().find_map(|l| l.strip_prefix("move: "));
                assert_eq!(mv, Some(expected.as_str()), "after {played:?}: {stdout}");
                assert!(stdout.contains(&format!("captures {best}")), "{stdout}");
                checked += 1;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            played.push(game.format_move(mv));
            game.play_unchecked(mv);
        }
    }
}

/// The C++ greedy example, built once per test run with the machine's g++.
fn greedy_binary() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let out = scratch("cpp").join("greedy_oanquan");
        let status = Command::new("g++")
            .args(["-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&out)
            .arg(client("cpp/examples/greedy_oanquan.cpp"))
            .status()
            .expect("g++ is needed to build the C++ example (apt-get install g++)");
        assert!(status.success(), "g++ failed on the C++ example");
        out
    })
}

#[test]
fn the_cpp_greedy_captures_what_the_rules_say_and_plays_through_the_arena() {
    let binary = greedy_binary();
    // The golden trace's `5P` after `3P 7P` relays four times and captures 15 + 1.
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"arena 1\ngame variant=oanquan seat=1 players=2 seed=1 margin_ms=100\n\
              position 3P 7P\nboard seeds=6,0,0,1,7,2,7,7,1,0,6,1 pieces=1,1 captures=6,6 \
              mandarin=10\nlegal 1P 1T 4P 4T 5P 5T\ngo time_ms=1000\nquit\n",
        )
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("info nodes=6 depth=1 text=captures 16"),
        "{text}"
    );
    assert!(text.contains("move 5P"), "{text}");

    let exp = Experiment::from_toml(
        &format!(
            "name = \"cpp\"\nseed = 9\ngames_per_pair = 10\nvariants = [\"oanquan\", \"oanquan-stop\"]\n\
             [[agents]]\nname = \"greedy-cpp\"\nspec = \"proc:cmd={}\"\n\
             [[agents]]\nname = \"greedy\"\nspec = \"greedy\"\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n",
            binary.display()
        ),
        "cpp.toml",
    )
    .unwrap();
    let out = scratch("cpp-run");
    let summary = run(&exp, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let games = rows(&out.join("games.csv"));
    let against_random: Vec<_> = games
        .iter()
        .filter(|r| [&r.first, &r.second].contains(&&"greedy-cpp".to_string()))
        .filter(|r| [&r.first, &r.second].contains(&&"random".to_string()))
        .cloned()
        .collect();
    // Greedy beats random by far, as ours does.
    assert!(
        score(&against_random, "greedy-cpp") >= 15.0,
        "{against_random:?}"
    );
}

/// The code blocks of the book's "Your own agent" page, in order, with their language.
fn readme_blocks() -> Vec<(String, String)> {
    let readme = fs::read_to_string(repo().join("docs/src/guide/own-agent.md")).unwrap();
    let start = readme.find("# Your own agent").expect("the page");
    let end = readme.len();
    let mut blocks = Vec::new();
    let mut lines = readme[start..end].lines();
    while let Some(line) = lines.next() {
        if let Some(language) = line.strip_prefix("```") {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks.push((language.to_string(), body.join("\n") + "\n"));
        }
    }
    blocks
}

#[test]
fn the_books_walkthrough_runs_as_written() {
    let blocks = readme_blocks();
    let block = |language: &str| {
        blocks
            .iter()
            .find(|(l, _)| l == language)
            .map(|(_, body)| body.clone())
            .unwrap_or_else(|| panic!("no {language} block"))
    };
    // The first shell block copies the client next to the agent.
    assert!(block("sh").contains("mkdir -p mine && cp clients/python/arena_agent.py mine/"));
    let dir = scratch("walkthrough");
    let mine = dir.join("mine");
    fs::create_dir_all(&mine).unwrap();
    fs::copy(client("python/arena_agent.py"), mine.join("arena_agent.py")).unwrap();
    fs::write(mine.join("agent.py"), block("python")).unwrap();
    fs::write(mine.join("try.toml"), block("toml")).unwrap();
    let output = Command::new(ARENA)
        .args(["run", "mine/try.toml"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("mine: 80 games"), "{stdout}");
    assert!(stdout.contains("faults: none"), "{stdout}");
    // The tables the README shows are what the run prints: every game is reproducible from
    // the seed, the Python agent's included (it draws from the generator the arena seeds).
    let shown = blocks
        .iter()
        .find(|(l, body)| l == "text" && body.starts_with("mine: 80 games"))
        .map(|(_, body)| body.clone())
        .expect("the README shows what the run prints");
    for row in shown.lines().filter(|l| l.starts_with("    ")) {
        assert!(
            stdout.contains(row),
            "the README shows `{row}`; the run printed:\n{stdout}"
        );
    }
    assert!(dir.join("results/mine/report.md").exists());
    // The C++ block builds with the header and answers the protocol.
    let cpp = dir.join("agent.cpp");
    fs::write(&cpp, block("cpp")).unwrap();
    let binary = dir.join("agent");
    let status = Command::new("g++")
        .args(["-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(repo().join("clients/cpp"))
        .arg("-o")
        .arg(&binary)
        .arg(&cpp)
        .status()
        .expect("g++ is needed to build the C++ example (apt-get install g++)");
    assert!(status.success());
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"arena 1\ngame variant=mnk-3x3k3 seat=1 players=2 seed=3\nposition\nlegal b2\ngo time_ms=10\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).ends_with("ok\nmove b2\n"));
}

#[test]
fn the_experiments_of_the_clients_parse() {
    for name in ["outside.toml", "algo1.toml"] {
        let exp = Experiment::from_file(&repo().join("experiments").join(name)).unwrap();
        assert!(exp.agents.iter().any(|a| a.spec.kind == "proc"), "{name}");
    }
}

#[test]
fn the_cpp_and_python_clients_agree_on_mnk_winner() {
    // Random boards of every rule, the same queries to both clients' `mnk_winner`.
    let dir = scratch("winner");
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut queries = String::new();
    for _ in 0..2000 {
        let (rows, cols) = (3 + next(5) as usize, 3 + next(5) as usize);
        let k = 3 + next(3);
        let rule = ["freestyle", "exact", "caro"][next(3) as usize];
        let board: Vec<String> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| ['X', 'O', '.', 'X'][next(4) as usize])
                    .collect()
            })
            .collect();
        let (row, col) = (next(rows as u64), next(cols as u64));
        let mut board = board;
        board[row as usize].replace_range(col as usize..=col as usize, "X");
        queries += &format!("{rule} {k} {row} {col} {}\n", board.join("/"));
    }
    fs::write(dir.join("queries.txt"), &queries).unwrap();
    let python = Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import sys\nsys.path.insert(0, {:?})\nimport arena_agent\n\
             for line in open(sys.argv[1]):\n\
             \x20   rule, k, row, col, board = line.split()\n\
             \x20   board = [list(r) for r in board.split('/')]\n\
             \x20   print(int(arena_agent.mnk_winner(board, int(row), int(col), int(k), rule)))\n",
            client("python")
        ))
        .arg(dir.join("queries.txt"))
        .output()
        .unwrap();
    assert!(
        python.status.success(),
        "{}",
        String::from_utf8_lossy(&python.stderr)
    );
    let source = dir.join("winner.cpp");
    fs::write(
        &source,
        "#include \"arena_agent.hpp\"\n#include <fstream>\n#include <sstream>\n\
         int main(int, char** argv) {\n\
         \x20   std::ifstream in(argv[1]);\n\
         \x20   std::string rule, board; int k, row, col;\n\
         \x20   while (in >> rule >> k >> row >> col >> board) {\n\
         \x20       std::vector<std::string> rows; std::istringstream cells(board);\n\
         \x20       for (std::string r; std::getline(cells, r, '/');) rows.push_back(r);\n\
         \x20       std::cout << arena::mnk_winner(rows, row, col, k, rule) << '\\n';\n\
         \x20   }\n}\n",
    )
    .unwrap();
    let binary = dir.join("winner");
    let status = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(repo().join("clients/cpp"))
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("g++ is needed to build the C++ client (apt-get install g++)");
    assert!(status.success());
    let cpp = Command::new(&binary)
        .arg(dir.join("queries.txt"))
        .output()
        .unwrap();
    let (python, cpp) = (
        String::from_utf8_lossy(&python.stdout).to_string(),
        String::from_utf8_lossy(&cpp.stdout).to_string(),
    );
    assert_eq!(python.lines().count(), 2000);
    // Both answers occur, so the comparison means something.
    assert!(python.contains('1') && python.contains('0'));
    for (i, (p, c)) in python.lines().zip(cpp.lines()).enumerate() {
        assert_eq!(p, c, "query {}: {}", i + 1, queries.lines().nth(i).unwrap());
    }
}

#[test]
fn the_python_client_names_the_function_that_returned_something_else_than_a_move() {
    let dir = scratch("returns");
    let agent = dir.join("tuple_agent.py");
    fs::write(
        &agent,
        format!(
            "import sys\nsys.path.insert(0, {:?})\nimport arena_agent\n\n\
             def choose(position):\n    return (1, 1)\n\n\
             arena_agent.play(choose)\n",
            client("python")
        ),
    )
    .unwrap();
    let output = Command::new(ARENA)
        .args(["analyze", "tictactoe", "--moves", "b2", "--agent"])
        .arg(format!("proc:cmd=python3,args={}", agent.display()))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!output.status.success(), "{text}");
    let expected = format!(
        "choose ({}:5) returned a tuple, (1, 1): it must return one of position.legal",
        agent.display()
    );
    assert!(text.contains(&expected), "{text}");
    assert!(!text.contains("Traceback"), "{text}");
}

/// A C++ agent that checks, every turn, the board the header read against the rules' facts of
/// Connect Four, Oware and Breakthrough, and plays at random among the legal moves: any mismatch is a crash
/// (exit 3) that the run records as a fault.
const CPP_CHECKER: &str = r#"
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include "arena_agent.hpp"

static void fail(const std::string& why) {
    std::cerr << "view mismatch: " << why << std::endl;
    std::exit(3);
}

static std::string choose(arena::Position& p) {
    if (p.family == "connect4") {
        if (p.rows != 6 || p.cols != 7 || (int)p.board.size() != 6) fail("not a 6x7 grid");
        int stones = 0, mine = 0;
        for (int r = 0; r < p.rows; ++r) {
            if ((int)p.board[r].size() != p.cols) fail("a row of another width");
            for (int c = 0; c < p.cols; ++c) {
                char cell = p.board[r][c];
                if (cell == '.') continue;
                ++stones;
                mine += cell == p.me;
                // Gravity: every stone stands on the bottom or on another stone.
                if (r + 1 < p.rows && p.board[r + 1][c] == '.') fail("a stone in the air");
            }
        }
        if (stones != (int)p.moves.size()) fail("stones and moves differ");
        if (mine != (int)p.moves.size() / 2) fail("my stones are not half the moves");
        // A column is legal exactly when its top cell is empty.
        for (int c = 0; c < p.cols; ++c) {
            std::string letter(1, static_cast<char>('a' + c));
            bool legal = std::find(p.legal.begin(), p.legal.end(), letter) != p.legal.end();
            if (legal != (p.board[0][c] == '.')) fail("legal columns and the top row differ");
        }
    } else if (p.family == "oware") {
        if (p.seeds.size() != 12 || p.captures.size() != 2) fail("not 12 houses and 2 stores");
        int total = std::accumulate(p.seeds.begin(), p.seeds.end(), 0) + p.captures[0] +
                    p.captures[1];
        if (total != 48) fail("seeds do not add up to 48");
        if (p.my_houses.size() != 6 || p.my_houses[0] != 6 * (p.seat - 1)) fail("my houses");
        // Every legal move names one of my houses that holds seeds.
        for (const std::string& move : p.legal) {
            int letter = std::tolower(move[0]) - 'a';
            if (move.size() != 1 || letter < 0 || letter > 5) fail("a move that is no house");
            if (p.seeds[p.my_houses[letter]] == 0) fail("an empty house offered");
        }
    } else if (p.family == "breakthrough") {
        if (p.rows != 8 || p.cols != 8 || p.board.size() != 8 || p.kinds.size() != 8)
            fail("not an 8x8 grid with kinds");
        int pawns[2] = {0, 0};
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                char cell = p.board[r][c], kind = p.kinds[r][c];
                if ((cell == '.') != (kind == '.') || (kind != '.' && kind != 'p'))
                    fail("kinds and owners differ");
                if (cell != '.') ++pawns[cell == 'X' ? 0 : 1];
            }
        if (pawns[0] > 16 || pawns[1] > 16 || pawns[0] == 0 || pawns[1] == 0) fail("pawns");
        // Every legal move starts from a pawn of mine.
        for (const std::string& move : p.legal) {
            int col = move[0] - 'a', row = move[1] - '1';
            if (p.board[row][col] != p.me) fail("a move from a cell without my pawn: " + move);
        }
    } else {
        fail("a game this checker does not know: " + p.family);
    }
    std::uniform_int_distribution<size_t> pick(0, p.legal.size() - 1);
    return p.legal[pick(p.rng)];
}

int main() {
    return arena::play(choose, "view checker, in C++", [](const std::string& variant) {
        return variant == "connect4" || variant == "oware" || variant == "breakthrough";
    });
}
"#;

#[test]
fn the_cpp_client_reads_connect_four_oware_and_breakthrough_as_the_rules_have_them() {
    let dir = scratch("cpp-views");
    let source = dir.join("checker.cpp");
    fs::write(&source, CPP_CHECKER).unwrap();
    let binary = dir.join("checker");
    let status = Command::new("g++")
        .args(["-std=c++17", "-O1", "-I"])
        .arg(repo().join("clients/cpp"))
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("g++ is needed to build the C++ client (apt-get install g++)");
    assert!(status.success(), "g++ failed on the checker");
    let exp = Experiment::from_toml(
        &format!(
            "name = \"cpp-views\"\nseed = 5\ngames_per_pair = 4\nvariants = [\"connect4\", \"oware\", \"breakthrough\"]\n\
             [[agents]]\nname = \"checker-cpp\"\nspec = \"proc:cmd={}\"\n\
             [[agents]]\nname = \"random\"\nspec = \"random\"\n",
            binary.display()
        ),
        "cpp-views.toml",
    )
    .unwrap();
    let out = dir.join("run");
    let summary = run(&exp, &options(&out)).unwrap();
    assert!(summary.faults.is_empty(), "{:?}", summary.fault_reasons);
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 12, "{games:?}");
    let _ = fs::remove_dir_all(&dir);
}
